/**
 * Conversation memories (RAGFlow's memory feature): named collections of what was said, written
 * by a Message whose `memory_ids` names them and searched by a Retrieval with
 * `retrieval_from: "memory"`. They live where the sessions live (this process, a folder, Redis or
 * PostgreSQL), so every process that serves a session sees the same memories.
 *
 * A memory is created by its first message, as a dataset id names a configured knowledge base: no
 * separate step. Each memory keeps at most `maxBytes` of message text (RAGFlow's memory_size, at
 * most 5 MiB there) and forgets its oldest messages first (RAGFlow's FIFO forgetting policy).
 *
 * A memory belongs to a tenant: every store method takes a MemoryRef (tenant and id), so two
 * tenants with the same memory id have two memories, and a backend cannot forget the scope. A run
 * gets one tenant's memories (TenantMemories, scope.ts); a run with no tenant (the CLI, the
 * library) is the tenant "default", the tenant of a server with one key or none.
 */

/** A message as a memory keeps it (RAGFlow's memory message, raw type). */
export interface MemoryMessage {
  /** Unique within the memory; later messages sort after earlier ones. */
  message_id: string;
  memory_id: string;
  /** Always "raw": the exchange as it happened (canvasflow extracts no semantic memories). */
  message_type: "raw";
  user_id: string;
  agent_id: string;
  session_id: string;
  /** `User Input: …\nAgent Response: …` */
  content: string;
  /** When it was written (ISO 8601). */
  valid_at: string;
  /** The writing step's idempotency key: a step run again after a crash adds no second copy. */
  source_key: string;
}

export type NewMemoryMessage = Omit<MemoryMessage, "message_id" | "memory_id" | "message_type" | "valid_at">;

/** Which memory: a tenant's scope, and the memory's id in it. */
export interface MemoryRef {
  /** 1 to MAX_TENANT_LENGTH printable characters (the server's rule for tenants). */
  tenant: string;
  /** What a DSL's memory_ids hold: 1 to MAX_MEMORY_ID_LENGTH printable characters. */
  id: string;
}

export interface MemoryStore {
  /**
   * Says the store names memories by tenant and id. Checked at run time: a store written for the
   * interface before tenants (add(id, message)) would file every tenant's memory under one key.
   */
  readonly scope: "tenant";
  /** Where the memories are, for messages (passwords masked). */
  readonly location: string;
  /** Add a message to the tenant's memory (created on first use); false when one with the same source key is there already. */
  add(memory: MemoryRef, message: NewMemoryMessage): Promise<boolean>;
  /** The tenant's memory's messages, oldest first (none for a memory never written). */
  messages(memory: MemoryRef): Promise<MemoryMessage[]>;
  close(): Promise<void>;
}

export class MemoryStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MemoryStoreError";
  }
}

/** RAGFlow's largest memory_size: 5 MiB of message text per memory. */
export const DEFAULT_MEMORY_BYTES = 5 * 1024 * 1024;
/** A memory id: what the DSL's memory_ids hold. */
export const MAX_MEMORY_ID_LENGTH = 128;
/** A tenant, as the server allows them (server/store/records.ts). */
export const MAX_TENANT_LENGTH = 256;
/**
 * The tenant of runs that have none (the CLI, the library, a worker's job that names none): the
 * same as the tenant of a server with a single key or none (server/auth.ts DEFAULT_TENANT).
 */
export const DEFAULT_MEMORY_TENANT = "default";
/** One message's content at most (a longer answer is cut, with a marker). */
export const MAX_MESSAGE_CHARS = 100_000;

const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkMemoryId(id: unknown, where = "memory id"): string {
  if (typeof id !== "string" || id.trim() === "") throw new MemoryStoreError(`${where} must be a non-empty string, got ${JSON.stringify(id) ?? String(id)}`);
  if (id.length > MAX_MEMORY_ID_LENGTH) throw new MemoryStoreError(`${where} "${id.slice(0, 40)}…" is ${id.length} characters long; the limit is ${MAX_MEMORY_ID_LENGTH}`);
  if (CONTROL.test(id)) throw new MemoryStoreError(`${where} ${JSON.stringify(id)} contains a control character`);
  return id;
}

export function checkTenant(tenant: unknown, where = "memory tenant"): string {
  if (typeof tenant !== "string" || tenant === "") throw new MemoryStoreError(`${where} must be a non-empty string, got ${JSON.stringify(tenant) ?? String(tenant)}`);
  if (tenant.length > MAX_TENANT_LENGTH) throw new MemoryStoreError(`${where} "${tenant.slice(0, 40)}…" is ${tenant.length} characters long; the limit is ${MAX_TENANT_LENGTH}`);
  if (CONTROL.test(tenant)) throw new MemoryStoreError(`${where} ${JSON.stringify(tenant)} contains a control character`);
  return tenant;
}

/** A MemoryRef checked: tenant and id both usable (MemoryStoreError naming what is wrong). */
export function checkMemoryRef(memory: unknown): MemoryRef {
  if (typeof memory !== "object" || memory === null) throw new MemoryStoreError(`a memory must be named by { tenant, id }, got ${JSON.stringify(memory) ?? String(memory)}`);
  const { tenant, id } = memory as Partial<MemoryRef>;
  return { tenant: checkTenant(tenant), id: checkMemoryId(id) };
}

/** A memory named for messages: `"notes" of tenant "acme"`. */
export function describeMemory(memory: MemoryRef): string {
  return `memory ${JSON.stringify(memory.id)} of tenant ${JSON.stringify(memory.tenant)}`;
}

export function checkMaxBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MEMORY_BYTES;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) throw new MemoryStoreError(`maxBytes must be a positive whole number of bytes, got ${String(value)}`);
  return value;
}

/** The content a memory keeps: cut to MAX_MESSAGE_CHARS. */
export function boundedContent(content: string): string {
  if (content.length <= MAX_MESSAGE_CHARS) return content;
  return `${content.slice(0, MAX_MESSAGE_CHARS)}\n[cut: the message was ${content.length} characters long]`;
}

export function messageBytes(message: Pick<MemoryMessage, "content">): number {
  return Buffer.byteLength(message.content, "utf8");
}

/** How many of the oldest messages to forget so that the rest fit in maxBytes (the newest is always kept). */
export function forgetCount(messages: readonly Pick<MemoryMessage, "content">[], maxBytes: number): number {
  let total = 0;
  for (const m of messages) total += messageBytes(m);
  let drop = 0;
  while (total > maxBytes && drop < messages.length - 1) {
    total -= messageBytes(messages[drop]);
    drop++;
  }
  return drop;
}

/** A stored message from its JSON text, or an error naming where it is. */
export function parseMessage(text: string, where: string): MemoryMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MemoryStoreError(`${where} is corrupt: not valid JSON (${(error as Error).message})`);
  }
  const m = value as Partial<MemoryMessage> | null;
  if (!m || typeof m !== "object" || typeof m.content !== "string" || typeof m.message_id !== "string") {
    throw new MemoryStoreError(`${where} is corrupt: not a memory message`);
  }
  return m as MemoryMessage;
}

/** A full message from a new one (id and time given by the store). */
export function completeMessage(memoryId: string, message: NewMemoryMessage, messageId: string, now = new Date()): MemoryMessage {
  return {
    message_id: messageId,
    memory_id: memoryId,
    message_type: "raw",
    user_id: message.user_id,
    agent_id: message.agent_id,
    session_id: message.session_id,
    content: boundedContent(message.content),
    valid_at: now.toISOString(),
    source_key: message.source_key,
  };
}

/** Message ids that sort in the order written: time, then a counter, then randomness. */
let counter = 0;
export function newMessageId(now = Date.now()): string {
  counter = (counter + 1) % 1_000_000;
  return `${now.toString().padStart(15, "0")}-${counter.toString().padStart(6, "0")}-${Math.random().toString(36).slice(2, 8)}`;
}
