/** One error base for every store (issue 25): each error is a StoreError with a stable code, and keeps its own class. */
import { describe, expect, it } from "vitest";
import {
  CancelSignalError,
  DamagedRecordError,
  DuplicateTitleError,
  MemoryStoreError,
  ServerStoreError,
  SessionLockedError,
  SessionLockLostError,
  SnapshotConflictError,
  SnapshotCorruptError,
  SnapshotKeyError,
  SnapshotStoreError,
  StoreError,
  StoredRecordError,
} from "../../src/backends/errors.js";
import { SessionNotFoundError } from "../../src/durable/session.js";

describe("store errors", () => {
  it("are StoreErrors with a stable code, and instances of their own kind", () => {
    const cases: [StoreError, string, abstract new (...args: never[]) => StoreError][] = [
      [new SnapshotStoreError("x"), "store_failed", SnapshotStoreError],
      [new SnapshotKeyError("x"), "store_key", SnapshotStoreError],
      [new SnapshotConflictError("k", null, "2"), "store_conflict", SnapshotStoreError],
      [new SnapshotCorruptError("x", "k"), "store_corrupt", SnapshotStoreError],
      [new SessionLockedError("x", "k", "lock"), "session_locked", SnapshotStoreError],
      [new SessionLockLostError("x", "k"), "lock_lost", SnapshotStoreError],
      [new SessionNotFoundError("k"), "session_not_found", SnapshotStoreError],
      [new CancelSignalError("x"), "cancel_signal", CancelSignalError],
      [new ServerStoreError("x"), "server_store", ServerStoreError],
      [new DuplicateTitleError("t"), "duplicate_title", ServerStoreError],
      [new StoredRecordError("x", "where"), "record_invalid", ServerStoreError],
      [new DamagedRecordError("x"), "record_damaged", ServerStoreError],
      [new MemoryStoreError("x"), "memory_store", MemoryStoreError],
    ];
    for (const [error, code, kind] of cases) {
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(kind);
      expect([error.name, error.code]).toEqual([error.constructor.name, code]);
    }
    expect(new SnapshotConflictError("k", null, "2").message).toBe('session "k" already exists (version 2); it was expected to be new');
    expect(new DuplicateTitleError("t").message).toBe("t already exists.");
  });
});
