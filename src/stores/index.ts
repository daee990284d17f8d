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
export { RedisSnapshotStore, DEFAULT_KEY_PREFIX, DEFAULT_LOCK_LEASE_MS, DEFAULT_REDIS_URL, type RedisSnapshotStoreOptions } from "./redis-store.js";
export { BOUNDED_REDIS_OPTIONS, type RedisConnectionOptions } from "./redis-connection.js";
export { openSnapshotStore, type OpenedSnapshotStore, type OpenSnapshotStoreOptions } from "./open-store.js";
export { RedisCancelSignals, DEFAULT_CANCEL_CHANNEL, type RedisCancelSignalsOptions } from "./redis-cancel.js";
export { MemoryCancelSignals, CancelSignalError, cancelKey, checkTaskId, DEFAULT_CANCEL_TTL_SECONDS, type CancelSignals } from "./cancel-signals.js";
