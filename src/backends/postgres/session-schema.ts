/**
 * The PostgreSQL tables behind `PostgresSnapshotStore` and `PostgresCancelSignals`, all in one
 * schema (default `canvasflow`), and the migrations that create them.
 *
 * The stores create the tables on first use; `migratePostgres` (what `canvasflow db migrate`
 * runs) does the same ahead of time, for deployments whose runtime role may not create tables.
 * Either way the work happens in one transaction under an advisory lock, so processes starting
 * together do not race on `CREATE TABLE`, and a `schema_version` row records how far the schema
 * is, so later releases can add migrations.
 *
 * Snapshots, deltas and events are stored as the JSON text the caller gave (`text`, not `jsonb`):
 * the store never looks inside them, the server does not parse them on every write, and a
 * damaged row can be reported as it is. Cast to `jsonb` to query them.
 */
import type pg from "pg";
import { pgDriver } from "../drivers.js";
import { SnapshotStoreError } from "../errors.js";
import { describeTarget, openPool, postgresFailure, withClient, type PostgresConnectionOptions, type PostgresTarget } from "./connection.js";
import { applyMigrations, ensureMigrations, type Migration, type MigrationResult, type MigrationSet } from "./migrations.js";

export const DEFAULT_POSTGRES_SCHEMA = "canvasflow";

/** Qualified table names of one schema: `sql` for statements (quoted), `shown` for messages. */
export interface PostgresTables {
  schema: string;
  sql: {
    schemaVersion: string;
    versions: string;
    sessions: string;
    checkpoints: string;
    events: string;
    locks: string;
    cancelFlags: string;
  };
  shown: {
    sessions: string;
    checkpoints: string;
    events: string;
    locks: string;
    cancelFlags: string;
  };
  /** The NOTIFY channel of cancel requests: `<schema>_cancel`. */
  cancelChannel: string;
}

// Lowercase only: then the name reads the same quoted and unquoted (in psql, in messages).
// 56 characters leave room for the "_cancel" channel within PostgreSQL's 63-byte identifiers.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,55}$/;

export function postgresTables(schema: unknown = DEFAULT_POSTGRES_SCHEMA): PostgresTables {
  if (typeof schema !== "string" || !SCHEMA_NAME.test(schema)) {
    throw new SnapshotStoreError(
      `PostgreSQL schema name must be 1 to 56 lowercase letters, digits or "_", starting with a letter or "_"; got ${JSON.stringify(schema) ?? String(schema)}`,
    );
  }
  const q = (table: string) => `${pgDriver().escapeIdentifier(schema)}.${table}`;
  return {
    schema,
    sql: {
      schemaVersion: q("schema_version"),
      versions: q("versions"),
      sessions: q("sessions"),
      checkpoints: q("checkpoints"),
      events: q("events"),
      locks: q("locks"),
      cancelFlags: q("cancel_flags"),
    },
    shown: {
      sessions: `${schema}.sessions`,
      checkpoints: `${schema}.checkpoints`,
      events: `${schema}.events`,
      locks: `${schema}.locks`,
      cancelFlags: `${schema}.cancel_flags`,
    },
    cancelChannel: `${schema}_cancel`,
  };
}

const MIGRATIONS: Array<Migration<PostgresTables>> = [
  {
    version: 1,
    statements: (t) => [
      // Versions come from one sequence, so a deleted and re-created session never repeats one
      // (a stale expectedVersion can never match by accident).
      `CREATE SEQUENCE IF NOT EXISTS ${t.sql.versions}`,
      // A session: its base snapshot and where its checkpoints are. last_seq is the seq of the
      // last checkpoint (0: none since the base); event_count the rows in its event log, so the
      // cap is kept without counting them.
      `CREATE TABLE IF NOT EXISTS ${t.sql.sessions} (
        key text PRIMARY KEY,
        snapshot text NOT NULL,
        version bigint NOT NULL,
        last_seq integer NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
        event_count integer NOT NULL DEFAULT 0 CHECK (event_count >= 0),
        saved_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz
      )`,
      `CREATE INDEX IF NOT EXISTS sessions_expires_at ON ${t.sql.sessions} (expires_at) WHERE expires_at IS NOT NULL`,
      // No foreign keys to sessions: the append statement checks the base itself, and a foreign
      // key would add a trigger and a lookup to every row written.
      `CREATE TABLE IF NOT EXISTS ${t.sql.checkpoints} (
        key text NOT NULL,
        seq integer NOT NULL CHECK (seq >= 1),
        delta text NOT NULL,
        PRIMARY KEY (key, seq)
      )`,
      // Event ids are <run>-<n>; the primary key orders a session's log, for reads after an id
      // and for dropping the oldest.
      `CREATE TABLE IF NOT EXISTS ${t.sql.events} (
        key text NOT NULL,
        run bigint NOT NULL,
        n bigint NOT NULL,
        event text NOT NULL,
        PRIMARY KEY (key, run, n)
      )`,
      // A session's lease: who holds it and until when (renewed by the holder's heartbeat).
      `CREATE TABLE IF NOT EXISTS ${t.sql.locks} (
        key text PRIMARY KEY,
        token text NOT NULL,
        pid integer NOT NULL,
        host text NOT NULL,
        acquired_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`,
      `CREATE TABLE IF NOT EXISTS ${t.sql.cancelFlags} (
        task_id text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      )`,
    ],
  },
];

/** The schema version this release writes and reads. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

const RUN_STATE: MigrationSet<PostgresTables> = { label: "the canvasflow tables", versionTable: (t) => t.sql.schemaVersion, migrations: MIGRATIONS };

export interface MigratePostgresOptions extends PostgresConnectionOptions {
  /** Default `canvasflow`. */
  schema?: string;
}

/**
 * Create or upgrade the tables in `schema`, in one transaction under an advisory lock. Safe to run
 * any number of times, from any number of processes at once. `target` is a `postgres://` URL, a
 * pool or a client (a pool or client you pass stays open).
 */
export async function migratePostgres(target: PostgresTarget, options: MigratePostgresOptions = {}): Promise<MigrationResult> {
  const tables = postgresTables(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  const where = describeTarget(target);
  if (target instanceof pgDriver().Client) {
    return applyMigrations(target, RUN_STATE, tables, where).catch((error: unknown) => {
      throw error instanceof SnapshotStoreError ? error : postgresFailure(error, where, `creating the tables of schema ${tables.schema}`);
    });
  }
  const pool = typeof target === "string" ? openPool(target, options) : target;
  try {
    return await withClient(pool, where, `creating the tables of schema ${tables.schema}`, undefined, (client) => applyMigrations(client, RUN_STATE, tables, where));
  } finally {
    if (typeof target === "string") await pool.end();
  }
}

/** The schema is ready to use: the tables exist at this release's version (created if missing). */
export async function ensureSchema(pool: pg.Pool, tables: PostgresTables, where: string): Promise<void> {
  await ensureMigrations(pool, RUN_STATE, tables, where);
}
