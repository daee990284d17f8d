/**
 * Every error a store raises, under one base: `StoreError`, whose `code` is a stable string a
 * program can switch on (messages may be reworded; codes are not). The classes of each kind of
 * store (sessions, cancel signals, server records, conversation memories) keep their names, so
 * `instanceof SnapshotStoreError` and the rest hold as before, and all are `instanceof StoreError`.
 *
 * A leaf: it imports nothing.
 */

/** The stable codes of store errors. */
export type StoreErrorCode =
  | "store_failed"
  | "store_key"
  | "store_conflict"
  | "store_corrupt"
  | "session_locked"
  | "lock_lost"
  | "session_not_found"
  | "cancel_signal"
  | "server_store"
  | "duplicate_title"
  | "record_invalid"
  | "record_damaged"
  | "memory_store"
  | "database_file";

/** The base of every store error: `code` says which kind it is. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(message: string, code: StoreErrorCode) {
    super(message);
    this.name = "StoreError";
    this.code = code;
  }
}

/** Every session store failure: a bad key or option, a conflict, corrupt data, an unreachable backend. */
export class SnapshotStoreError extends StoreError {
  constructor(
    message: string,
    readonly key?: string,
    code: StoreErrorCode = "store_failed",
  ) {
    super(message, code);
    this.name = "SnapshotStoreError";
  }
}

/** A key the store cannot use. */
export class SnapshotKeyError extends SnapshotStoreError {
  constructor(message: string, key?: string) {
    super(message, key, "store_key");
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
    super(conflictMessage(key, expectedVersion, actualVersion), key, "store_conflict");
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
    super(message, key, "session_locked");
    this.name = "SessionLockedError";
  }
}

/** A save or delete under a lock that is not held (any more): released, expired, taken over, or not this store's. */
export class SessionLockLostError extends SnapshotStoreError {
  constructor(message: string, key: string) {
    super(message, key, "lock_lost");
    this.name = "SessionLockLostError";
  }
}

/** What is stored under the key is not a snapshot. */
export class SnapshotCorruptError extends SnapshotStoreError {
  constructor(message: string, key: string) {
    super(message, key, "store_corrupt");
    this.name = "SnapshotCorruptError";
  }
}

function conflictMessage(key: string, expected: string | null, actual: string | undefined): string {
  const session = `session "${key}"`;
  if (expected === null) return `${session} already exists (version ${actual}); it was expected to be new`;
  if (actual === undefined) return `${session} no longer exists; it was expected at version ${expected}`;
  return `${session} was changed by another writer: expected version ${expected}, found version ${actual}`;
}

/** A bad task id, closed signals, or a backend that cannot be reached. */
export class CancelSignalError extends StoreError {
  constructor(message: string) {
    super(message, "cancel_signal");
    this.name = "CancelSignalError";
  }
}

/** Every failure of a ServerStore names the store and what was wrong. */
export class ServerStoreError extends StoreError {
  constructor(message: string, code: StoreErrorCode = "server_store") {
    super(message, code);
    this.name = "ServerStoreError";
  }
}

/** Another agent of the tenant has this title (RAGFlow answers code 102 "<title> already exists."). */
export class DuplicateTitleError extends ServerStoreError {
  constructor(readonly title: string) {
    super(`${title} already exists.`, "duplicate_title");
    this.name = "DuplicateTitleError";
  }
}

/** A stored record that cannot be read back: which store, where, and what is wrong with it. */
export class StoredRecordError extends ServerStoreError {
  constructor(
    message: string,
    /** The file, Redis key or table row. */
    readonly where: string,
  ) {
    super(message, "record_invalid");
    this.name = "StoredRecordError";
  }
}

/** A stored record its owner asked for cannot be read: the message is for them (no path, no other tenant's ids). */
export class DamagedRecordError extends ServerStoreError {
  constructor(message: string) {
    super(message, "record_damaged");
    this.name = "DamagedRecordError";
  }
}

/** A conversation memory that cannot be named, read or written. */
export class MemoryStoreError extends StoreError {
  constructor(message: string) {
    super(message, "memory_store");
    this.name = "MemoryStoreError";
  }
}

/**
 * A database file that cannot be used as it is: not a database, written by a newer canvasflow,
 * locked by another process past the timeout, on a full disk. The message names the file and
 * what to do; nothing is ever started afresh in its place.
 */
export class DatabaseFileError extends StoreError {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message, "database_file");
    this.name = "DatabaseFileError";
  }
}
