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
export { RedisSnapshotStore, DEFAULT_KEY_PREFIX, DEFAULT_LOCK_LEASE_MS, DEFAULT_REDIS_URL, type RedisSnapshotStoreOptions } from "./redis-store.js";
export { BOUNDED_REDIS_OPTIONS, type RedisConnectionOptions } from "./redis-connection.js";
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
export { RedisCancelSignals, DEFAULT_CANCEL_CHANNEL, type RedisCancelSignalsOptions } from "./redis-cancel.js";
export { MemoryCancelSignals, CancelSignalError, cancelKey, checkTaskId, DEFAULT_CANCEL_TTL_SECONDS, type CancelSignals, type WatchOptions } from "./cancel-signals.js";
export { PostgresSnapshotStore, DEFAULT_POSTGRES_LOCK_LEASE_MS, type PostgresSnapshotStoreOptions } from "./postgres-store.js";
export { migratePostgres, DEFAULT_POSTGRES_SCHEMA, POSTGRES_SCHEMA_VERSION, type MigratePostgresOptions, type MigrationResult } from "./postgres-schema.js";
export { DEFAULT_POSTGRES_URL, type PostgresConnectionOptions, type PostgresTarget } from "./postgres-connection.js";
export { PostgresCancelSignals, type PostgresCancelSignalsOptions } from "./postgres-cancel.js";
