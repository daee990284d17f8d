/**
 * Connections to PostgreSQL for the stores: a pool with bounded timeouts (a store must fail with
 * a clear error, never hang, when the server is gone), where the server is for messages, and one
 * pooled connection per operation.
 */
import type pg from "pg";
import { pgDriver } from "../drivers.js";
import { SnapshotStoreError } from "../errors.js";

export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface PostgresConnectionOptions {
  /** How long to wait for a connection (default 5000 ms). */
  connectionTimeoutMillis?: number;
  /** How long one statement may run, on the server and on the wire (default 10 000 ms). */
  statementTimeoutMs?: number;
  /** Extra `pg.Pool` options for a pool made from a URL (max connections, ssl, …). */
  poolOptions?: pg.PoolConfig;
}

/** Where to connect: a `postgres://` URL (the store owns that pool), or a pool or client you own. */
export type PostgresTarget = string | pg.Pool | pg.Client;

export const DEFAULT_CONNECTION_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/** A pool for `url` whose connects and statements are bounded. */
export function openPool(url: string, options: PostgresConnectionOptions = {}): pg.Pool {
  const connectMs = positiveMs("connectionTimeoutMillis", options.connectionTimeoutMillis ?? DEFAULT_CONNECTION_TIMEOUT_MS);
  const statementMs = positiveMs("statementTimeoutMs", options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  const pool = new (pgDriver().Pool)({
    connectionString: url,
    connectionTimeoutMillis: connectMs,
    // The server cancels a statement that runs too long; the client gives up a little later on a
    // server that stopped answering altogether. A transaction left open by a frozen process is
    // ended by the server too.
    statement_timeout: statementMs,
    query_timeout: statementMs + 2_000,
    idle_in_transaction_session_timeout: statementMs * 3,
    application_name: "canvasflow",
    // Notice a peer that vanished without closing (a listening connection would wait forever).
    keepAlive: true,
    ...options.poolOptions,
  });
  // An idle connection the server closed (a restart) must not crash the process: the next
  // operation gets a new connection, or a clear error.
  pool.on("error", () => undefined);
  return pool;
}

function positiveMs(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw new SnapshotStoreError(`${name} must be a positive whole number of milliseconds, got ${String(value)}`);
  }
  return value;
}

/** `host:port/database` of a target, without credentials, for messages. */
export function describeTarget(target: PostgresTarget): string {
  if (typeof target === "string") return describeUrl(target);
  if (target instanceof pgDriver().Client) return hostPortDb(target.host, target.port, target.database, target.user);
  const options = target.options as pg.PoolConfig;
  if (options.connectionString) return describeUrl(options.connectionString);
  return hostPortDb(options.host, options.port, options.database, options.user);
}

function describeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SnapshotStoreError(`PostgreSQL URL ${JSON.stringify(url.replace(/\/\/[^@/]*@/, "//***@"))} is not a valid URL (expected postgres://user@host:port/database)`);
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new SnapshotStoreError(`PostgreSQL URL must start with postgres:// or postgresql://, got ${parsed.protocol}//…`);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  return hostPortDb(parsed.hostname || undefined, parsed.port || undefined, database || undefined, decodeURIComponent(parsed.username) || undefined);
}

function hostPortDb(host: string | undefined, port: string | number | undefined, database: string | undefined, user: string | undefined): string {
  const env = process.env;
  const shownHost = host ?? env.PGHOST ?? "localhost";
  const shownPort = port ?? env.PGPORT ?? 5432;
  // As libpq: the database defaults to the user's name.
  const shownDb = database ?? env.PGDATABASE ?? user ?? env.PGUSER ?? env.USER ?? "postgres";
  return `${shownHost}:${shownPort}/${shownDb}`;
}

/** A connection from the pool, or a clear error naming the server. */
export async function connectClient(pool: pg.Pool, where: string): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw new SnapshotStoreError(`cannot reach PostgreSQL at ${where}: ${errorText(error)}`);
  }
}

/**
 * Run `work` on one pooled connection. A connection that failed other than by an SQL error (lost,
 * timed out) is dropped from the pool rather than reused. Errors become SnapshotStoreErrors that
 * name the server and `context` (the session, the task).
 */
export async function withClient<T>(pool: pg.Pool, where: string, context: string, key: string | undefined, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await connectClient(pool, where);
  let broken = false;
  try {
    return await work(client);
  } catch (error) {
    if (error instanceof SnapshotStoreError) throw error;
    broken = !isSqlError(error);
    throw postgresFailure(error, where, context, key);
  } finally {
    client.release(broken);
  }
}

/** An error the server reported for a statement (it has an SQLSTATE), as opposed to a lost connection. */
export function isSqlError(error: unknown): error is pg.DatabaseError {
  return error instanceof pgDriver().DatabaseError;
}

export function postgresFailure(error: unknown, where: string, context: string, key?: string): SnapshotStoreError {
  if (isSqlError(error)) {
    return new SnapshotStoreError(`PostgreSQL at ${where}, ${context}: ${error.message}${error.code ? ` (SQLSTATE ${error.code})` : ""}`, key);
  }
  return new SnapshotStoreError(`lost the connection to PostgreSQL at ${where} (${context}): ${errorText(error)}`, key);
}

/** An error's message; Node's AggregateError (several addresses tried) has none of its own. */
export function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.message === "") return error.errors.map((e: unknown) => errorText(e)).join("; ");
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}
