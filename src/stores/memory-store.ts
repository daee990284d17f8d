/**
 * Sessions in this process's memory: for tests and single-process servers. Snapshots are kept as
 * JSON text, so what is loaded is always a fresh copy and never shares objects with a canvas.
 */
import {
  checkKey,
  checkSaveOptions,
  closedError,
  parseSnapshot,
  serializeSnapshot,
  SnapshotConflictError,
  type SaveOptions,
  type SnapshotStore,
  type StoredSnapshot,
} from "./snapshot-store.js";
import type { CanvasDsl } from "../dsl/types.js";

interface Entry {
  text: string;
  version: string;
  /** Epoch ms after which the entry is gone. */
  expiresAt?: number;
}

export interface MemorySnapshotStoreOptions {
  /** The clock used for expiry (default `Date.now`). */
  now?: () => number;
}

export class MemorySnapshotStore implements SnapshotStore {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  /** One counter for the whole store, so a deleted and re-created session never repeats a version. */
  private lastVersion = 0;
  private closed = false;

  constructor(options: MemorySnapshotStoreOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async load(key: string): Promise<StoredSnapshot | undefined> {
    const entry = this.live(checkKey(key));
    if (!entry) return undefined;
    return { snapshot: parseSnapshot(key, entry.text, `session "${key}"`), version: entry.version };
  }

  async save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string> {
    checkKey(key);
    const { expectedVersion, ttlSeconds } = checkSaveOptions(options);
    const text = serializeSnapshot(key, snapshot);
    const current = this.live(key);
    if (expectedVersion !== undefined && expectedVersion !== (current?.version ?? null)) {
      throw new SnapshotConflictError(key, expectedVersion, current?.version);
    }
    const version = String(++this.lastVersion);
    this.entries.set(key, { text, version, ...(ttlSeconds !== undefined ? { expiresAt: this.now() + ttlSeconds * 1000 } : {}) });
    return version;
  }

  async delete(key: string): Promise<boolean> {
    const existed = this.live(checkKey(key)) !== undefined;
    this.entries.delete(key);
    return existed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.entries.clear();
  }

  /** The entry unless it expired (expired entries are dropped on access). */
  private live(key: string): Entry | undefined {
    if (this.closed) throw closedError("memory");
    const entry = this.entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
