/**
 * Sessions in this process's memory: for tests and single-process servers. Snapshots and deltas
 * are kept as JSON text, so what is loaded is always a fresh copy and never shares objects with a
 * canvas; a delta that shares nothing the run may change (a record's `value`) is kept as a value,
 * laid flat when it can be (flat-record.ts), and copied through JSON when loaded, which gives
 * what its text would have. Events are kept as given (read-only), their JSON made only if they
 * are read (memory-event-log.ts).
 */
import { checkEventQuery, checkEventsFollow, checkKey, checkLoggedEvents, checkRecord, compareEventIds, DEFAULT_MAX_EVENTS, parseDelta, seqConflict, checkSaveOptions, closedError, parseSnapshot, serializeSnapshot, IssuedLocks } from "../shared/sessions.js";
import { SessionLockedError, SessionLockLostError, SnapshotConflictError } from "../errors.js";
import type { AppendOptions, CheckpointRecord, CheckpointStore, DeleteOptions, EventQuery, LoggedEvent, StoredEvent, SaveOptions, SessionLock, StoredSnapshot } from "../contracts.js";
import type { CanvasDsl } from "../../dsl/types.js";
import { flattenRecord, unflattenRecord, type FlatRecord } from "./flat-record.js";
import { InProcessEventLog } from "./event-log.js";

/** A delta kept as a value: flat (an array), or the object itself (never an array: checkRecord). */
type KeptDelta = FlatRecord | object;

interface Entry {
  text: string;
  /**
   * Checkpoints since the base (seq = index + 1): JSON text, or a value nothing else changes,
   * laid flat when it can be (see flat-record.ts), else as it is.
   */
  deltas: Array<string | KeptDelta>;
  version: string;
  /** Epoch ms after which the entry is gone. */
  expiresAt?: number;
}

/** Where a memory store's locks are, for messages. */
const MEMORY_LOCK = "this process's memory";

export interface InProcessSnapshotStoreOptions {
  /** The clock used for expiry (default `Date.now`). */
  now?: () => number;
  /** Events kept per session, the most recent ones (default 10 000). */
  maxEvents?: number;
}

export class InProcessSnapshotStore implements CheckpointStore {
  /** `sync`: a checkpoint is a push in this process's memory; waiting for it costs nothing. */
  readonly defaultDurability = "sync" as const;
  private readonly entries = new Map<string, Entry>();
  /** Event logs, apart from the entries: a new base keeps them, a delete removes them. */
  private readonly logs = new Map<string, InProcessEventLog>();
  private readonly maxEvents: number;
  private readonly now: () => number;
  /** One counter for the whole store, so a deleted and re-created session never repeats a version. */
  private lastVersion = 0;
  /** Session key → the lock that holds it. */
  private readonly lockHolders = new Map<string, SessionLock>();
  private readonly issued = new IssuedLocks<true>();
  private closed = false;

  constructor(options: InProcessSnapshotStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  }

  async load(key: string): Promise<StoredSnapshot | undefined> {
    const entry = this.live(checkKey(key));
    if (!entry) return undefined;
    return {
      snapshot: parseSnapshot(key, entry.text, `session "${key}"`),
      version: entry.version,
      deltas: entry.deltas.map((delta, i) => loadedDelta(key, i + 1, delta)),
    };
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
    this.entries.set(key, { text, deltas: [], version, ...(ttlSeconds !== undefined ? { expiresAt: this.now() + ttlSeconds * 1000 } : {}) });
    return version;
  }

  async append(key: string, record: CheckpointRecord, options: AppendOptions): Promise<string> {
    return this.appendNow(key, record, options);
  }

  appendNow(key: string, record: CheckpointRecord, options: AppendOptions): string {
    checkKey(key);
    checkRecord(key, record);
    const entry = this.live(key);
    this.checkLock(key, options?.lock, true);
    if (!entry) throw seqConflict(key, 0, record.seq);
    if (record.seq !== entry.deltas.length + 1) throw seqConflict(key, entry.deltas.length + 1, record.seq);
    checkEventsFollow(key, this.logs.get(key)?.lastId(), record);
    entry.deltas.push(record.value !== undefined ? (flattenRecord(record.value) ?? record.value) : record.delta);
    entry.version = String(++this.lastVersion);
    this.log(key, record.events);
    return entry.version;
  }

  async logEvents(key: string, events: LoggedEvent[], options: AppendOptions): Promise<void> {
    checkKey(key);
    checkLoggedEvents(key, events);
    const entry = this.live(key);
    this.checkLock(key, options?.lock, true);
    if (!entry) throw noSession(key);
    checkEventsFollow(key, this.logs.get(key)?.lastId(), events);
    this.log(key, events);
  }

  async lastEventId(key: string): Promise<string | undefined> {
    checkKey(key);
    if (this.closed) throw closedError("memory");
    return this.logs.get(key)?.lastId();
  }

  private log(key: string, events: LoggedEvent[]): void {
    if (events.length === 0) return;
    let log = this.logs.get(key);
    if (log === undefined) this.logs.set(key, (log = new InProcessEventLog()));
    log.append(events);
    // Trimmed in bulk, so an append stays O(1) however long the log is.
    if (log.length >= 2 * this.maxEvents) log.keepLast(this.maxEvents);
  }

  async events(key: string, query?: EventQuery): Promise<StoredEvent[]> {
    checkKey(key);
    const { limit } = checkEventQuery(query);
    if (this.closed) throw closedError("memory");
    const log = this.logs.get(key);
    if (!log) return [];
    let from = Math.max(0, log.length - this.maxEvents);
    const after = query?.after;
    if (after !== undefined) {
      // Ids only grow: the first one past `after`, by bisection.
      let to = log.length;
      while (from < to) {
        const mid = (from + to) >>> 1;
        if (compareEventIds(log.idAt(mid), after) <= 0) from = mid + 1;
        else to = mid;
      }
    }
    const to = Number.isFinite(limit) ? Math.min(log.length, from + limit) : log.length;
    const out: StoredEvent[] = [];
    for (let i = from; i < to; i++) out.push({ id: log.idAt(i), event: log.eventAt(i) });
    return out;
  }

  async delete(key: string, options?: DeleteOptions): Promise<boolean> {
    const existed = this.live(checkKey(key)) !== undefined;
    this.checkLock(key, options?.lock);
    this.entries.delete(key);
    this.logs.delete(key);
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
    this.logs.clear();
    this.lockHolders.clear();
    for (const lock of this.issued.all()) this.issued.remove(lock);
  }

  /** A write goes through only under the session's lock, or when nobody holds it (`required`: only under it). */
  private checkLock(key: string, lock: SessionLock | undefined, required = false): void {
    const holder = this.lockHolders.get(key);
    if (lock === undefined) {
      if (required) throw new SessionLockLostError(`session "${key}": a checkpoint is written only under the session's lock; nothing was written`, key);
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

/**
 * A kept delta as new objects, equal to what its JSON text parses to: a flat one rebuilt directly
 * (unflattenRecord makes exactly that), text parsed, a kept object copied through JSON.
 */
function loadedDelta(key: string, seq: number, delta: string | KeptDelta): unknown {
  if (Array.isArray(delta)) return unflattenRecord(delta);
  return parseDelta(key, "memory", seq, typeof delta === "string" ? delta : JSON.stringify(delta));
}

/** Events logged for a session that does not exist (no base saved). */
function noSession(key: string): SnapshotConflictError {
  const error = new SnapshotConflictError(key, null, undefined);
  error.message = `session "${key}" does not exist: events are logged for a saved session; nothing was written`;
  return error;
}

/** @deprecated Renamed InProcessSnapshotStore ("memory" names conversation memories only). */
export const MemorySnapshotStore = InProcessSnapshotStore;
/** @deprecated Renamed InProcessSnapshotStore ("memory" names conversation memories only). */
export type MemorySnapshotStore = InProcessSnapshotStore;
/** @deprecated Renamed InProcessSnapshotStoreOptions. */
export type MemorySnapshotStoreOptions = InProcessSnapshotStoreOptions;
