/**
 * Memories in PostgreSQL, beside the sessions (same schema): one row per message in
 * `<schema>.memory_messages`, with its tenant. A message is added and the oldest past the size
 * limit forgotten in one transaction, under an advisory lock per memory; a duplicate source key
 * adds nothing.
 *
 * Schema version 2 added the `tenant` column: rows of earlier releases have none (NULL, legacy)
 * and no query of a tenant's memory matches them; legacy.ts moves each legacy memory to its
 * tenants in one transaction (the rows keep their seq, so their order).
 */
import type pg from "pg";
import { describeTarget, openPool, withClient, type PostgresConnectionOptions } from "./connection.js";
import { ensureMigrations } from "./migrations.js";
import { MEMORY_TABLES, memoryTables, type MemoryTables } from "./memories-schema.js";
import { DEFAULT_POSTGRES_SCHEMA } from "./session-schema.js";
import { SnapshotStoreError, MemoryStoreError } from "../errors.js";
import type { LegacyMemoryLayout, LegacyMove, LegacyRoute } from "../../memories/legacy.js";
import { checkMaxBytes, checkMemoryRef, completeMessage, describeMemory, messageBytes, newMessageId, parseMessage } from "../shared/memories.js";
import type { MemoryMessage, MemoryRef, MemoryStore, NewMemoryMessage } from "../contracts.js";

// The advisory lock class of memory writes ("cfme").
const MEMORY_LOCK_CLASS = 0x6366_6d65;

export interface PostgresMemoryStoreOptions extends PostgresConnectionOptions {
  /** A postgres:// URL (the store owns that pool) or a pool you own. */
  url: string | pg.Pool;
  schema?: string;
  maxBytes?: number;
}

export class PostgresMemoryStore implements MemoryStore, LegacyMemoryLayout {
  readonly scope = "tenant" as const;
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

  async add(memory: MemoryRef, message: NewMemoryMessage): Promise<boolean> {
    const { tenant, id } = checkMemoryRef(memory);
    const added = completeMessage(id, message, newMessageId());
    return this.work(describeMemory(memory), "adding a message", async (client) => {
      await client.query("BEGIN");
      try {
        await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [MEMORY_LOCK_CLASS, lockName(tenant, id)]);
        const inserted = await client.query(
          `INSERT INTO ${this.tables.messages} (tenant, memory_id, source_key, bytes, message) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (tenant, memory_id, source_key) WHERE source_key <> '' AND tenant IS NOT NULL DO NOTHING`,
          [tenant, id, added.source_key, messageBytes(added), JSON.stringify(added)],
        );
        if (inserted.rowCount === 1) {
          // Forget the oldest while the newer ones hold more than the limit; the newest always stays.
          await client.query(
            `DELETE FROM ${this.tables.messages} WHERE seq IN (
               SELECT seq FROM (
                 SELECT seq, SUM(bytes) OVER (ORDER BY seq DESC) AS held, ROW_NUMBER() OVER (ORDER BY seq DESC) AS rank
                 FROM ${this.tables.messages} WHERE tenant = $1 AND memory_id = $2
               ) s WHERE held > $3 AND rank > 1)`,
            [tenant, id, this.maxBytes],
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

  async messages(memory: MemoryRef): Promise<MemoryMessage[]> {
    const { tenant, id } = checkMemoryRef(memory);
    return this.work(describeMemory(memory), "reading messages", async (client) => {
      const rows = await client.query<{ seq: string; message: string }>(`SELECT seq, message FROM ${this.tables.messages} WHERE tenant = $1 AND memory_id = $2 ORDER BY seq`, [tenant, id]);
      return rows.rows.map((row) => parseMessage(row.message, `${describeMemory(memory)} in ${this.location}, row ${row.seq}`));
    });
  }

  async legacyMemoryIds(): Promise<string[]> {
    return this.work("legacy memories", "listing them", async (client) => {
      const rows = await client.query<{ memory_id: string }>(`SELECT DISTINCT memory_id FROM ${this.tables.messages} WHERE tenant IS NULL ORDER BY memory_id`);
      return rows.rows.map((row) => row.memory_id);
    });
  }

  async moveLegacyMemory(id: string, route: LegacyRoute): Promise<LegacyMove> {
    return this.work(`legacy memory ${JSON.stringify(id)}`, "moving it to its tenants", async (client) => {
      await client.query("BEGIN");
      try {
        // The lock writers of releases before tenant scopes took for this memory.
        await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [MEMORY_LOCK_CLASS, id]);
        const rows = await client.query<{ seq: string; message: string }>(`SELECT seq, message FROM ${this.tables.messages} WHERE tenant IS NULL AND memory_id = $1 ORDER BY seq FOR UPDATE`, [id]);
        const messages = rows.rows.map((row) => parseMessage(row.message, `legacy memory ${JSON.stringify(id)} in ${this.location}, row ${row.seq}`));
        const tenants = await routed(route, messages);
        const byTenant = new Map<string, number[]>();
        tenants.forEach((tenant, i) => {
          if (tenant !== undefined) byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), i]);
        });
        for (const [tenant, indexes] of byTenant) {
          await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [MEMORY_LOCK_CLASS, lockName(tenant, id)]);
          const keys = indexes.map((i) => messages[i].source_key).filter((key) => typeof key === "string" && key !== "");
          const taken = new Set(
            keys.length === 0
              ? []
              : (await client.query<{ source_key: string }>(`SELECT source_key FROM ${this.tables.messages} WHERE tenant = $1 AND memory_id = $2 AND source_key = ANY($3::text[])`, [tenant, id, keys])).rows.map((row) => row.source_key),
          );
          for (const i of indexes) {
            if (!taken.has(messages[i].source_key)) continue;
            await client.query(`UPDATE ${this.tables.messages} SET source_key = '', message = $2 WHERE seq = $1`, [rows.rows[i].seq, JSON.stringify({ ...messages[i], source_key: "" })]);
          }
          await client.query(`UPDATE ${this.tables.messages} SET tenant = $1 WHERE seq = ANY($2::bigint[])`, [tenant, indexes.map((i) => rows.rows[i].seq)]);
        }
        await client.query("COMMIT");
        const moved = new Map([...byTenant].map(([tenant, indexes]) => [tenant, indexes.length]));
        return { moved, kept: messages.length - [...moved.values()].reduce((a, b) => a + b, 0) };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    });
  }

  private async work<T>(memory: string, what: string, action: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    try {
      await this.schema();
      // Our own errors pass through withClient as they are (it would take them for a lost connection).
      const guarded = async (client: pg.PoolClient) => {
        try {
          return await action(client);
        } catch (error) {
          if (error instanceof MemoryStoreError) throw new SnapshotStoreError(error.message);
          throw error;
        }
      };
      return await withClient(this.pool, describeTarget(this.pool), `${memory}, ${what}`, undefined, guarded);
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw new MemoryStoreError(error.message);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.owned) await this.pool.end();
  }
}

/** The route's answer; its failure (finding the owners) as a MemoryStoreError. */
async function routed(route: LegacyRoute, messages: readonly MemoryMessage[]): Promise<ReadonlyArray<string | undefined>> {
  try {
    return await route(messages);
  } catch (error) {
    throw new MemoryStoreError(`finding the owners of its messages: ${(error as Error).message}`);
  }
}

/** What a tenant's memory's advisory lock is taken on (a legacy memory's is its bare id, as before). */
function lockName(tenant: string, id: string): string {
  return JSON.stringify([tenant, id]);
}
