/**
 * The tables of sessions in a SQLite database (schema version in `user_version`, see
 * database.ts): a session's base snapshot and version, its checkpoints, its event log, its lease,
 * and the counter versions are drawn from.
 */
import type { SqliteMigration } from "./database.js";

export const SQLITE_SESSION_MIGRATIONS: readonly SqliteMigration[] = [
  {
    name: "sessions, checkpoints, events, locks",
    up: (db) =>
      db.exec(`
        CREATE TABLE sessions (
          key TEXT PRIMARY KEY,
          body TEXT NOT NULL,
          version INTEGER NOT NULL,
          last_seq INTEGER NOT NULL DEFAULT 0,
          expires_at INTEGER
        );
        CREATE TABLE checkpoints (key TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (key, seq)) WITHOUT ROWID;
        CREATE TABLE events (key TEXT NOT NULL, run INTEGER NOT NULL, n INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (key, run, n)) WITHOUT ROWID;
        CREATE TABLE locks (key TEXT PRIMARY KEY, token TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
        CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO counters (name, value) VALUES ('version', 0);
      `),
  },
];
