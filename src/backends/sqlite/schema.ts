/**
 * The schema of a canvasflow SQLite database, one list of migrations for the whole file (its
 * version is `user_version`, see database.ts), so every store that opens the file brings all of
 * it up to date: sessions (a base snapshot and version, checkpoints, the event log, the lease, the
 * counter versions are drawn from), then cancel flags, then the server's records (agents, session
 * records, API keys, uploads) and its shared rate-limit counters, then conversation memories.
 *
 * As in PostgreSQL (postgres/server-schema.ts), a title is unique per tenant through `title_key`,
 * the title lower-cased by canvasflow rather than by SQLite's `lower()` (ASCII only), and a
 * record's JSON parts (a DSL, a message list) are kept as the text given.
 */
import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, migrateSqlite, openSqliteDatabase, type OpenSqliteOptions, type SqliteDatabase, type SqliteMigration } from "./database.js";

/** The database's name in a data folder (`serve --data DIR` keeps `DIR/canvasflow.db`). */
export const DATABASE_FILE_NAME = "canvasflow.db";

/** Where `canvasflow serve` (and keys, db) keep their database when given no store. */
export const DEFAULT_DATABASE_FILE = `.canvasflow/${DATABASE_FILE_NAME}`;

/**
 * Conversation memories (memories.ts): one row per message, with its tenant. `seq` is the rowid,
 * so a new row's is above every row's in the table and a memory's messages in seq order are in
 * the order written. The partial unique index makes a source key count once per tenant's memory
 * (an empty one is no key). Step 4, after the server records.
 */
export const SQLITE_MEMORY_MIGRATION: SqliteMigration = {
  name: "memory messages",
  up: (db) =>
    db.exec(`
      CREATE TABLE memory_messages (
        seq INTEGER PRIMARY KEY,
        tenant TEXT NOT NULL,
        memory_id TEXT NOT NULL,
        source_key TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        message TEXT NOT NULL
      );
      CREATE INDEX memory_messages_memory ON memory_messages (tenant, memory_id, seq);
      CREATE UNIQUE INDEX memory_messages_source ON memory_messages (tenant, memory_id, source_key) WHERE source_key <> '';
    `),
};

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    name: "sessions, checkpoints, events, locks",
    up: (db) =>
      db.exec(`
        CREATE TABLE sessions (
          key TEXT PRIMARY KEY,
          body TEXT NOT NULL,
          version INTEGER NOT NULL,
          last_seq INTEGER NOT NULL DEFAULT 0,
          expires_at INTEGER,
          event_count INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE checkpoints (key TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (key, seq)) WITHOUT ROWID;
        CREATE TABLE events (key TEXT NOT NULL, run INTEGER NOT NULL, n INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (key, run, n)) WITHOUT ROWID;
        CREATE TABLE locks (key TEXT PRIMARY KEY, token TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
        CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO counters (name, value) VALUES ('version', 0);
      `),
  },
  {
    name: "cancel flags",
    up: (db) => db.exec("CREATE TABLE cancel_flags (task_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID"),
  },
  {
    name: "server records: agents, session records, api keys, uploads, rate limits",
    up: (db) =>
      db.exec(`
        CREATE TABLE agents (
          id TEXT PRIMARY KEY,
          tenant TEXT NOT NULL,
          title TEXT NOT NULL,
          title_key TEXT NOT NULL,
          description TEXT NOT NULL,
          dsl TEXT NOT NULL,
          canvas_type TEXT NOT NULL,
          avatar TEXT,
          create_time INTEGER NOT NULL,
          update_time INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX agents_tenant_title ON agents (tenant, title_key);
        CREATE INDEX agents_tenant_update ON agents (tenant, update_time, id);
        CREATE INDEX agents_tenant_create ON agents (tenant, create_time, id);
        -- Not "sessions": that is the run state's table. An agent's records go with it in the same transaction.
        CREATE TABLE session_records (
          id TEXT PRIMARY KEY,
          tenant TEXT NOT NULL,
          agent_id TEXT NOT NULL,
          user_id TEXT NOT NULL,
          name TEXT NOT NULL,
          name_key TEXT NOT NULL,
          message TEXT NOT NULL,
          source TEXT NOT NULL,
          create_time INTEGER NOT NULL,
          update_time INTEGER NOT NULL
        );
        CREATE INDEX session_records_agent_update ON session_records (tenant, agent_id, update_time, id);
        CREATE INDEX session_records_agent_create ON session_records (tenant, agent_id, create_time, id);
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY,
          tenant TEXT NOT NULL,
          name TEXT NOT NULL,
          hash TEXT NOT NULL,
          last4 TEXT NOT NULL,
          create_time INTEGER NOT NULL,
          revoked INTEGER NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
        CREATE TABLE uploads (
          id TEXT PRIMARY KEY,
          tenant TEXT NOT NULL,
          record TEXT NOT NULL,
          data BLOB NOT NULL,
          size INTEGER NOT NULL,
          create_time INTEGER NOT NULL,
          expire_time INTEGER NOT NULL
        );
        CREATE INDEX uploads_tenant_create ON uploads (tenant, create_time, id);
        -- One fixed window per counter; rows whose window ran out are pruned by expires_at.
        CREATE TABLE rate_limits (name TEXT PRIMARY KEY, window_start INTEGER NOT NULL, expires_at INTEGER NOT NULL, count INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX rate_limits_expiry ON rate_limits (expires_at);
      `),
  },
  SQLITE_MEMORY_MIGRATION,
];

/** A canvasflow database file, opened and its schema brought up to date (what every SQLite store starts with). */
export function openStoreDatabase(file: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  const db = openSqliteDatabase(file, options);
  try {
    migrateSqlite(db, file, SQLITE_MIGRATIONS, options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
