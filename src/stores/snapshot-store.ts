/**
 * Session stores: where a session lives between runs and during one, so that any process can
 * resume it: a base snapshot (`canvas.toJSON()`), the checkpoints written since (what changed
 * after each batch of a run, never the whole state), and the session's event log. A new base
 * (`save`) folds the checkpoints away; the event log stays (capped).
 *
 * Saves may be conditional on the version that was loaded (optimistic concurrency): when two
 * workers resume the same session, the second save fails with `SnapshotConflictError` instead of
 * silently replacing the first one's result.
 */
import type { CanvasDsl } from "../dsl/types.js";
import { describeJson, isPlainObject } from "../util/values.js";

/** A stored snapshot and the version it is at. */
export interface StoredSnapshot {
  /** The base: the session as it was at the last `save`. */
  snapshot: CanvasDsl;
  /** An opaque token for this stored state (it changes with every save and append): pass it back as `expectedVersion` when saving. */
  version: string;
  /** The deltas of the checkpoints appended since the base, in order (seq 1, 2, 3…), parsed from JSON. */
  deltas: unknown[];
}

/**
 * One checkpoint of a run, as a store keeps it: what changed since the previous one and the
 * events emitted meanwhile, written together (atomically where the backend can), so the event
 * log never holds an event of a step the checkpoints do not have.
 */
export interface CheckpointRecord {
  /** 1 for the first checkpoint after the base, then one more each time. */
  seq: number;
  /** The delta as JSON text. */
  readonly delta: string;
  /**
   * The delta itself, when it shares nothing the run may still change (see `keptDelta` in
   * durable/writer.ts): a store in this process's memory keeps it instead of its text, and makes
   * a copy through JSON when it is loaded. `delta` is then made only if read.
   */
  readonly value?: object;
  /** The events emitted since the previous checkpoint, in order. */
  events: LoggedEvent[];
}

/** An event in a session's log. */
export interface LoggedEvent {
  /**
   * `<run>-<n>`: the run (the session's epoch) and the event's number in it, both decimal
   * integers. Ids only grow: compare them with `compareEventIds`.
   */
  id: string;
  /** The event as JSON text. */
  json: string;
  /**
   * The event itself, when the run that made it hands it over (read-only: the engine never
   * changes an event it emitted). A store in this process's memory keeps it instead of its text,
   * and copies it through JSON when it is read, which gives what the text would have.
   */
  readonly event?: object;
}

/** An event read back from the log. */
export interface StoredEvent {
  id: string;
  event: Record<string, unknown>;
}

export interface EventQuery {
  /** Only events after this id (`Last-Event-ID`); left out, from the oldest kept. */
  after?: string;
  /** At most this many (default: all). */
  limit?: number;
}

export interface AppendOptions {
  /** The session's lock (a checkpoint is only written by the run that holds it). */
  lock: SessionLock;
}

export interface SaveOptions {
  /**
   * Save only if the session is still at this version (the one `load` returned); `null` saves
   * only if the session does not exist yet. Left out, the save overwrites whatever is stored.
   */
  expectedVersion?: string | null;
  /**
   * Seconds until the session expires, counted from this save; a later save without it keeps the
   * session forever (unless the store has a default). Stores that cannot expire entries reject it.
   */
  ttlSeconds?: number;
  /**
   * Save under this lock, taken with `lock(key)` on this store. The save fails with
   * `SessionLockLostError` when the lock is no longer held. Left out, the save is refused with
   * `SessionLockedError` while another holder has the session's lock.
   */
  lock?: SessionLock;
}

export interface DeleteOptions {
  /** Delete under this lock (see `SaveOptions.lock`). */
  lock?: SessionLock;
}

/**
 * A session's lock: held from before a run starts until its result is saved, so that two runs of
 * one session never overlap. Optimistic concurrency (`expectedVersion`) still applies to saves
 * made under it.
 */
export interface SessionLock {
  /** The session key. */
  readonly key: string;
  /** Where the lock lives, for messages: the lock file, the Redis key. */
  readonly location: string;
  /** Let go of the lock if this holder still has it. Releasing twice is harmless. */
  release(): Promise<void>;
}

export interface SnapshotStore {
  /** The stored base and the checkpoints since, with its version, or `undefined` when there is none (or it expired). */
  load(key: string): Promise<StoredSnapshot | undefined>;
  /** Store a new base (the checkpoints before it are dropped; the event log is kept); resolves to its new version. */
  save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string>;
  /** Remove a session; `false` when there was none. */
  delete(key: string, options?: DeleteOptions): Promise<boolean>;
  /**
   * Take the session's lock (the session need not exist yet). Fails at once with
   * `SessionLockedError`, naming the holder and how to clear a stale lock, when another holder
   * has it; a lock whose holder is gone (a process that died, an expired lease) is taken over.
   */
  lock(key: string): Promise<SessionLock>;
  /** Release connections, handles and the locks this store holds. The store cannot be used afterwards. */
  close(): Promise<void>;
}

/**
 * When a durable run writes its checkpoints: `sync` before the next batch starts, `async` behind
 * the run (in order, all durable before its last event), `exit` only when it ends.
 */
export type Durability = "sync" | "async" | "exit";

/**
 * A session store that also keeps checkpoints and the event log: what a durable run needs. Every
 * backend (memory, files, Redis, PostgreSQL) implements it.
 */
export interface CheckpointStore extends SnapshotStore {
  /** The durability a run gets when it does not choose one (each backend says why in its docs). */
  readonly defaultDurability: Durability;
  /**
   * Make everything written for the session so far survive a power loss, for backends whose
   * writes may sit in the OS's cache (files); a durable run calls it when an `async` or `exit`
   * run ends.
   */
  flush?(key: string): Promise<void>;
  /**
   * Add a checkpoint after the base (which must exist) and the ones before it: `record.seq` must
   * be one more than the last (`SnapshotConflictError` otherwise; nothing is written). Its events
   * join the event log. Resolves to the session's new version.
   */
  append(key: string, record: CheckpointRecord, options: AppendOptions): Promise<string>;
  /**
   * Log events ahead of their checkpoint, for a run that logs each event as it happens (so a
   * reader of the log sees it at once). Under the session's lock, with `append`'s rule: ids in
   * order, the first after the last one logged (`SnapshotConflictError` otherwise; nothing is
   * written). The session must exist. The checkpoints are not touched.
   */
  logEvents(key: string, events: LoggedEvent[], options: AppendOptions): Promise<void>;
  /** The session's logged events, oldest first (the log keeps the most recent `maxEvents`). */
  events(key: string, query?: EventQuery): Promise<StoredEvent[]>;
  /** The id of the last event the session logged, or undefined when it logged none (or was deleted). */
  lastEventId(key: string): Promise<string | undefined>;
  /**
   * `append`, done before it returns, for a store in this process's memory: a durable run in
   * `sync` mode then goes on without awaiting a promise per batch. Same checks and errors.
   */
  appendNow?(key: string, record: CheckpointRecord, options: AppendOptions): string;
}

/** Every store failure: a bad key or option, a conflict, corrupt data, an unreachable backend. */
export class SnapshotStoreError extends Error {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
    this.name = "SnapshotStoreError";
  }
}

/** A key the store cannot use. */
export class SnapshotKeyError extends SnapshotStoreError {
  constructor(message: string, key?: string) {
    super(message, key);
    this.name = "SnapshotKeyError";
  }
}

/** The session changed since it was loaded (or exists when it was expected not to). */
export class SnapshotConflictError extends SnapshotStoreError {
  constructor(
    key: string,
    readonly expectedVersion: string | null,
    /** The version found, `undefined` when the session no longer exists. */
    readonly actualVersion: string | undefined,
  ) {
    super(conflictMessage(key, expectedVersion, actualVersion), key);
    this.name = "SnapshotConflictError";
  }
}

/** Another holder has the session's lock: the message names it, where the lock is and how to clear a stale one. */
export class SessionLockedError extends SnapshotStoreError {
  constructor(
    message: string,
    key: string,
    /** The lock file or Redis key. */
    readonly lockLocation: string,
  ) {
    super(message, key);
    this.name = "SessionLockedError";
  }
}

/** A save or delete under a lock that is not held (any more): released, expired, taken over, or not this store's. */
export class SessionLockLostError extends SnapshotStoreError {
  constructor(message: string, key: string) {
    super(message, key);
    this.name = "SessionLockLostError";
  }
}

/** What is stored under the key is not a snapshot. */
export class SnapshotCorruptError extends SnapshotStoreError {
  constructor(message: string, key: string) {
    super(message, key);
    this.name = "SnapshotCorruptError";
  }
}

function conflictMessage(key: string, expected: string | null, actual: string | undefined): string {
  const session = `session "${key}"`;
  if (expected === null) return `${session} already exists (version ${actual}); it was expected to be new`;
  if (actual === undefined) return `${session} no longer exists; it was expected at version ${expected}`;
  return `${session} was changed by another writer: expected version ${expected}, found version ${actual}`;
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
export const MAX_KEY_LENGTH = 1024;

/** Keys are non-empty strings without control characters; stores may narrow this further. */
export function checkKey(key: unknown): string {
  if (typeof key !== "string") throw new SnapshotKeyError(`session key must be a string, got ${key === null ? "null" : typeof key}`);
  if (key.length === 0) throw new SnapshotKeyError("session key must not be empty", key);
  if (key.length > MAX_KEY_LENGTH) throw new SnapshotKeyError(`session key is ${key.length} characters long; the limit is ${MAX_KEY_LENGTH}`, key);
  if (CONTROL_CHARACTER.test(key)) throw new SnapshotKeyError(`session key ${JSON.stringify(key)} contains a control character`, key);
  return key;
}

export function checkSaveOptions(options: SaveOptions | undefined): SaveOptions {
  const { expectedVersion, ttlSeconds, lock } = options ?? {};
  if (expectedVersion !== undefined && expectedVersion !== null && typeof expectedVersion !== "string") {
    throw new SnapshotStoreError(`expectedVersion must be a version string from load(), or null for a new session; got ${typeof expectedVersion}`);
  }
  if (ttlSeconds !== undefined) checkTtl("ttlSeconds", ttlSeconds);
  return { expectedVersion, ttlSeconds, lock };
}

/**
 * The locks a store has handed out, so that a save can tell its own live lock for the right key
 * from a released one, another store's, or another session's.
 */
export class IssuedLocks<T> {
  private readonly held = new Map<SessionLock, T>();

  add(lock: SessionLock, state: T): void {
    this.held.set(lock, state);
  }

  has(lock: SessionLock): boolean {
    return this.held.has(lock);
  }

  remove(lock: SessionLock): void {
    this.held.delete(lock);
  }

  all(): SessionLock[] {
    return [...this.held.keys()];
  }

  /** The state of `lock` when this store issued it for `key` and it was not released; else SessionLockLostError. */
  check(lock: SessionLock, key: string, session: string): T {
    const state = this.held.get(lock);
    if (state === undefined) {
      throw new SessionLockLostError(`${session}: the lock passed is not held by this store (released, or taken from another store); nothing was written`, key);
    }
    if (lock.key !== key) throw new SessionLockLostError(`${session}: the lock passed is the lock of session "${lock.key}"; nothing was written`, key);
    return state;
  }
}

export function checkTtl(name: string, ttlSeconds: unknown): number {
  if (typeof ttlSeconds !== "number" || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    const got = typeof ttlSeconds === "number" ? String(ttlSeconds) : (JSON.stringify(ttlSeconds) ?? String(ttlSeconds));
    throw new SnapshotStoreError(`${name} must be a positive number of seconds, got ${got}`);
  }
  return ttlSeconds;
}

/** A snapshot as stored text; only plain JSON objects are snapshots. */
export function serializeSnapshot(key: string, snapshot: unknown): string {
  if (!isPlainObject(snapshot)) {
    throw new SnapshotStoreError(`session "${key}": a snapshot must be a canvas DSL object (canvas.toJSON()), got ${describeJson(snapshot)}`, key);
  }
  try {
    return JSON.stringify(snapshot);
  } catch (error) {
    throw new SnapshotStoreError(`session "${key}": the snapshot is not JSON-serializable: ${(error as Error).message}`, key);
  }
}

/** Stored text back to a snapshot; `where` names the session and its place for the message. */
export function parseSnapshot(key: string, text: string, where: string): CanvasDsl {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SnapshotCorruptError(`${where} is corrupt: not valid JSON: ${(error as Error).message}`, key);
  }
  if (!isPlainObject(value)) {
    throw new SnapshotCorruptError(`${where} is corrupt: expected a canvas snapshot object, found ${describeJson(value)}`, key);
  }
  return value as CanvasDsl;
}

/** Operations on a closed store fail with this. */
export function closedError(store: string): SnapshotStoreError {
  return new SnapshotStoreError(`the ${store} snapshot store is closed`);
}

/** Set by scanEventId: the parts of the id it last read. */
let scannedRun = 0;
let scannedN = 0;

/**
 * Read an event id (`<run>-<n>`, decimal, at most 15 digits each) into scannedRun/scannedN; false
 * when it is not one. A scan without allocation: every logged event's id goes through here.
 */
function scanEventId(id: unknown): boolean {
  if (typeof id !== "string") return false;
  const dash = id.indexOf("-");
  if (dash < 1 || dash > 15 || id.length - dash - 1 < 1 || id.length - dash - 1 > 15) return false;
  let run = 0;
  for (let i = 0; i < dash; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    run = run * 10 + d;
  }
  let n = 0;
  for (let i = dash + 1; i < id.length; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    n = n * 10 + d;
  }
  scannedRun = run;
  scannedN = n;
  return true;
}

/** The run and number of an event id, or undefined when it is not one. */
export function parseEventId(id: unknown): [number, number] | undefined {
  return scanEventId(id) ? [scannedRun, scannedN] : undefined;
}

/** Negative, zero or positive as `a` comes before, with or after `b`. */
export function compareEventIds(a: string, b: string): number {
  // Scanned in place (no pairs made): a checkpoint's first event is compared on every append.
  const okA = scanEventId(a);
  const ra = okA ? scannedRun : 0;
  const na = okA ? scannedN : 0;
  const okB = scanEventId(b);
  const rb = okB ? scannedRun : 0;
  const nb = okB ? scannedN : 0;
  return ra !== rb ? ra - rb : na - nb;
}

/** An `after` id must be an event id: a clear error names what was given. */
export function checkEventQuery(query: EventQuery | undefined): { after: [number, number] | undefined; limit: number } {
  const after = query?.after === undefined ? undefined : parseEventId(query.after);
  if (query?.after !== undefined && !after) {
    throw new SnapshotStoreError(`event id ${JSON.stringify(query.after)} is not an event id (expected <run>-<n>, e.g. 3-17)`);
  }
  const limit = query?.limit ?? Number.POSITIVE_INFINITY;
  if (typeof limit !== "number" || !(limit > 0) || (Number.isFinite(limit) && !Number.isInteger(limit))) {
    throw new SnapshotStoreError(`limit must be a positive whole number, got ${String(query?.limit)}`);
  }
  return { after, limit };
}

/** A checkpoint a store can keep: a whole number seq, JSON text, well-formed event ids in order. */
export function checkRecord(key: string, record: CheckpointRecord): void {
  const session = `session "${key}"`;
  if (!Number.isInteger(record?.seq) || record.seq < 1) throw new SnapshotStoreError(`${session}: checkpoint seq must be a whole number from 1, got ${String(record?.seq)}`, key);
  // A record that carries its delta as a value makes the text only when a store asks for it.
  if (record.value === undefined && typeof record.delta !== "string") {
    throw new SnapshotStoreError(`${session}: checkpoint ${record.seq}: the delta must be JSON text`, key);
  }
  if (record.value !== undefined && !isPlainObject(record.value)) {
    throw new SnapshotStoreError(`${session}: checkpoint ${record.seq}: a delta given as a value must be an object, got ${describeJson(record.value)}`, key);
  }
  checkEventList(key, `${session}: checkpoint ${record.seq}`, record.events);
}

/** Events a store can log (`logEvents`): a non-empty list of well-formed ids in order. */
export function checkLoggedEvents(key: string, events: LoggedEvent[]): void {
  if (Array.isArray(events) && events.length === 0) throw new SnapshotStoreError(`session "${key}": logEvents needs at least one event`, key);
  checkEventList(key, `session "${key}": logEvents`, events);
}

function checkEventList(key: string, where: string, events: LoggedEvent[]): void {
  if (!Array.isArray(events)) throw new SnapshotStoreError(`${where}: events must be a list`, key);
  let run = -1;
  let n = -1;
  let previous = "";
  for (const event of events) {
    if (!scanEventId(event?.id)) throw new SnapshotStoreError(`${where}: event id ${JSON.stringify(event?.id)} is not <run>-<n>`, key);
    // `in`, not a read: an event's JSON may be made lazily, only when a store writes it out.
    if (!("json" in (event as object))) throw new SnapshotStoreError(`${where}: event ${String(event.id)} must be JSON text`, key);
    if (scannedRun < run || (scannedRun === run && scannedN <= n)) {
      throw new SnapshotStoreError(`${where}: event ids must grow (${previous} then ${event.id})`, key);
    }
    run = scannedRun;
    n = scannedN;
    previous = event.id;
  }
}

/**
 * A checkpoint's events must come after the last event the session logged (ids only grow, across
 * checkpoints and bases too). SnapshotConflictError otherwise: another run wrote the session.
 */
export function checkEventsFollow(key: string, lastEventId: string | undefined, record: CheckpointRecord | LoggedEvent[]): void {
  const events = Array.isArray(record) ? record : record.events;
  const first = events[0]?.id;
  if (first === undefined || lastEventId === undefined || compareEventIds(first, lastEventId) > 0) return;
  throw eventsOrderConflict(key, Array.isArray(record) ? "logEvents" : `checkpoint ${record.seq}`, first, lastEventId);
}

/** Events whose first does not come after the last one logged: another run wrote the session's log. */
export function eventsOrderConflict(key: string, what: string, first: string, lastEventId: string, where?: string): SnapshotConflictError {
  const error = new SnapshotConflictError(key, null, undefined);
  error.message = `session "${key}": ${what}'s first event ${first} does not come after the last one logged (${lastEventId}${where ? `, ${where}` : ""}); another run wrote this session; nothing was written`;
  return error;
}

/** Out of order: a checkpoint whose seq does not follow the last one. */
export function seqConflict(key: string, expected: number, got: number): SnapshotConflictError {
  const error = new SnapshotConflictError(key, null, undefined);
  error.message = `session "${key}": checkpoint ${got} does not follow the last one (the next is ${expected}); another run wrote this session, or a checkpoint was lost`;
  return error;
}

/** Parse a stored delta; a corrupt one names the session, where it is and its position. */
export function parseDelta(key: string, where: string, seq: number, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SnapshotCorruptError(`session "${key}": checkpoint ${seq} in ${where} is not valid JSON (${(error as Error).message}); nothing was changed`, key);
  }
}

/** Default cap of a session's event log. */
export const DEFAULT_MAX_EVENTS = 10_000;
