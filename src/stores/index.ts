/** Session stores (base snapshot, checkpoints, event log, lock) and cancel signals, each behind one interface. */
export {
  checkKey,
  compareEventIds,
  parseEventId,
  DEFAULT_MAX_EVENTS,
  type AppendOptions,
  type CheckpointRecord,
  type CheckpointStore,
  type EventQuery,
  type LoggedEvent,
  type StoredEvent,
  SessionLockedError,
  SessionLockLostError,
  SnapshotConflictError,
  SnapshotCorruptError,
  SnapshotKeyError,
  SnapshotStoreError,
  type DeleteOptions,
  type SaveOptions,
  type SessionLock,
  type SnapshotStore,
  type StoredSnapshot,
} from "./snapshot-store.js";
export { MemorySnapshotStore, type MemorySnapshotStoreOptions } from "./memory-store.js";
export { FileSnapshotStore, type FileSnapshotStoreOptions } from "./file-store.js";
export { FileCancelSignals, DEFAULT_CANCEL_POLL_MS, type FileCancelSignalsOptions } from "./file-cancel.js";
export {
  openSnapshotStore,
  openCancelSignals,
  postgresServer,
  type OpenedSnapshotStore,
  type OpenSnapshotStoreOptions,
  type OpenCancelSignalsOptions,
  type PostgresServer,
  type SessionBackend,
} from "./open-store.js";
export { MemoryCancelSignals, CancelSignalError, cancelKey, checkTaskId, DEFAULT_CANCEL_TTL_SECONDS, type CancelSignals, type WatchOptions } from "./cancel-signals.js";
