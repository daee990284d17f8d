/**
 * Conversation memories (RAGFlow's memory feature): named collections of what was said, written
 * by a Message whose `memory_ids` names them and searched by a Retrieval with
 * `retrieval_from: "memory"`. They live where the sessions live (this process, a folder, Redis or
 * PostgreSQL), so every process that serves a session sees the same memories.
 *
 * A memory is created by its first message, as a dataset id names a configured knowledge base: no
 * separate step. Each memory keeps at most `maxBytes` of message text (RAGFlow's memory_size, at
 * most 5 MiB there) and forgets its oldest messages first (RAGFlow's FIFO forgetting policy).
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

export interface MemoryStore {
  /** Where the memories are, for messages (passwords masked). */
  readonly location: string;
  /** Add a message to a memory (created on first use); false when one with the same source key is there already. */
  add(memoryId: string, message: NewMemoryMessage): Promise<boolean>;
  /** A memory's messages, oldest first (none for a memory never written). */
  messages(memoryId: string): Promise<MemoryMessage[]>;
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
/** One message's content at most (a longer answer is cut, with a marker). */
export const MAX_MESSAGE_CHARS = 100_000;

const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkMemoryId(id: unknown, where = "memory id"): string {
  if (typeof id !== "string" || id.trim() === "") throw new MemoryStoreError(`${where} must be a non-empty string, got ${JSON.stringify(id) ?? String(id)}`);
  if (id.length > MAX_MEMORY_ID_LENGTH) throw new MemoryStoreError(`${where} "${id.slice(0, 40)}…" is ${id.length} characters long; the limit is ${MAX_MEMORY_ID_LENGTH}`);
  if (CONTROL.test(id)) throw new MemoryStoreError(`${where} ${JSON.stringify(id)} contains a control character`);
  return id;
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
