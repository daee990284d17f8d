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
 * `openCancelSignals` reads the same kinds of places for cancel requests: a Redis URL, a
 * PostgreSQL URL (with its `schema`), or a folder.
 */
import { FileCancelSignals } from "./file-cancel.js";
import { FileSnapshotStore, type FileSnapshotStoreOptions } from "./file-store.js";
import { PostgresCancelSignals } from "./postgres-cancel.js";
import { PostgresSnapshotStore, type PostgresSnapshotStoreOptions } from "./postgres-store.js";
import { RedisCancelSignals, type RedisCancelSignalsOptions } from "./redis-cancel.js";
import { RedisSnapshotStore, type RedisSnapshotStoreOptions } from "./redis-store.js";
import { CancelSignalError } from "../backends/errors.js";
import type { CancelSignals } from "../backends/contracts.js";
import { checkKey } from "../backends/shared/sessions.js";
import { SnapshotKeyError } from "../backends/errors.js";
import type { CheckpointStore } from "../backends/contracts.js";

export type SessionBackend = "file" | "redis" | "postgres";

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
}

const REDIS_URL = /^rediss?:\/\//i;
const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const ANY_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

export function openSnapshotStore(location: string, options: OpenSnapshotStoreOptions = {}): OpenedSnapshotStore {
  if (typeof location !== "string" || location === "") throw new SnapshotKeyError("a session location must be a file path, a redis:// or a postgres:// URL, got an empty value");
  if (REDIS_URL.test(location)) return openRedis(location, options);
  if (POSTGRES_URL.test(location)) return openPostgres(location, options);
  if (ANY_URL.test(location)) {
    throw new SnapshotKeyError(`unsupported session location "${location}": use a file path or redis://host:port[/db]#key or postgres://user@host:port/db#key`);
  }
  return { store: new FileSnapshotStore({ ...options.file }), key: checkKey(location), location, backend: "file" };
}

/** A URL as given, and as shown (password masked). */
function parseUrl(location: string, what: string): { url: URL; shown: (url: URL) => string } {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new SnapshotKeyError(`${what} "${location.replace(/\/\/[^@/]*@/, "//***@")}" is not a valid URL`);
  }
  return {
    url,
    shown: (u) => {
      const copy = new URL(u.toString());
      if (copy.password) copy.password = "***";
      return copy.toString();
    },
  };
}

/** A store URL with the session key in its fragment: the key, the URL to show (password masked) and the server's URL (no fragment). */
function splitSessionUrl(location: string, example: string): { url: URL; key: string; shown: string; server: URL } {
  const { url, shown: show } = parseUrl(location, "session location");
  const shown = show(url);
  let key: string;
  try {
    key = decodeURIComponent(url.hash.slice(1));
  } catch {
    throw new SnapshotKeyError(`${shown}: the session key after "#" is not valid percent-encoding`);
  }
  if (key === "") throw new SnapshotKeyError(`${shown} names no session: put its key after "#", e.g. ${example}#my-session`);
  checkKey(key);
  // Connect with the URL as given (credentials included), minus the fragment.
  const server = new URL(location);
  server.hash = "";
  return { url, key, shown, server };
}

function openRedis(location: string, options: OpenSnapshotStoreOptions): OpenedSnapshotStore {
  const { url, key, shown, server } = splitSessionUrl(location, "redis://127.0.0.1:6379/0");
  checkRedisPath(url, shown);
  const store = new RedisSnapshotStore({ ...options.redis, url: server.toString(), keyPrefix: options.keyPrefix ?? options.redis?.keyPrefix, ttlSeconds: options.ttlSeconds ?? options.redis?.ttlSeconds });
  return { store, key, location: shown, backend: "redis", server: server.toString(), shownServer: parseUrl(server.toString(), "").shown(server) };
}

function checkRedisPath(url: URL, shown: string): void {
  if (url.pathname !== "" && url.pathname !== "/" && !/^\/\d+$/.test(url.pathname)) {
    throw new SnapshotKeyError(`${shown}: the path must be a database number such as /0, got "${url.pathname}"`);
  }
}

function openPostgres(location: string, options: OpenSnapshotStoreOptions): OpenedSnapshotStore {
  const { url, key, shown, server } = splitSessionUrl(location, "postgres://user@127.0.0.1:5432/mydb");
  if (url.pathname === "" || url.pathname === "/") {
    throw new SnapshotKeyError(`${shown} names no database: put it in the path, e.g. postgres://user@127.0.0.1:5432/mydb#${url.hash.slice(1)}`);
  }
  const { connection, schema } = postgresTarget(server, shown, options.schema ?? options.postgres?.schema);
  const store = new PostgresSnapshotStore({ ...options.postgres, url: connection, ttlSeconds: options.ttlSeconds ?? options.postgres?.ttlSeconds, schema });
  // The server as the cancel signals need it: the same schema, said in the URL.
  const withSchema = new URL(connection);
  if (schema !== undefined) withSchema.searchParams.set("schema", schema);
  return { store, key, location: shown, backend: "postgres", server: withSchema.toString(), shownServer: parseUrl(withSchema.toString(), "").shown(withSchema) };
}

/** A PostgreSQL URL's connection string (without `schema`) and the schema it names, if any. */
function postgresTarget(url: URL, shown: string, optionSchema: string | undefined): { connection: string; schema: string | undefined } {
  const inUrl = url.searchParams.get("schema") ?? undefined;
  if (inUrl !== undefined && optionSchema !== undefined && inUrl !== optionSchema) {
    throw new SnapshotKeyError(`${shown} names schema "${inUrl}", but schema "${optionSchema}" was also given: name it once`);
  }
  const connection = new URL(url.toString());
  connection.searchParams.delete("schema");
  return { connection: connection.toString(), schema: inUrl ?? optionSchema };
}

/** A PostgreSQL server named by a URL (`?schema=NAME` allowed, a `#fragment` ignored). */
export interface PostgresServer {
  /** The URL to connect to: credentials kept, without `schema` and fragment. */
  connection: string;
  /** The schema from the URL or `schema`, if either names one. */
  schema: string | undefined;
  /** `host:port/database` style URL for messages: password masked, no query or fragment. */
  shown: string;
}

export function postgresServer(location: string, schema?: string): PostgresServer {
  if (!POSTGRES_URL.test(location)) throw new SnapshotKeyError(`expected a postgres:// URL, got "${location.replace(/\/\/[^@/]*@/, "//***@")}"`);
  const { url, shown } = parseUrl(location, "PostgreSQL URL");
  url.hash = "";
  const bare = new URL(url.toString());
  bare.search = "";
  const target = postgresTarget(url, shown(bare), schema);
  return { ...target, shown: shown(bare) };
}

/** Where cancel requests go and are heard: Redis, PostgreSQL or a folder of flag files. */
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
  if (typeof location !== "string" || location === "") throw new CancelSignalError("cancel signals need a redis:// or postgres:// URL or a folder, got an empty value");
  if (options.redis !== undefined && !REDIS_URL.test(location)) throw new CancelSignalError(`the redis option (a key prefix and channel) needs a redis:// URL, got ${POSTGRES_URL.test(location) ? "a postgres:// URL" : "a folder"}`);
  if (REDIS_URL.test(location) || POSTGRES_URL.test(location)) {
    let parsed: { url: URL; shown: (url: URL) => string };
    try {
      parsed = parseUrl(location, "cancel signals URL");
    } catch (error) {
      throw new CancelSignalError((error as Error).message);
    }
    const { url, shown } = parsed;
    url.hash = "";
    if (REDIS_URL.test(location)) {
      try {
        checkRedisPath(url, shown(url));
      } catch (error) {
        throw new CancelSignalError((error as Error).message);
      }
      return new RedisCancelSignals({ ...options.redis, url: url.toString() });
    }
    let target: PostgresServer;
    try {
      target = postgresServer(location, options.schema);
    } catch (error) {
      throw new CancelSignalError((error as Error).message);
    }
    return new PostgresCancelSignals({ url: target.connection, schema: target.schema });
  }
  if (ANY_URL.test(location)) throw new CancelSignalError(`unsupported cancel signals location "${location}": use redis://host:port[/db], postgres://user@host:port/db or a folder`);
  return new FileCancelSignals({ directory: location });
}
