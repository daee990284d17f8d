/**
 * What every backend's session store shares (the contract is SnapshotStore and CheckpointStore in
 * contracts.ts): the checks of keys, options, checkpoints and event ids, the locks a store issued,
 * snapshots and deltas to and from text, and the errors of a conflict or a closed store.
 */
import type { CanvasDsl } from "../../dsl/types.js";
import { describeJson, isPlainObject } from "../../util/values.js";
import { SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError } from "../errors.js";
import type { CheckpointRecord, EventQuery, LoggedEvent, SaveOptions, SessionLock } from "../contracts.js";

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
