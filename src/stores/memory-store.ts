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
  IssuedLocks,
  SessionLockedError,
  SessionLockLostError,
  SnapshotConflictError,
  type DeleteOptions,
  type SaveOptions,
  type SessionLock,
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

/** Where a memory store's locks are, for messages. */
const MEMORY_LOCK = "this process's memory";

export interface MemorySnapshotStoreOptions {
  /** The clock used for expiry (default `Date.now`). */
  now?: () => number;
}

export class MemorySnapshotStore implements SnapshotStore {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  /** One counter for the whole store, so a deleted and re-created session never repeats a version. */
  private lastVersion = 0;
  /** Session key → the lock that holds it. */
  private readonly lockHolders = new Map<string, SessionLock>();
  private readonly issued = new IssuedLocks<true>();
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
    const { expectedVersion, ttlSeconds, lock } = checkSaveOptions(options);
    const text = serializeSnapshot(key, snapshot);
    const current = this.live(key);
    this.checkLock(key, lock);
    if (expectedVersion !== undefined && expectedVersion !== (current?.version ?? null)) {
      throw new SnapshotConflictError(key, expectedVersion, current?.version);
    }
    const version = String(++this.lastVersion);
    this.entries.set(key, { text, version, ...(ttlSeconds !== undefined ? { expiresAt: this.now() + ttlSeconds * 1000 } : {}) });
    return version;
  }

  async delete(key: string, options?: DeleteOptions): Promise<boolean> {
    const existed = this.live(checkKey(key)) !== undefined;
    this.checkLock(key, options?.lock);
    this.entries.delete(key);
    return existed;
  }

  async lock(key: string): Promise<SessionLock> {
    this.live(checkKey(key));
    if (this.lockHolders.has(key)) {
      throw new SessionLockedError(`session "${key}" is locked by another run (the lock is in ${MEMORY_LOCK}); it is free again when that run releases it`, key, MEMORY_LOCK);
    }
    const lock: SessionLock = {
      key,
      location: MEMORY_LOCK,
      release: async () => {
        this.issued.remove(lock);
        if (this.lockHolders.get(key) === lock) this.lockHolders.delete(key);
      },
    };
    this.lockHolders.set(key, lock);
    this.issued.add(lock, true);
    return lock;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.entries.clear();
    this.lockHolders.clear();
    for (const lock of this.issued.all()) this.issued.remove(lock);
  }

  /** A write goes through only under the session's lock, or when nobody holds it. */
  private checkLock(key: string, lock: SessionLock | undefined): void {
    const holder = this.lockHolders.get(key);
    if (lock === undefined) {
      if (holder) throw new SessionLockedError(`session "${key}" is locked by another run (the lock is in ${MEMORY_LOCK}); nothing was written`, key, MEMORY_LOCK);
      return;
    }
    this.issued.check(lock, key, `session "${key}"`);
    if (holder !== lock) throw new SessionLockLostError(`session "${key}": the lock passed is no longer held; nothing was written`, key);
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
