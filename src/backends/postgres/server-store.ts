/**
 * A ServerStore in PostgreSQL: records in the tables of `server-schema.ts` (agents,
 * session_records, api_keys), the run state in the same schema through PostgresSnapshotStore, and
 * cancel signals through PostgresCancelSignals, all on one pool. Each operation is one statement
 * (a create, a list page with its total, an agent's delete with its session records) or one
 * short transaction (an update: the row is locked, merged in JavaScript, written back).
 *
 * Cancel signals may come from elsewhere (`cancel`): with Redis beside PostgreSQL, records and
 * runs stay here and cancel requests go through Redis (see open.ts).
 */
import type pg from "pg";
import type { CancelSignals, AgentPatch, AgentRecord, AgentStore, ApiKeyRecord, ApiKeyStore, DamageListener, ListQuery, Page, ServerStore, SessionPatch, SessionRecord, SessionRecordStore, UploadLimits, UploadRecord, UploadStore } from "../contracts.js";
import { connectClient, DEFAULT_POSTGRES_URL, describeTarget, isSqlError, openPool, postgresFailure, type PostgresConnectionOptions } from "./connection.js";
import { PostgresCancelSignals } from "./cancel.js";
import { DEFAULT_POSTGRES_SCHEMA } from "./session-schema.js";
import { PostgresSnapshotStore } from "./session-store.js";
import { SnapshotStoreError, DuplicateTitleError, ServerStoreError } from "../errors.js";
import { ensureServerSchema, serverTables, type ServerTables } from "./server-schema.js";
import { checkNewRecord, checkStoredRecord, DamageListeners, isKeyHash, isRecordId, pageOfRows, patchedAgent, patchedSession, titleKey, type RecordKind } from "../shared/records.js";
import { agentFromRow, sessionFromRow, type AgentRow as SqlAgentRow, type SessionRow as SqlSessionRow } from "../shared/record-rows.js";
import { checkUpload, isUploadId, uploadsToDrop } from "../shared/uploads.js";

export interface PostgresServerStoreOptions extends PostgresConnectionOptions {
  /** Where PostgreSQL is (default `postgres://postgres@127.0.0.1:5432/postgres`); the store owns this pool. */
  url?: string;
  /** Or a pool you own: `close()` leaves it open. */
  pool?: pg.Pool;
  /** The schema of all the tables (default `canvasflow`). */
  schema?: string;
  /** Cancel signals to use instead of PostgreSQL's (the store closes them with itself). */
  cancel?: CancelSignals;
  /** Said after the PostgreSQL part in `location` (e.g. where `cancel` is). */
  locationSuffix?: string;
}

interface AgentRow extends SqlAgentRow<string> {
  total?: string;
}

interface SessionRow extends SqlSessionRow<string> {
  name_key: string;
  total?: string;
}

interface KeyRow {
  id: string;
  tenant: string;
  name: string;
  hash: string;
  last4: string;
  create_time: string;
  revoked: boolean;
}

export class PostgresServerStore implements ServerStore {
  readonly pool: pg.Pool;
  readonly tables: ServerTables;
  /** `host:port/database`, for messages. */
  readonly server: string;
  readonly location: string;
  readonly agents: AgentStore;
  readonly sessions: SessionRecordStore;
  readonly keys: ApiKeyStore;
  readonly uploads: UploadStore;
  readonly runs: PostgresSnapshotStore;
  readonly cancel: CancelSignals;
  private readonly ownsPool: boolean;
  private ready: Promise<void> | undefined;
  private closed = false;
  /** Who is told of the damaged rows the lists skip. */
  readonly damage = new DamageListeners();

  onDamaged(listener: DamageListener): () => void {
    return this.damage.add(listener);
  }

  /** A page's rows as records; a damaged row is skipped and reported (see pageOfRows). */
  readPage<Row extends { id: string; tenant: string; agent_id?: string }, T>(kind: RecordKind, rows: Row[], total: number, read: (row: Row) => T): Page<T> {
    return pageOfRows(kind, rows, total, read, this.damage);
  }

  constructor(options: PostgresServerStoreOptions = {}) {
    if (options.pool && options.url !== undefined) throw new ServerStoreError("pass either url or pool to PostgresServerStore, not both");
    try {
      this.tables = serverTables(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
      const target = options.pool ?? options.url ?? DEFAULT_POSTGRES_URL;
      this.server = describeTarget(target);
      this.pool = options.pool ?? openPool(target as string, options);
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw new ServerStoreError(error.message);
      throw error;
    }
    this.ownsPool = options.pool === undefined;
    this.location = `PostgreSQL at ${this.server} (schema ${this.tables.schema})${options.locationSuffix ?? ""}`;
    this.agents = new PostgresAgents(this);
    this.sessions = new PostgresSessions(this);
    this.keys = new PostgresKeys(this);
    this.uploads = new PostgresUploads(this);
    this.runs = new PostgresSnapshotStore({ pool: this.pool, schema: this.tables.schema });
    this.cancel = options.cancel ?? new PostgresCancelSignals({ pool: this.pool, schema: this.tables.schema });
  }

  async ping(): Promise<void> {
    await this.query("answering a ping", "SELECT 1", []);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.runs.close();
    await this.cancel.close();
    if (this.ownsPool) await this.pool.end();
  }

  /** One statement on a pooled connection, once the tables exist. */
  async query<R extends pg.QueryResultRow>(context: string, text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.transaction(context, (client) => client.query<R>(text, values), false);
  }

  /**
   * `work` on one pooled connection (in a transaction when `transactional`), once the tables exist.
   * Failures become ServerStoreErrors naming the server and `context`; a unique violation becomes a
   * UniqueViolation naming its constraint, for the caller to put into words.
   */
  async transaction<T>(context: string, work: (client: pg.PoolClient) => Promise<T>, transactional = true): Promise<T> {
    if (this.closed) throw new ServerStoreError(`${this.location}: the store is closed`);
    let client: pg.PoolClient;
    try {
      await this.ensureTables();
      client = await connectClient(this.pool, this.server);
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw new ServerStoreError(error.message);
      throw error;
    }
    // A connection that failed other than by an SQL error (lost, timed out) is not reused.
    let broken = false;
    try {
      if (!transactional) return await work(client);
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      if (transactional) await client.query("ROLLBACK").catch(() => (broken = true));
      if (error instanceof ServerStoreError) throw error;
      if (isSqlError(error) && error.code === "23505") throw new UniqueViolation(error.constraint ?? "", `${this.location}, ${context}: ${error.message}`);
      broken ||= !isSqlError(error);
      throw new ServerStoreError(postgresFailure(error, this.server, `${context} (schema ${this.tables.schema})`).message);
    } finally {
      client.release(broken);
    }
  }

  private async ensureTables(): Promise<void> {
    this.ready ??= ensureServerSchema(this.pool, this.tables, this.server).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
  }

  /** How a row is named in messages. */
  rowWhere(table: string, id: string): string {
    return `PostgreSQL at ${this.server}: table ${table}, row id ${JSON.stringify(id)}`;
  }
}

/** A bigint column as a number (pg returns it as text). */
function time(value: string): number | string {
  return /^\d{1,16}$/.test(value) ? Number(value) : value;
}

/** ORDER BY for a list query: the time asked for, ties by id, both in the same direction. */
function orderBy(query: ListQuery): string {
  const column = query.orderby === "create_time" ? "create_time" : "update_time";
  const direction = query.desc ? "DESC" : "ASC";
  return `ORDER BY ${column} ${direction}, id ${direction}`;
}

/** WHERE conditions of a list query's filters, appended to `conditions` with their values. */
function filters(query: ListQuery, textColumn: string, conditions: string[], values: unknown[]): void {
  const add = (condition: (n: string) => string, value: unknown) => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (query.id !== undefined) add((n) => `id = ${n}`, query.id);
  if (query.keywords) add((n) => `strpos(${textColumn}, ${n}) > 0`, query.keywords.toLowerCase());
  if (query.title) add((n) => `${textColumn} = ${n}`, query.title.toLowerCase());
  if (query.user_id !== undefined) add((n) => `user_id = ${n}`, query.user_id);
}

/**
 * A page and the total of all matching rows in one statement (`count(*) OVER ()`); a page past
 * the end has no row to carry the total, so only then is it counted on its own.
 */
async function listRows<R extends pg.QueryResultRow & { total?: string }>(store: PostgresServerStore, context: string, table: string, conditions: string[], values: unknown[], query: ListQuery): Promise<{ rows: R[]; total: number }> {
  const where = conditions.join(" AND ");
  const limit = Math.max(0, Math.floor(query.page_size));
  const offset = (Math.max(1, Math.floor(query.page)) - 1) * limit;
  const rows = (await store.query<R>(context, `SELECT *, count(*) OVER () AS total FROM ${table} WHERE ${where} ${orderBy(query)} LIMIT ${limit} OFFSET ${offset}`, values)).rows;
  if (rows.length > 0) return { rows, total: Number(rows[0].total) };
  const counted = await store.query<{ total: string }>(context, `SELECT count(*) AS total FROM ${table} WHERE ${where}`, values);
  return { rows, total: Number(counted.rows[0].total) };
}

class PostgresAgents implements AgentStore {
  private readonly table: string;
  private readonly shown: string;

  constructor(private readonly store: PostgresServerStore) {
    this.table = store.tables.sql.agents;
    this.shown = store.tables.shown.agents;
  }

  async create(agent: AgentRecord): Promise<AgentRecord> {
    checkNewRecord("agent", agent, this.store.location);
    try {
      await this.store.transaction(`creating agent ${agent.id}`, async (client) => {
        await client.query(
          `INSERT INTO ${this.table} (id, tenant, title, title_key, description, dsl, canvas_type, avatar, create_time, update_time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [agent.id, agent.tenant, agent.title, titleKey(agent.title), agent.description, JSON.stringify(agent.dsl), agent.canvas_type, agent.avatar, agent.create_time, agent.update_time],
        );
      }, false);
    } catch (error) {
      throw this.conflict(error, agent) ?? error;
    }
    return structuredClone(agent);
  }

  async get(tenant: string, id: string): Promise<AgentRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    const rows = (await this.store.query<AgentRow>(`reading agent ${id}`, `SELECT * FROM ${this.table} WHERE id = $1 AND tenant = $2`, [id, tenant])).rows;
    return rows[0] && this.record(rows[0]);
  }

  async list(tenant: string, query: ListQuery): Promise<Page<AgentRecord>> {
    if (query.id !== undefined && !isRecordId(query.id)) return { items: [], total: 0 };
    const values: unknown[] = [tenant];
    const conditions = ["tenant = $1"];
    filters(query, "title_key", conditions, values);
    const { rows, total } = await listRows<AgentRow>(this.store, `listing the agents of tenant ${JSON.stringify(tenant)}`, this.table, conditions, values, query);
    return this.store.readPage("agent", rows, total, (row) => this.record(row));
  }

  async update(tenant: string, id: string, patch: AgentPatch, now: number): Promise<AgentRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    let updated: AgentRecord | undefined;
    try {
      return await this.store.transaction(`updating agent ${id}`, async (client) => {
        const rows = (await client.query<AgentRow>(`SELECT * FROM ${this.table} WHERE id = $1 AND tenant = $2 FOR UPDATE`, [id, tenant])).rows;
        if (!rows[0]) return undefined;
        updated = patchedAgent(this.record(rows[0]), patch, now, this.store.location);
        await client.query(
          `UPDATE ${this.table} SET title = $3, title_key = $4, description = $5, dsl = $6, canvas_type = $7, avatar = $8, update_time = $9 WHERE id = $1 AND tenant = $2`,
          [id, tenant, updated.title, titleKey(updated.title), updated.description, JSON.stringify(updated.dsl), updated.canvas_type, updated.avatar, updated.update_time],
        );
        return updated;
      });
    } catch (error) {
      throw (updated && this.conflict(error, updated)) ?? error;
    }
  }

  async delete(tenant: string, id: string): Promise<boolean> {
    if (!isRecordId(id)) return false;
    // One statement: the agent and its session records go together or not at all.
    const result = await this.store.query<{ deleted: string }>(
      `deleting agent ${id}`,
      `WITH gone AS (DELETE FROM ${this.table} WHERE id = $1 AND tenant = $2 RETURNING id),
            records AS (DELETE FROM ${this.store.tables.sql.sessionRecords} WHERE tenant = $2 AND agent_id IN (SELECT id FROM gone))
       SELECT count(*) AS deleted FROM gone`,
      [id, tenant],
    );
    return Number(result.rows[0].deleted) > 0;
  }

  /** A unique violation as the error it stands for: a title the tenant has, or an id in use. */
  private conflict(error: unknown, agent: AgentRecord): Error | undefined {
    const constraint = uniqueViolation(error);
    if (constraint === "agents_tenant_title") return new DuplicateTitleError(agent.title);
    if (constraint === "agents_pkey") return new ServerStoreError(`${this.store.location}: agent ${agent.id} already exists`);
    return undefined;
  }

  private record(row: AgentRow): AgentRecord {
    return agentFromRow(row, this.store.rowWhere(this.shown, row.id), time);
  }
}

class PostgresSessions implements SessionRecordStore {
  private readonly table: string;
  private readonly shown: string;

  constructor(private readonly store: PostgresServerStore) {
    this.table = store.tables.sql.sessionRecords;
    this.shown = store.tables.shown.sessionRecords;
  }

  async create(record: SessionRecord): Promise<SessionRecord> {
    checkNewRecord("session record", record, this.store.location);
    try {
      await this.store.query(
        `creating session record ${record.id}`,
        `INSERT INTO ${this.table} (id, tenant, agent_id, user_id, name, name_key, message, source, create_time, update_time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [record.id, record.tenant, record.agent_id, record.user_id, record.name, record.name.toLowerCase(), JSON.stringify(record.message), record.source, record.create_time, record.update_time],
      );
    } catch (error) {
      if (uniqueViolation(error) === "session_records_pkey") throw new ServerStoreError(`${this.store.location}: session record ${record.id} already exists`);
      throw error;
    }
    return structuredClone(record);
  }

  async get(tenant: string, id: string): Promise<SessionRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    const rows = (await this.store.query<SessionRow>(`reading session record ${id}`, `SELECT * FROM ${this.table} WHERE id = $1 AND tenant = $2`, [id, tenant])).rows;
    return rows[0] && this.record(rows[0]);
  }

  async tenantOf(id: string): Promise<string | undefined> {
    if (!isRecordId(id)) return undefined;
    return (await this.store.query<{ tenant: string }>(`reading session record ${id}`, `SELECT tenant FROM ${this.table} WHERE id = $1`, [id])).rows[0]?.tenant;
  }

  async list(tenant: string, agentId: string, query: ListQuery): Promise<Page<SessionRecord>> {
    if (query.id !== undefined && !isRecordId(query.id)) return { items: [], total: 0 };
    const values: unknown[] = [tenant, agentId];
    const conditions = ["tenant = $1", "agent_id = $2"];
    filters(query, "name_key", conditions, values);
    const { rows, total } = await listRows<SessionRow>(this.store, `listing the session records of agent ${agentId}`, this.table, conditions, values, query);
    return this.store.readPage("session record", rows, total, (row) => this.record(row));
  }

  async update(tenant: string, id: string, patch: SessionPatch, now: number): Promise<SessionRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    return this.store.transaction(`updating session record ${id}`, async (client) => {
      const rows = (await client.query<SessionRow>(`SELECT * FROM ${this.table} WHERE id = $1 AND tenant = $2 FOR UPDATE`, [id, tenant])).rows;
      if (!rows[0]) return undefined;
      const updated = patchedSession(this.record(rows[0]), patch, now, this.store.location);
      await client.query(`UPDATE ${this.table} SET name = $3, name_key = $4, message = $5, update_time = $6 WHERE id = $1 AND tenant = $2`, [
        id,
        tenant,
        updated.name,
        updated.name.toLowerCase(),
        JSON.stringify(updated.message),
        updated.update_time,
      ]);
      return updated;
    });
  }

  async delete(tenant: string, ids: readonly string[]): Promise<string[]> {
    const wanted = [...new Set(ids)].filter(isRecordId);
    if (wanted.length === 0) return [];
    const rows = (await this.store.query<{ id: string }>(`deleting session records`, `DELETE FROM ${this.table} WHERE tenant = $1 AND id = ANY($2::text[]) RETURNING id`, [tenant, wanted])).rows;
    const deleted = new Set(rows.map((row) => row.id));
    return wanted.filter((id) => deleted.has(id));
  }

  private record(row: SessionRow): SessionRecord {
    return sessionFromRow(row, this.store.rowWhere(this.shown, row.id), time);
  }
}

/** Uploads: one row each, bytes included; a tenant's expired and surplus rows go when it uploads again, in the same transaction. */
class PostgresUploads implements UploadStore {
  private readonly table: string;

  constructor(private readonly store: PostgresServerStore) {
    this.table = store.tables.sql.uploads;
  }

  async put(record: UploadRecord, data: Buffer, limits: UploadLimits): Promise<void> {
    checkUpload(record, data, limits, this.store.location);
    await this.store.transaction(`keeping upload ${record.id}`, async (client) => {
      // One tenant's uploads at a time: two at once must not both keep past the limits.
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`${this.table}:${record.tenant}`]);
      await client.query(`INSERT INTO ${this.table} (id, tenant, record, data, size, create_time, expire_time) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        record.id,
        record.tenant,
        JSON.stringify(record),
        data,
        record.size,
        record.create_time,
        record.expire_time,
      ]);
      const own = await client.query<{ id: string; size: string; create_time: string; expire_time: string }>(`SELECT id, size, create_time, expire_time FROM ${this.table} WHERE tenant = $1`, [record.tenant]);
      const files = own.rows.map((r) => ({ id: r.id, size: Number(r.size), create_time: Number(r.create_time), expire_time: Number(r.expire_time) }));
      const drop = uploadsToDrop(files, limits, Date.now());
      if (drop.length > 0) await client.query(`DELETE FROM ${this.table} WHERE tenant = $1 AND id = ANY($2)`, [record.tenant, drop]);
    });
  }

  async get(tenant: string, id: string, now: number): Promise<{ record: UploadRecord; data: Buffer } | undefined> {
    if (!isUploadId(id)) return undefined;
    const found = await this.store.query<{ record: string; data: Buffer }>(`reading upload ${id}`, `SELECT record, data FROM ${this.table} WHERE id = $1 AND tenant = $2 AND expire_time > $3`, [id, tenant, now]);
    const row = found.rows[0];
    return row ? { record: JSON.parse(row.record) as UploadRecord, data: row.data } : undefined;
  }
}

class PostgresKeys implements ApiKeyStore {
  private readonly table: string;
  private readonly shown: string;

  constructor(private readonly store: PostgresServerStore) {
    this.table = store.tables.sql.apiKeys;
    this.shown = store.tables.shown.apiKeys;
  }

  async create(key: ApiKeyRecord): Promise<ApiKeyRecord> {
    checkNewRecord("API key", key, this.store.location);
    try {
      await this.store.query(`creating API key ${key.id}`, `INSERT INTO ${this.table} (id, tenant, name, hash, last4, create_time, revoked) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        key.id,
        key.tenant,
        key.name,
        key.hash,
        key.last4,
        key.create_time,
        key.revoked,
      ]);
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === "api_keys_pkey") throw new ServerStoreError(`${this.store.location}: API key ${key.id} already exists`);
      if (constraint === "api_keys_hash") throw new ServerStoreError(`${this.store.location}: another API key has this hash (table ${this.shown})`);
      throw error;
    }
    return structuredClone(key);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    if (!isKeyHash(hash)) return undefined;
    const rows = (await this.store.query<KeyRow>("looking up an API key", `SELECT * FROM ${this.table} WHERE hash = $1 AND NOT revoked`, [hash])).rows;
    // A key whose row cannot be read opens nothing (its holder gets 401; the log says why).
    return rows[0] && this.store.readPage("API key", rows.slice(0, 1), 1, (row) => this.record(row)).items[0];
  }

  async list(tenant?: string): Promise<ApiKeyRecord[]> {
    const rows =
      tenant === undefined
        ? (await this.store.query<KeyRow>("listing the API keys", `SELECT * FROM ${this.table} ORDER BY create_time, id`, [])).rows
        : (await this.store.query<KeyRow>("listing the API keys", `SELECT * FROM ${this.table} WHERE tenant = $1 ORDER BY create_time, id`, [tenant])).rows;
    // One damaged key must not stop `serve` (which counts the keys) nor hide the others.
    return this.store.readPage("API key", rows, rows.length, (row) => this.record(row)).items;
  }

  async revoke(id: string): Promise<boolean> {
    if (!isRecordId(id)) return false;
    const result = await this.store.query(`revoking API key ${id}`, `UPDATE ${this.table} SET revoked = true WHERE id = $1`, [id]);
    return (result.rowCount ?? 0) > 0;
  }

  private record(row: KeyRow): ApiKeyRecord {
    return checkStoredRecord<ApiKeyRecord>(
      "API key",
      { id: row.id, tenant: row.tenant, name: row.name, hash: row.hash, last4: row.last4, create_time: time(row.create_time), revoked: row.revoked },
      this.store.rowWhere(this.shown, row.id),
    );
  }
}

/** An insert or update refused by a unique index (SQLSTATE 23505); its message is PostgreSQL's. */
class UniqueViolation extends ServerStoreError {
  constructor(
    readonly constraint: string,
    message: string,
  ) {
    super(message);
  }
}

/** The unique constraint an error says was violated, if that is what it is. */
function uniqueViolation(error: unknown): string | undefined {
  return error instanceof UniqueViolation ? error.constraint : undefined;
}
