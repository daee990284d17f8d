/** Session stores (base snapshot, checkpoints, event log, lock) and cancel signals, each behind one interface. */
export { checkKey, compareEventIds, parseEventId, DEFAULT_MAX_EVENTS } from "./shared/sessions.js";
export type { AppendOptions, CheckpointRecord, CheckpointStore, EventQuery, LoggedEvent, StoredEvent, DeleteOptions, SaveOptions, SessionLock, SnapshotStore, StoredSnapshot, CancelSignals, WatchOptions } from "./contracts.js";
export { StoreError, type StoreErrorCode, SessionLockedError, SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError, CancelSignalError } from "./errors.js";
export { InProcessSnapshotStore, MemorySnapshotStore, type InProcessSnapshotStoreOptions, type MemorySnapshotStoreOptions } from "./process/session-store.js";
export { FileSnapshotStore, type FileSnapshotStoreOptions } from "./files/session-store.js";
export { FileCancelSignals, DEFAULT_CANCEL_POLL_MS, type FileCancelSignalsOptions } from "./files/cancel.js";
export { openSnapshotStore, openCancelSignals, type OpenedSnapshotStore, type OpenSnapshotStoreOptions, type OpenCancelSignalsOptions, type SessionBackend } from "./open-sessions.js";
export { postgresServer, type PostgresServer } from "./location.js";
export { InProcessCancelSignals, MemoryCancelSignals } from "./process/cancel.js";
export { cancelKey, checkTaskId, DEFAULT_CANCEL_TTL_SECONDS } from "./shared/cancel.js";
