/** Memories in this process's memory: for a run whose session is not stored anywhere, and for tests. */
import { checkMaxBytes, checkMemoryId, completeMessage, forgetCount, MemoryStoreError, newMessageId, type MemoryMessage, type MemoryStore, type NewMemoryMessage } from "./types.js";

export class ProcessMemoryStore implements MemoryStore {
  readonly location = "this process's memory";
  private readonly memories = new Map<string, MemoryMessage[]>();
  private readonly maxBytes: number;
  private closed = false;

  constructor(options: { maxBytes?: number } = {}) {
    this.maxBytes = checkMaxBytes(options.maxBytes);
  }

  async add(memoryId: string, message: NewMemoryMessage): Promise<boolean> {
    this.open();
    const id = checkMemoryId(memoryId);
    const list = this.memories.get(id) ?? [];
    if (message.source_key !== "" && list.some((m) => m.source_key === message.source_key)) return false;
    list.push(completeMessage(id, message, newMessageId()));
    list.splice(0, forgetCount(list, this.maxBytes));
    this.memories.set(id, list);
    return true;
  }

  async messages(memoryId: string): Promise<MemoryMessage[]> {
    this.open();
    return [...(this.memories.get(checkMemoryId(memoryId)) ?? [])];
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private open(): void {
    if (this.closed) throw new MemoryStoreError("the in-process memory store is closed");
  }
}
