/**
 * API keys in a SQLite database file (table `api_keys`, migration 3 of schema.ts), kept by their
 * SHA-256 only; `revoked` is 0 or 1.
 */
import type { ApiKeyRecord, ApiKeyStore } from "../contracts.js";
import { ServerStoreError } from "../errors.js";
import { checkNewRecord, checkStoredRecord, isKeyHash, isRecordId, pageOfRows } from "../shared/records.js";
import { violatedConstraint, type ServerDatabase } from "./server-database.js";

interface KeyRow {
  id: string;
  tenant: string;
  name: string;
  hash: string;
  last4: string;
  create_time: number;
  revoked: number;
}

export class SqliteApiKeys implements ApiKeyStore {
  constructor(private readonly store: ServerDatabase) {}

  async create(key: ApiKeyRecord): Promise<ApiKeyRecord> {
    checkNewRecord("API key", key, this.store.location);
    try {
      this.store.run(`creating API key ${key.id}`, () =>
        this.store.sql("INSERT INTO api_keys (id, tenant, name, hash, last4, create_time, revoked) VALUES (?, ?, ?, ?, ?, ?, ?)").run(key.id, key.tenant, key.name, key.hash, key.last4, key.create_time, key.revoked ? 1 : 0),
      );
    } catch (error) {
      const constraint = violatedConstraint(error);
      if (constraint === "primary key") throw new ServerStoreError(`${this.store.location}: API key ${key.id} already exists`);
      if (constraint === "unique") throw new ServerStoreError(`${this.store.location}: another API key has this hash (table api_keys)`);
      throw error;
    }
    return structuredClone(key);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    if (!isKeyHash(hash)) return undefined;
    const row = this.store.run("looking up an API key", () => this.store.sql<[string], KeyRow>("SELECT * FROM api_keys WHERE hash = ? AND revoked = 0").get(hash));
    // A key whose row cannot be read opens nothing (its holder gets 401; the log says why).
    return row && pageOfRows("API key", [row], 1, (r) => this.record(r), this.store.damage).items[0];
  }

  async list(tenant?: string): Promise<ApiKeyRecord[]> {
    const rows = this.store.run("listing the API keys", () =>
      tenant === undefined
        ? this.store.sql<[], KeyRow>("SELECT * FROM api_keys ORDER BY create_time, id").all()
        : this.store.sql<[string], KeyRow>("SELECT * FROM api_keys WHERE tenant = ? ORDER BY create_time, id").all(tenant),
    );
    // One damaged key must not stop `serve` (which counts the keys) nor hide the others.
    return pageOfRows("API key", rows, rows.length, (row) => this.record(row), this.store.damage).items;
  }

  async revoke(id: string): Promise<boolean> {
    if (!isRecordId(id)) return false;
    return this.store.run(`revoking API key ${id}`, () => this.store.sql("UPDATE api_keys SET revoked = 1 WHERE id = ?").run(id).changes > 0);
  }

  private record(row: KeyRow): ApiKeyRecord {
    // 0 and 1 are the only booleans SQLite has; anything else is left for the check to name.
    const revoked = row.revoked === 1 ? true : row.revoked === 0 ? false : row.revoked;
    return checkStoredRecord<ApiKeyRecord>(
      "API key",
      { id: row.id, tenant: row.tenant, name: row.name, hash: row.hash, last4: row.last4, create_time: row.create_time, revoked },
      this.store.rowWhere("api_keys", row.id),
    );
  }
}
