/**
 * `canvasflow/postgres`: everything canvasflow keeps in PostgreSQL. Checkpoints and event logs of
 * sessions, cancel signals, the server's records (alone or with Redis for its counters and
 * signals), conversation memories, and the migrations of their schemas. pg is loaded when the
 * first store is made.
 */
export { PostgresSnapshotStore, DEFAULT_POSTGRES_LOCK_LEASE_MS, type PostgresSnapshotStoreOptions } from "./session-store.js";
export { migratePostgres, DEFAULT_POSTGRES_SCHEMA, POSTGRES_SCHEMA_VERSION, type MigratePostgresOptions } from "./session-schema.js";
export type { MigrationResult } from "./migrations.js";
export { DEFAULT_POSTGRES_URL, type PostgresConnectionOptions, type PostgresTarget } from "./connection.js";
export { PostgresCancelSignals, type PostgresCancelSignalsOptions } from "./cancel.js";
export { PostgresServerStore, type PostgresServerStoreOptions } from "./server-store.js";
export { PostgresWithRedisServerStore, type PostgresWithRedisServerStoreOptions } from "./server-store-with-redis.js";
export { migratePostgresServer, POSTGRES_SERVER_SCHEMA_VERSION, type MigratePostgresServerOptions } from "./server-schema.js";
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from "./memories.js";
export { migratePostgresMemories } from "./memories-schema.js";
