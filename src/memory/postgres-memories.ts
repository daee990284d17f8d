/**
 * Memories in PostgreSQL, beside the sessions (same schema): one row per message in
 * `<schema>.memory_messages`. A message is added and the oldest past the size limit forgotten in
 * one transaction, under an advisory lock per memory; a duplicate source key adds nothing.
 */
import pg from "pg";
import { describeTarget, openPool, withClient, type PostgresConnectionOptions } from "../stores/postgres-connection.js";
import { ensureMigrations, type MigrationSet } from "../stores/postgres-schema.js";
import { DEFAULT_POSTGRES_SCHEMA } from "../stores/postgres-schema.js";
import { SnapshotStoreError } from "../stores/snapshot-store.js";
import { checkMaxBytes, checkMemoryId, completeMessage, MemoryStoreError, messageBytes, newMessageId, parseMessage, type MemoryMessage, type MemoryStore, type NewMemoryMessage } from "./types.js";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,55}$/;

interface MemoryTables {
  schema: string;
  version: string;
  messages: string;
}

function memoryTables(schema: string): MemoryTables {
  if (!SCHEMA_NAME.test(schema)) throw new MemoryStoreError(`PostgreSQL schema name must be 1 to 56 lowercase letters, digits or "_", starting with a letter or "_"; got ${JSON.stringify(schema)}`);
  const q = (table: string) => `${pg.escapeIdentifier(schema)}.${table}`;
  return { schema, version: q("memory_schema_version"), messages: q("memory_messages") };
}

const MEMORY_TABLES: MigrationSet<MemoryTables> = {
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
  ],
};

// The advisory lock class of memory writes ("cfme").
const MEMORY_LOCK_CLASS = 0x6366_6d65;

export interface PostgresMemoryStoreOptions extends PostgresConnectionOptions {
  /** A postgres:// URL (the store owns that pool) or a pool you own. */
  url: string | pg.Pool;
  schema?: string;
  maxBytes?: number;
}

export class PostgresMemoryStore implements MemoryStore {
  readonly location: string;
  private readonly pool: pg.Pool;
  private readonly owned: boolean;
  private readonly tables: MemoryTables;
  private readonly maxBytes: number;
  private ready: Promise<void> | undefined;

  constructor(options: PostgresMemoryStoreOptions) {
    this.tables = memoryTables(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
    this.maxBytes = checkMaxBytes(options.maxBytes);
    this.owned = typeof options.url === "string";
    this.pool = typeof options.url === "string" ? openPool(options.url, options) : options.url;
    this.location = `PostgreSQL at ${describeTarget(options.url)} (${this.tables.schema}.memory_messages)`;
  }

  private async schema(): Promise<void> {
    this.ready ??= ensureMigrations(this.pool, MEMORY_TABLES, this.tables, describeTarget(this.pool)).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
  }

  async add(memoryId: string, message: NewMemoryMessage): Promise<boolean> {
    checkMemoryId(memoryId);
    const added = completeMessage(memoryId, message, newMessageId());
    return this.work(memoryId, "adding a message", async (client) => {
      await client.query("BEGIN");
      try {
        await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [MEMORY_LOCK_CLASS, memoryId]);
        const inserted = await client.query(
          `INSERT INTO ${this.tables.messages} (memory_id, source_key, bytes, message) VALUES ($1, $2, $3, $4)
           ON CONFLICT (memory_id, source_key) WHERE source_key <> '' DO NOTHING`,
          [memoryId, added.source_key, messageBytes(added), JSON.stringify(added)],
        );
        if (inserted.rowCount === 1) {
          // Forget the oldest while the newer ones hold more than the limit; the newest always stays.
          await client.query(
            `DELETE FROM ${this.tables.messages} WHERE seq IN (
               SELECT seq FROM (
                 SELECT seq, SUM(bytes) OVER (ORDER BY seq DESC) AS held, ROW_NUMBER() OVER (ORDER BY seq DESC) AS rank
                 FROM ${this.tables.messages} WHERE memory_id = $1
               ) s WHERE held > $2 AND rank > 1)`,
            [memoryId, this.maxBytes],
          );
        }
        await client.query("COMMIT");
        return inserted.rowCount === 1;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    });
  }

  async messages(memoryId: string): Promise<MemoryMessage[]> {
    checkMemoryId(memoryId);
    return this.work(memoryId, "reading messages", async (client) => {
      const rows = await client.query<{ seq: string; message: string }>(`SELECT seq, message FROM ${this.tables.messages} WHERE memory_id = $1 ORDER BY seq`, [memoryId]);
      return rows.rows.map((row) => parseMessage(row.message, `memory "${memoryId}" in ${this.location}, row ${row.seq}`));
    });
  }

  private async work<T>(memoryId: string, what: string, action: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    try {
      await this.schema();
      return await withClient(this.pool, describeTarget(this.pool), `memory "${memoryId}", ${what}`, undefined, action);
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw new MemoryStoreError(error.message);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.owned) await this.pool.end();
  }
}
