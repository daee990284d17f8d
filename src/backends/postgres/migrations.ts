/**
 * The migration runner of every PostgreSQL table set (the sessions', the server's, the memories'):
 * each set is an ordered list of migrations and a one-row table that records how far a schema has
 * come through them. Sets are applied in one transaction under an advisory lock on the schema, so
 * processes starting together do not race on `CREATE TABLE`.
 */
import type pg from "pg";
import { pgDriver } from "../drivers.js";
import { SnapshotStoreError } from "../errors.js";
import { isSqlError, withClient } from "./connection.js";

/** One migration: the statements that take the schema from `version - 1` to `version`. */
export interface Migration<T> {
  version: number;
  statements: (t: T) => string[];
}

/**
 * An ordered list of migrations and the one-row table that records how far a schema has come
 * through them. The run-state tables are one such set; other rooms (the server's records) keep
 * theirs beside it in the same schema, with a version table of their own.
 */
export interface MigrationSet<T extends { schema: string }> {
  /** For messages: "the canvasflow tables". */
  label: string;
  /** The quoted, schema-qualified name of the version table. */
  versionTable(tables: T): string;
  migrations: ReadonlyArray<Migration<T>>;
}

export interface MigrationResult {
  schema: string;
  /** The version found (0: no tables yet). */
  from: number;
  /** The version now. */
  to: number;
}

// The first key of the advisory lock: "cflw", so the lock does not collide with an application's own.
const ADVISORY_CLASS = 0x63666c77;

/** The newest version of a migration set. */
export function latestVersion<T extends { schema: string }>(set: MigrationSet<T>): number {
  return set.migrations[set.migrations.length - 1].version;
}

/** The set's tables exist at this release's version in the schema (created or upgraded if not). */
export async function ensureMigrations<T extends { schema: string }>(pool: pg.Pool, set: MigrationSet<T>, tables: T, where: string): Promise<void> {
  const found = await schemaVersion(pool, set, tables, where);
  if (found === latestVersion(set)) return;
  if (found !== undefined && found > latestVersion(set)) throw newerSchema(set, tables, found, where);
  await withClient(pool, where, `creating the tables of schema ${tables.schema}`, undefined, (client) => applyMigrations(client, set, tables, where));
}

/**
 * Take the schema through the set's migrations it has not had, in one transaction under an
 * advisory lock (the same lock for every set: one schema is created once).
 */
export async function applyMigrations<T extends { schema: string }>(client: pg.ClientBase, set: MigrationSet<T>, tables: T, where: string): Promise<MigrationResult> {
  const latest = latestVersion(set);
  const versionTable = set.versionTable(tables);
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [ADVISORY_CLASS, tables.schema]);
    // Create the schema only when missing: CREATE SCHEMA IF NOT EXISTS needs the CREATE right
    // even when the schema is there, and a deployment may have made it for us.
    const exists = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [tables.schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${pgDriver().escapeIdentifier(tables.schema)}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${versionTable} (
      one boolean PRIMARY KEY DEFAULT true CHECK (one),
      version integer NOT NULL,
      migrated_at timestamptz NOT NULL DEFAULT now()
    )`);
    const row = await client.query<{ version: number }>(`SELECT version FROM ${versionTable}`);
    const from = row.rows[0]?.version ?? 0;
    if (from > latest) throw newerSchema(set, tables, from, where);
    for (const migration of set.migrations) {
      if (migration.version <= from) continue;
      for (const statement of migration.statements(tables)) await client.query(statement);
    }
    if (from < latest) {
      await client.query(
        `INSERT INTO ${versionTable} (one, version) VALUES (true, $1)
         ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version, migrated_at = now()`,
        [latest],
      );
    }
    await client.query("COMMIT");
    return { schema: tables.schema, from, to: latest };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** The recorded schema version; undefined when there are no tables yet. */
async function schemaVersion<T extends { schema: string }>(pool: pg.Pool, set: MigrationSet<T>, tables: T, where: string): Promise<number | undefined> {
  return withClient(pool, where, `reading the schema version of ${tables.schema}`, undefined, async (client) => {
    try {
      const result = await client.query<{ version: number }>(`SELECT version FROM ${set.versionTable(tables)}`);
      return result.rows[0]?.version ?? 0;
    } catch (error) {
      // 3F000: no such schema; 42P01: no such table.
      if (isSqlError(error) && (error.code === "3F000" || error.code === "42P01")) return undefined;
      throw error;
    }
  });
}

function newerSchema<T extends { schema: string }>(set: MigrationSet<T>, tables: T, found: number, where: string): SnapshotStoreError {
  return new SnapshotStoreError(
    `${set.label} in schema ${tables.schema} of PostgreSQL at ${where} are at schema version ${found}; this canvasflow knows versions up to ${latestVersion(set)}: upgrade canvasflow`,
  );
}
