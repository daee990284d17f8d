/**
 * Session stores: where a canvas snapshot (`canvas.toJSON()`) waits between turns, so that any
 * process can resume the session from it.
 *
 * Saves may be conditional on the version that was loaded (optimistic concurrency): when two
 * workers resume the same session, the second save fails with `SnapshotConflictError` instead of
 * silently replacing the first one's result.
 */
import type { CanvasDsl } from "../dsl/types.js";
import { describeJson, isPlainObject } from "../util/values.js";

/** A stored snapshot and the version it is at. */
export interface StoredSnapshot {
  snapshot: CanvasDsl;
  /** An opaque token for this stored state: pass it back as `expectedVersion` when saving. */
  version: string;
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
  /** The stored snapshot with its version, or `undefined` when there is none (or it expired). */
  load(key: string): Promise<StoredSnapshot | undefined>;
  /** Store a snapshot; resolves to its new version. */
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
