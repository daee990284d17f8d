/**
 * `canvasflow/redis`: everything canvasflow keeps in Redis. Checkpoints and event logs of
 * sessions, cancel signals, the server's records, and conversation memories. ioredis is loaded
 * when the first store is made.
 */
export { RedisSnapshotStore, DEFAULT_KEY_PREFIX, DEFAULT_LOCK_LEASE_MS, DEFAULT_REDIS_URL, type RedisSnapshotStoreOptions } from "./session-store.js";
export { BOUNDED_REDIS_OPTIONS, type RedisConnectionOptions } from "./connection.js";
export { RedisCancelSignals, DEFAULT_CANCEL_CHANNEL, type RedisCancelSignalsOptions } from "./cancel.js";
export { RedisServerStore, DEFAULT_REDIS_SERVER_PREFIX, serverCancelLayout, type RedisServerStoreOptions } from "./server-store.js";
export { RedisMemoryStore, DEFAULT_MEMORY_KEY_PREFIX, DEFAULT_LEGACY_MEMORY_KEY_PREFIX, type RedisMemoryStoreOptions } from "./memories.js";
