/**
 * The PostgreSQL table of conversation memories (`<schema>.memory_messages`, beside the sessions'
 * tables) and its migrations, with a version table of its own.
 */
import { pgDriver } from "../drivers.js";
import { MemoryStoreError, SnapshotStoreError } from "../errors.js";
import { describeTarget, openPool, postgresFailure, withClient, type PostgresConnectionOptions } from "./connection.js";
import { applyMigrations, type MigrationResult, type MigrationSet } from "./migrations.js";
import { DEFAULT_POSTGRES_SCHEMA } from "./session-schema.js";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,55}$/;

export interface MemoryTables {
  schema: string;
  version: string;
  messages: string;
  /** An index's name, schema-qualified (to drop it). */
  index(name: string): string;
}

export function memoryTables(schema: string): MemoryTables {
  if (!SCHEMA_NAME.test(schema)) throw new MemoryStoreError(`PostgreSQL schema name must be 1 to 56 lowercase letters, digits or "_", starting with a letter or "_"; got ${JSON.stringify(schema)}`);
  const q = (table: string) => `${pgDriver().escapeIdentifier(schema)}.${table}`;
  return { schema, version: q("memory_schema_version"), messages: q("memory_messages"), index: q };
}

export const MEMORY_TABLES: MigrationSet<MemoryTables> = {
  label: "the canvasflow memory tables",
  versionTable: (t) => t.version,
  migrations: [
    {
      version: 1,
      statements: (t) => [
        `CREATE TABLE IF NOT EXISTS ${t.messages} (
          seq bigserial PRIMARY KEY,
          memory_id text NOT NULL,
          source_key text NOT NULL,
          bytes integer NOT NULL,
          message text NOT NULL
        )`,
        `CREATE INDEX IF NOT EXISTS memory_messages_memory ON ${t.messages} (memory_id, seq)`,
        `CREATE UNIQUE INDEX IF NOT EXISTS memory_messages_source ON ${t.messages} (memory_id, source_key) WHERE source_key <> ''`,
      ],
    },
    {
      // Memories belong to tenants. Rows already there keep tenant NULL: legacy, moved by legacy.ts.
      version: 2,
      statements: (t) => [
        `ALTER TABLE ${t.messages} ADD COLUMN IF NOT EXISTS tenant text`,
        `DROP INDEX IF EXISTS ${t.index("memory_messages_memory")}`,
        `DROP INDEX IF EXISTS ${t.index("memory_messages_source")}`,
        `CREATE INDEX IF NOT EXISTS memory_messages_tenant_memory ON ${t.messages} (tenant, memory_id, seq) WHERE tenant IS NOT NULL`,
        `CREATE UNIQUE INDEX IF NOT EXISTS memory_messages_tenant_source ON ${t.messages} (tenant, memory_id, source_key) WHERE source_key <> '' AND tenant IS NOT NULL`,
        `CREATE INDEX IF NOT EXISTS memory_messages_legacy ON ${t.messages} (memory_id, seq) WHERE tenant IS NULL`,
      ],
    },
  ],
};

/** Create or upgrade the memory tables of `schema` ahead of time (`canvasflow db migrate`); the store does it on first use otherwise. */
export async function migratePostgresMemories(url: string, options: PostgresConnectionOptions & { schema?: string } = {}): Promise<MigrationResult> {
  const tables = memoryTables(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  const pool = openPool(url, options);
  const where = describeTarget(url);
  try {
    return await withClient(pool, where, `creating the memory tables of schema ${tables.schema}`, undefined, (client) => applyMigrations(client, MEMORY_TABLES, tables, where));
  } catch (error) {
    if (error instanceof SnapshotStoreError) throw error;
    throw postgresFailure(error, where, `creating the memory tables of schema ${tables.schema}`);
  } finally {
    await pool.end();
  }
}
