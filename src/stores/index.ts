/** Session stores (base snapshot, checkpoints, event log, lock) and cancel signals, each behind one interface. */
export { checkKey, compareEventIds, parseEventId, DEFAULT_MAX_EVENTS } from "../backends/shared/sessions.js";
export type { AppendOptions, CheckpointRecord, CheckpointStore, EventQuery, LoggedEvent, StoredEvent, DeleteOptions, SaveOptions, SessionLock, SnapshotStore, StoredSnapshot, CancelSignals, WatchOptions } from "../backends/contracts.js";
export { StoreError, type StoreErrorCode, SessionLockedError, SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError, CancelSignalError } from "../backends/errors.js";
export { MemorySnapshotStore, type MemorySnapshotStoreOptions } from "./memory-store.js";
export { FileSnapshotStore, type FileSnapshotStoreOptions } from "./file-store.js";
export { FileCancelSignals, DEFAULT_CANCEL_POLL_MS, type FileCancelSignalsOptions } from "./file-cancel.js";
export { openSnapshotStore, openCancelSignals, type OpenedSnapshotStore, type OpenSnapshotStoreOptions, type OpenCancelSignalsOptions, type SessionBackend } from "./open-store.js";
export { postgresServer, type PostgresServer } from "../backends/location.js";
export { MemoryCancelSignals, cancelKey, checkTaskId, DEFAULT_CANCEL_TTL_SECONDS } from "../backends/shared/cancel.js";
