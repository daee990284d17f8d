/**
 * One string names where a session lives, as the CLI's `--session` takes it:
 * - a file path: the session file itself (`FileSnapshotStore`, the key is the path);
 * - `redis://[user:password@]host:port[/db]#key` (or `rediss://` for TLS): the session `key` in
 *   Redis. The key goes in the `#fragment` because the fragment is never part of the connection,
 *   so the rest of the URL stays what ioredis and redis-cli understand.
 * - `postgres://[user[:password]@]host[:port]/database[?schema=NAME]#key` (or `postgresql://`):
 *   the session `key` in PostgreSQL, in the same way (the URL minus its fragment and `schema` is
 *   what `pg` and psql understand). `schema` names the schema of the tables (default `canvasflow`).
 *
 * - `sqlite:PATH#key`: the session `key` in the SQLite database file PATH.
 *
 * `openCancelSignals` reads the same kinds of places for cancel requests: a Redis URL, a
 * PostgreSQL URL (with its `schema`), a SQLite database (`sqlite:PATH`), or a folder.
 */
import { FileCancelSignals } from "./files/cancel.js";
import { FileSnapshotStore, type FileSnapshotStoreOptions } from "./files/session-store.js";
import { PostgresCancelSignals } from "./postgres/cancel.js";
import { PostgresSnapshotStore, type PostgresSnapshotStoreOptions } from "./postgres/session-store.js";
import { RedisCancelSignals, type RedisCancelSignalsOptions } from "./redis/cancel.js";
import { RedisSnapshotStore, type RedisSnapshotStoreOptions } from "./redis/session-store.js";
import { SqliteCancelSignals } from "./sqlite/cancel.js";
import { SqliteSnapshotStore, type SqliteSnapshotStoreOptions } from "./sqlite/session-store.js";
import { checkKey } from "./shared/sessions.js";
import { checkRedisPath, locationKind, parseUrl, postgresServer, postgresTarget, shownUrl, splitSessionUrl, splitSqliteLocation } from "./location.js";
import { CancelSignalError, SnapshotKeyError } from "./errors.js";
import type { CancelSignals, CheckpointStore } from "./contracts.js";

export type SessionBackend = "file" | "redis" | "postgres" | "sqlite";

export interface OpenedSnapshotStore {
  store: CheckpointStore;
  /** The session's key in `store`. */
  key: string;
  /** The location for messages, with any password masked. */
  location: string;
  backend: SessionBackend;
  /**
   * Redis and PostgreSQL: the server's URL without the session key (with its credentials and, for
   * PostgreSQL, `?schema=`), for the cancel signals of the same server. Never show it: `shownServer` is for messages.
   */
  server?: string;
  /** `server` with any password masked. */
  shownServer?: string;
}

export interface OpenSnapshotStoreOptions {
  /** Redis only: the key prefix (default `canvasflow:session:`). */
  keyPrefix?: string;
  /** Redis and PostgreSQL: expiry for every save (default: none). */
  ttlSeconds?: number;
  /** PostgreSQL only: the schema of the tables (default `canvasflow`, or the URL's `?schema=`). */
  schema?: string;
  /** More options for a file store (`sync: true` fsyncs every write). */
  file?: Omit<FileSnapshotStoreOptions, "directory" | "extension">;
  /** More options for a Redis store. */
  redis?: Omit<RedisSnapshotStoreOptions, "url" | "client">;
  /** More options for a PostgreSQL store. */
  postgres?: Omit<PostgresSnapshotStoreOptions, "url" | "pool">;
  /** More options for a SQLite store. */
  sqlite?: Omit<SqliteSnapshotStoreOptions, "file">;
}

export function openSnapshotStore(location: string, options: OpenSnapshotStoreOptions = {}): OpenedSnapshotStore {
  if (typeof location !== "string" || location === "") throw new SnapshotKeyError("a session location must be a file path, a redis:// or a postgres:// URL, got an empty value");
  const kind = locationKind(location);
  if (kind === "redis") return openRedis(location, options);
  if (kind === "postgres") return openPostgres(location, options);
  if (kind === "sqlite") return openSqlite(location, options);
  if (kind === "url") {
    throw new SnapshotKeyError(`unsupported session location "${location}": use a file path or redis://host:port[/db]#key or postgres://user@host:port/db#key`);
  }
  return { store: new FileSnapshotStore({ ...options.file }), key: checkKey(location), location, backend: "file" };
}

function openRedis(location: string, options: OpenSnapshotStoreOptions): OpenedSnapshotStore {
  const { url, key, shown, server } = splitSessionUrl(location, "redis://127.0.0.1:6379/0", checkKey);
  checkRedisPath(url, shown);
  const store = new RedisSnapshotStore({ ...options.redis, url: server.toString(), keyPrefix: options.keyPrefix ?? options.redis?.keyPrefix, ttlSeconds: options.ttlSeconds ?? options.redis?.ttlSeconds });
  return { store, key, location: shown, backend: "redis", server: server.toString(), shownServer: shownUrl(server) };
}

function openPostgres(location: string, options: OpenSnapshotStoreOptions): OpenedSnapshotStore {
  const { url, key, shown, server } = splitSessionUrl(location, "postgres://user@127.0.0.1:5432/mydb", checkKey);
  if (url.pathname === "" || url.pathname === "/") {
    throw new SnapshotKeyError(`${shown} names no database: put it in the path, e.g. postgres://user@127.0.0.1:5432/mydb#${url.hash.slice(1)}`);
  }
  const { connection, schema } = postgresTarget(server, shown, options.schema ?? options.postgres?.schema);
  const store = new PostgresSnapshotStore({ ...options.postgres, url: connection, ttlSeconds: options.ttlSeconds ?? options.postgres?.ttlSeconds, schema });
  // The server as the cancel signals need it: the same schema, said in the URL.
  const withSchema = new URL(connection);
  if (schema !== undefined) withSchema.searchParams.set("schema", schema);
  return { store, key, location: shown, backend: "postgres", server: withSchema.toString(), shownServer: shownUrl(withSchema) };
}

function openSqlite(location: string, options: OpenSnapshotStoreOptions): OpenedSnapshotStore {
  const { file, key } = splitSqliteLocation(location);
  if (key === undefined || key === "") throw new SnapshotKeyError(`${location} names no session: add its key after "#", e.g. sqlite:${file}#chat-1`);
  const store = new SqliteSnapshotStore({ ...options.sqlite, file, ttlSeconds: options.ttlSeconds ?? options.sqlite?.ttlSeconds });
  return { store, key: checkKey(key), location, backend: "sqlite", server: `sqlite:${file}`, shownServer: file };
}

/** Where cancel requests go and are heard: Redis, PostgreSQL, SQLite or a folder of flag files. */
export interface OpenCancelSignalsOptions {
  /** PostgreSQL: the schema of the flags table (default `canvasflow`, or the URL's `?schema=`). */
  schema?: string;
  /**
   * Redis only: where the flags and the channel are (default RAGFlow's `{task_id}-cancel` keys and
   * `canvasflow:cancel`); a server's under its prefix are `serverCancelLayout(prefix)`.
   */
  redis?: Pick<RedisCancelSignalsOptions, "keyPrefix" | "channel">;
}

/**
 * Cancel signals at `location`: `redis://…` (RedisCancelSignals), `postgres://…[?schema=NAME]`
 * (PostgresCancelSignals) or a folder path (FileCancelSignals). A `#fragment` is ignored, so a
 * session's URL works as well.
 */
export function openCancelSignals(location: string, options: OpenCancelSignalsOptions = {}): CancelSignals {
  if (typeof location !== "string" || location === "") throw new CancelSignalError("cancel signals need a redis:// or postgres:// URL, a sqlite:FILE or a folder, got an empty value");
  const kind = locationKind(location);
  if (options.redis !== undefined && kind !== "redis") throw new CancelSignalError(`the redis option (a key prefix and channel) needs a redis:// URL, got ${kind === "postgres" ? "a postgres:// URL" : "a folder"}`);
  const fail = (message: string) => new CancelSignalError(message);
  if (kind === "redis" || kind === "postgres") {
    const url = parseUrl(location, "cancel signals URL", fail);
    url.hash = "";
    if (kind === "redis") {
      checkRedisPath(url, shownUrl(url), fail);
      return new RedisCancelSignals({ ...options.redis, url: url.toString() });
    }
    const target = postgresServer(location, options.schema, fail);
    return new PostgresCancelSignals({ url: target.connection, schema: target.schema });
  }
  if (kind === "sqlite") return new SqliteCancelSignals({ file: splitSqliteLocation(location, fail).file });
  if (kind === "url") throw new CancelSignalError(`unsupported cancel signals location "${location}": use redis://host:port[/db], postgres://user@host:port/db, sqlite:PATH or a folder`);
  return new FileCancelSignals({ directory: location });
}
