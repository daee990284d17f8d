/**
 * Cancel signals through PostgreSQL, for deployments whose processes share a database but no
 * Redis. A request is a row of `<schema>.cancel_flags` (task id, expiry) and a
 * `NOTIFY <schema>_cancel, '<task id>'`, written in one statement, so the notice goes out when the
 * flag is committed. Each instance keeps one dedicated connection that LISTENs for all of its
 * watches; a watch checks the flag once listening has begun, so a request made just before is not
 * missed. When that connection is lost, it is made again and the watched flags are checked anew.
 */
import type pg from "pg";
import { pgDriver } from "../drivers.js";
import { CancelSignalError, SnapshotStoreError } from "../errors.js";
import { CancelWatchers, checkTaskId, cancelTtlSeconds } from "../shared/cancel.js";
import type { CancelSignals, WatchOptions } from "../contracts.js";
import { DEFAULT_POSTGRES_URL, describeTarget, errorText, isSqlError, openPool, type PostgresConnectionOptions } from "./connection.js";
import { DEFAULT_POSTGRES_SCHEMA, ensureSchema, postgresTables, type PostgresTables } from "./session-schema.js";

export interface PostgresCancelSignalsOptions extends PostgresConnectionOptions {
  /** Where PostgreSQL is (default `postgres://postgres@127.0.0.1:5432/postgres`); the signals own this pool. */
  url?: string;
  /** Or a pool you own: `close()` leaves it open (the listening connection is taken from it). */
  pool?: pg.Pool;
  /** The schema of the flags table (default `canvasflow`); the channel is `<schema>_cancel`. */
  schema?: string;
}

/** The first wait before making a lost listening connection again; it doubles up to the second. */
const RECONNECT_MS = [100, 5_000] as const;

export class PostgresCancelSignals implements CancelSignals {
  readonly pool: pg.Pool;
  readonly tables: PostgresTables;
  /** `host:port/database`, for messages. */
  readonly location: string;
  private readonly ownsPool: boolean;
  private readonly watchers = new CancelWatchers();
  private listener: Promise<pg.PoolClient> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectMs: number = RECONNECT_MS[0];
  private ready: Promise<void> | undefined;
  private closed = false;
  private readonly sql: { request: string; isRequested: string; clear: string; requested: string };

  constructor(options: PostgresCancelSignalsOptions = {}) {
    if (options.pool && options.url !== undefined) throw new CancelSignalError("pass either url or pool to PostgresCancelSignals, not both");
    try {
      this.tables = postgresTables(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
      const target = options.pool ?? options.url ?? DEFAULT_POSTGRES_URL;
      this.location = describeTarget(target);
      this.pool = options.pool ?? openPool(target as string, options);
    } catch (error) {
      throw new CancelSignalError((error as Error).message);
    }
    this.ownsPool = options.pool === undefined;
    const flags = this.tables.sql.cancelFlags;
    this.sql = {
      // One statement: the notice is sent when the flag is committed, never before.
      request: `WITH flag AS (
          INSERT INTO ${flags} (task_id, expires_at) VALUES ($1, now() + $2::float8 * interval '1 millisecond')
          ON CONFLICT (task_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
          RETURNING task_id
        )
        SELECT pg_notify($3, task_id) FROM flag`,
      // An expired flag is deleted as it is found.
      isRequested: `WITH expired AS (DELETE FROM ${flags} WHERE task_id = $1 AND expires_at <= now())
        SELECT EXISTS (SELECT 1 FROM ${flags} WHERE task_id = $1 AND expires_at > now()) AS requested`,
      clear: `DELETE FROM ${flags} WHERE task_id = $1`,
      requested: `SELECT task_id FROM ${flags} WHERE task_id = ANY($1::text[]) AND expires_at > now()`,
    };
  }

  async request(taskId: string, options: { ttlSeconds?: number } = {}): Promise<void> {
    checkTaskId(taskId);
    const ttlSeconds = cancelTtlSeconds(options);
    await this.query(taskId, this.sql.request, [taskId, ttlSeconds * 1000, this.tables.cancelChannel]);
  }

  async isRequested(taskId: string): Promise<boolean> {
    checkTaskId(taskId);
    const rows = await this.query<{ requested: boolean }>(taskId, this.sql.isRequested, [taskId]);
    return rows[0].requested;
  }

  async watch(taskId: string, onCancel: () => void, options: WatchOptions = {}): Promise<() => Promise<void>> {
    checkTaskId(taskId);
    this.checkOpen();
    const stop = this.watchers.add(taskId, onCancel);
    try {
      await this.listening();
      // Listening now: a request from before is in the table, one from after comes as a notice.
      if (!options.unseen && (await this.isRequested(taskId))) this.watchers.cancelled(taskId);
    } catch (error) {
      stop();
      throw error;
    }
    return async () => stop();
  }

  async clear(taskId: string): Promise<void> {
    checkTaskId(taskId);
    await this.query(taskId, this.sql.clear, [taskId]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watchers.clear();
    clearTimeout(this.reconnectTimer);
    const listener = await this.listener?.catch(() => undefined);
    this.listener = undefined;
    // Destroyed rather than returned to the pool: it is still LISTENing.
    listener?.release(true);
    if (this.ownsPool) await this.pool.end().catch(() => undefined);
  }

  /** The listening connection, made (and LISTENing) on first need. */
  private listening(): Promise<pg.PoolClient> {
    this.listener ??= this.listen().catch((error: unknown) => {
      this.listener = undefined;
      throw error;
    });
    return this.listener;
  }

  private async listen(): Promise<pg.PoolClient> {
    await this.schemaReady();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw new CancelSignalError(`cannot reach PostgreSQL at ${this.location} to listen for cancel requests: ${errorText(error)}`);
    }
    const lost = () => this.lost(client);
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message: pg.Notification) => {
      if (message.channel !== this.tables.cancelChannel || message.payload === undefined) return;
      this.watchers.cancelled(message.payload);
    });
    try {
      await client.query(`LISTEN ${pgDriver().escapeIdentifier(this.tables.cancelChannel)}`);
    } catch (error) {
      client.release(true);
      throw new CancelSignalError(`PostgreSQL at ${this.location}: cannot listen on channel ${this.tables.cancelChannel}: ${errorText(error)}`);
    }
    this.reconnectMs = RECONNECT_MS[0];
    return client;
  }

  /** The listening connection broke: drop it, and listen again while anyone watches. */
  private lost(client: pg.PoolClient): void {
    void this.listener?.then((current) => {
      if (current !== client) return;
      this.listener = undefined;
      client.release(true);
      this.scheduleReconnect();
    }, () => undefined);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer || this.watchers.size === 0) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.relisten();
    }, this.reconnectMs);
    // A watch that nobody will ever cancel must not keep the process alive.
    this.reconnectTimer.unref();
  }

  /** Listen again and catch up on the requests made while nobody listened. */
  private async relisten(): Promise<void> {
    if (this.closed || this.watchers.size === 0) return;
    try {
      await this.listening();
      const tasks = this.watchers.tasks();
      const rows = await this.query<{ task_id: string }>(tasks[0], this.sql.requested, [tasks]);
      for (const { task_id: task } of rows) this.watchers.cancelled(task);
    } catch {
      this.reconnectMs = Math.min(this.reconnectMs * 2, RECONNECT_MS[1]);
      this.scheduleReconnect();
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new CancelSignalError("the cancel signals are closed");
  }

  private async query<T extends pg.QueryResultRow>(taskId: string, text: string, values: unknown[]): Promise<T[]> {
    this.checkOpen();
    try {
      await this.schemaReady();
      return (await this.pool.query<T>(text, values)).rows;
    } catch (error) {
      if (error instanceof CancelSignalError) throw error;
      const flag = `the cancel flag of task ${JSON.stringify(taskId)}`;
      if (isSqlError(error)) throw new CancelSignalError(`PostgreSQL at ${this.location}, ${flag}: ${error.message}`);
      throw new CancelSignalError(`cannot reach PostgreSQL at ${this.location} (${flag}): ${errorText(error)}`);
    }
  }

  private schemaReady(): Promise<void> {
    this.ready ??= ensureSchema(this.pool, this.tables, this.location).catch((error: unknown) => {
      this.ready = undefined;
      throw error instanceof SnapshotStoreError ? new CancelSignalError(error.message) : error;
    });
    return this.ready;
  }
}
