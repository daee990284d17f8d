/** Memories in this process's memory: for a run whose session is not stored anywhere, and for tests. */
import { checkMaxBytes, checkMemoryRef, completeMessage, forgetCount, newMessageId } from "../shared/memories.js";
import { MemoryStoreError } from "../errors.js";
import type { MemoryMessage, MemoryRef, MemoryStore, NewMemoryMessage } from "../contracts.js";

export class InProcessMemoryStore implements MemoryStore {
  readonly scope = "tenant" as const;
  readonly location = "this process's memory";
  /** Tenant, then memory id: two maps, so no way of joining them into one key can mix two tenants up. */
  private readonly tenants = new Map<string, Map<string, MemoryMessage[]>>();
  private readonly maxBytes: number;
  private closed = false;

  constructor(options: { maxBytes?: number } = {}) {
    this.maxBytes = checkMaxBytes(options.maxBytes);
  }

  async add(memory: MemoryRef, message: NewMemoryMessage): Promise<boolean> {
    this.open();
    const { tenant, id } = checkMemoryRef(memory);
    let memories = this.tenants.get(tenant);
    if (!memories) this.tenants.set(tenant, (memories = new Map()));
    const list = memories.get(id) ?? [];
    if (message.source_key !== "" && list.some((m) => m.source_key === message.source_key)) return false;
    list.push(completeMessage(id, message, newMessageId()));
    list.splice(0, forgetCount(list, this.maxBytes));
    memories.set(id, list);
    return true;
  }

  async messages(memory: MemoryRef): Promise<MemoryMessage[]> {
    this.open();
    const { tenant, id } = checkMemoryRef(memory);
    return [...(this.tenants.get(tenant)?.get(id) ?? [])];
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private open(): void {
    if (this.closed) throw new MemoryStoreError("the in-process memory store is closed");
  }
}

/** @deprecated Renamed InProcessMemoryStore (the conversation memories kept in this process). */
export const ProcessMemoryStore = InProcessMemoryStore;
/** @deprecated Renamed InProcessMemoryStore. */
export type ProcessMemoryStore = InProcessMemoryStore;
