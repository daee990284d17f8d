/**
 * `canvasflow/sqlite`: what canvasflow keeps in a SQLite database file. Checkpoints and event logs
 * of sessions, cancel signals, the server's records (agents, session records, API keys, uploads,
 * rate-limit counters) and conversation memories, shared by the processes of one machine (issue
 * 26). better-sqlite3 is loaded when the first store opens its file.
 */
export { SqliteSnapshotStore, DEFAULT_SQLITE_LOCK_LEASE_MS, type SqliteSnapshotStoreOptions } from "./session-store.js";
export { SqliteCancelSignals, DEFAULT_SQLITE_CANCEL_POLL_MS, type SqliteCancelSignalsOptions } from "./cancel.js";
export { SqliteMemoryStore, type SqliteMemoryStoreOptions } from "./memories.js";
export { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, type OpenSqliteOptions } from "./database.js";
export { SqliteServerStore, type SqliteServerStoreOptions } from "./server-store.js";
export { SqliteRateLimitCounters } from "./rate-limit-counters.js";
