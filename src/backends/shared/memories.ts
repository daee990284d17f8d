/**
 * What every conversation-memory store shares: limits, the checks of names and sizes, and how a
 * message is made, bounded, forgotten and read back.
 */
import { MemoryStoreError } from "../errors.js";
import type { MemoryMessage, MemoryRef, NewMemoryMessage } from "../contracts.js";


/** RAGFlow's largest memory_size: 5 MiB of message text per memory. */
export const DEFAULT_MEMORY_BYTES = 5 * 1024 * 1024;
/** A memory id: what the DSL's memory_ids hold. */
export const MAX_MEMORY_ID_LENGTH = 128;
/** A tenant, as the server allows them (backends/shared/records.ts). */
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
