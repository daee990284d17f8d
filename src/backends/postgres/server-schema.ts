/**
 * The PostgreSQL tables of the server's records, in the same schema as the run-state tables
 * (default `canvasflow`), with a version table of their own (`server_schema_version`) so each room
 * migrates its own tables. Created on first use, or ahead of time by `canvasflow db migrate`
 * (`migratePostgresServer`), in one transaction under the schema's advisory lock.
 *
 * Titles are unique per tenant through `title_key`, the title lower-cased by canvasflow (not by
 * the database's `lower()`, whose result depends on the database's locale): every backend folds
 * case the same way. Records' JSON parts (a DSL, a message list) are stored as the text given:
 * `jsonb` would reorder a DSL's keys.
 */
import type pg from "pg";
import { pgDriver } from "../drivers.js";
import { describeTarget, openPool, postgresFailure, withClient, type PostgresConnectionOptions, type PostgresTarget } from "./connection.js";
import { applyMigrations, ensureMigrations, latestVersion, type MigrationResult, type MigrationSet } from "./migrations.js";
import { DEFAULT_POSTGRES_SCHEMA, postgresTables } from "./session-schema.js";
import { SnapshotStoreError } from "../errors.js";

export interface ServerTables {
  schema: string;
  /** Quoted, for statements. */
  sql: { version: string; agents: string; sessionRecords: string; apiKeys: string; uploads: string };
  /** `schema.table`, for messages. */
  shown: { agents: string; sessionRecords: string; apiKeys: string; uploads: string };
}

/** The tables of `schema` (its name checked as the run-state tables check it). */
export function serverTables(schema: unknown = DEFAULT_POSTGRES_SCHEMA): ServerTables {
  const name = postgresTables(schema).schema;
  const q = (table: string) => `${pgDriver().escapeIdentifier(name)}.${table}`;
  return {
    schema: name,
    sql: { version: q("server_schema_version"), agents: q("agents"), sessionRecords: q("session_records"), apiKeys: q("api_keys"), uploads: q("uploads") },
    shown: { agents: `${name}.agents`, sessionRecords: `${name}.session_records`, apiKeys: `${name}.api_keys`, uploads: `${name}.uploads` },
  };
}

export const SERVER_MIGRATIONS: MigrationSet<ServerTables> = {
  label: "the canvasflow server tables",
  versionTable: (t) => t.sql.version,
  migrations: [
    {
      version: 1,
      statements: (t) => [
        `CREATE TABLE IF NOT EXISTS ${t.sql.agents} (
          id text PRIMARY KEY,
          tenant text NOT NULL,
          title text NOT NULL,
          title_key text NOT NULL,
          description text NOT NULL,
          dsl text NOT NULL,
          canvas_type text NOT NULL,
          avatar text,
          create_time bigint NOT NULL,
          update_time bigint NOT NULL
        )`,
        `CREATE UNIQUE INDEX IF NOT EXISTS agents_tenant_title ON ${t.sql.agents} (tenant, title_key)`,
        // Lists order by a time, ties by id.
        `CREATE INDEX IF NOT EXISTS agents_tenant_update ON ${t.sql.agents} (tenant, update_time, id)`,
        `CREATE INDEX IF NOT EXISTS agents_tenant_create ON ${t.sql.agents} (tenant, create_time, id)`,
        // Not "sessions": that is the run state's table. No foreign key to agents: a session
        // record is deleted with its agent by the same statement that deletes the agent.
        `CREATE TABLE IF NOT EXISTS ${t.sql.sessionRecords} (
          id text PRIMARY KEY,
          tenant text NOT NULL,
          agent_id text NOT NULL,
          user_id text NOT NULL,
          name text NOT NULL,
          name_key text NOT NULL,
          message text NOT NULL,
          source text NOT NULL,
          create_time bigint NOT NULL,
          update_time bigint NOT NULL
        )`,
        `CREATE INDEX IF NOT EXISTS session_records_agent_update ON ${t.sql.sessionRecords} (tenant, agent_id, update_time, id)`,
        `CREATE INDEX IF NOT EXISTS session_records_agent_create ON ${t.sql.sessionRecords} (tenant, agent_id, create_time, id)`,
        `CREATE TABLE IF NOT EXISTS ${t.sql.apiKeys} (
          id text PRIMARY KEY,
          tenant text NOT NULL,
          name text NOT NULL,
          hash text NOT NULL,
          last4 text NOT NULL,
          create_time bigint NOT NULL,
          revoked boolean NOT NULL DEFAULT false
        )`,
        `CREATE UNIQUE INDEX IF NOT EXISTS api_keys_hash ON ${t.sql.apiKeys} (hash)`,
      ],
    },
    {
      // Uploaded files (Dify's /v1/files/upload), kept by every server on the database.
      version: 2,
      statements: (t) => [
        `CREATE TABLE IF NOT EXISTS ${t.sql.uploads} (
          id text PRIMARY KEY,
          tenant text NOT NULL,
          record text NOT NULL,
          data bytea NOT NULL,
          size bigint NOT NULL,
          create_time bigint NOT NULL,
          expire_time bigint NOT NULL
        )`,
        `CREATE INDEX IF NOT EXISTS uploads_tenant_create ON ${t.sql.uploads} (tenant, create_time, id)`,
      ],
    },
  ],
};

export const POSTGRES_SERVER_SCHEMA_VERSION = latestVersion(SERVER_MIGRATIONS);

export interface MigratePostgresServerOptions extends PostgresConnectionOptions {
  /** Default `canvasflow`. */
  schema?: string;
}

/**
 * Create or upgrade the server's tables in `schema` (the run-state tables are `migratePostgres`'s).
 * Safe to run any number of times, from any number of processes at once.
 */
export async function migratePostgresServer(target: PostgresTarget, options: MigratePostgresServerOptions = {}): Promise<MigrationResult> {
  const tables = serverTables(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  const where = describeTarget(target);
  const context = `creating the server tables of schema ${tables.schema}`;
  if (target instanceof pgDriver().Client) {
    return applyMigrations(target, SERVER_MIGRATIONS, tables, where).catch((error: unknown) => {
      throw error instanceof SnapshotStoreError ? error : postgresFailure(error, where, context);
    });
  }
  const pool = typeof target === "string" ? openPool(target, options) : target;
  try {
    return await withClient(pool, where, context, undefined, (client) => applyMigrations(client, SERVER_MIGRATIONS, tables, where));
  } finally {
    if (typeof target === "string") await pool.end();
  }
}

/** The server's tables are there at this release's version (created if missing). */
export async function ensureServerSchema(pool: pg.Pool, tables: ServerTables, where: string): Promise<void> {
  await ensureMigrations(pool, SERVER_MIGRATIONS, tables, where);
}
