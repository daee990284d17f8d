/**
 * One string names where a session lives, as the CLI's `--session` takes it:
 * - a file path: the session file itself (`FileSnapshotStore`, the key is the path);
 * - `redis://[user:password@]host:port[/db]#key` (or `rediss://` for TLS): the session `key` in
 *   Redis. The key goes in the `#fragment` because the fragment is never part of the connection,
 *   so the rest of the URL stays what ioredis and redis-cli understand.
 * - `postgres://[user[:password]@]host[:port]/database#key` (or `postgresql://`): the session `key`
 *   in PostgreSQL, in the same way (the URL minus its fragment is what `pg` and psql understand).
 */
import { FileSnapshotStore } from "./file-store.js";
import { PostgresSnapshotStore } from "./postgres-store.js";
import { RedisSnapshotStore } from "./redis-store.js";
import { checkKey, SnapshotKeyError, type SnapshotStore } from "./snapshot-store.js";

export interface OpenedSnapshotStore {
  store: SnapshotStore;
  /** The session's key in `store`. */
  key: string;
  /** The location for messages, with any password masked. */
  location: string;
}

export interface OpenSnapshotStoreOptions {
  /** Redis only: the key prefix (default `canvasflow:session:`). */
  keyPrefix?: string;
  /** Redis and PostgreSQL: expiry for every save (default: none). */
  ttlSeconds?: number;
  /** PostgreSQL only: the schema of the tables (default `canvasflow`). */
  schema?: string;
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
  return { store: new FileSnapshotStore(), key: checkKey(location), location };
}

/** A store URL with the session key in its fragment: the key, the URL to show (password masked) and the URL to connect to (no fragment). */
function splitSessionUrl(location: string, example: string): { url: URL; key: string; shown: string; connection: string } {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new SnapshotKeyError(`session location "${location}" is not a valid URL`);
  }
  if (url.password) url.password = "***";
  const shown = url.toString();
  let key: string;
  try {
    key = decodeURIComponent(url.hash.slice(1));
  } catch {
    throw new SnapshotKeyError(`${shown}: the session key after "#" is not valid percent-encoding`);
  }
  if (key === "") throw new SnapshotKeyError(`${shown} names no session: put its key after "#", e.g. ${example}#my-session`);
  checkKey(key);
  // Connect with the URL as given (credentials included), minus the fragment.
  const connection = new URL(location);
  connection.hash = "";
  return { url, key, shown, connection: connection.toString() };
}

function openRedis(location: string, options: OpenSnapshotStoreOptions): OpenedSnapshotStore {
  const { url, key, shown, connection } = splitSessionUrl(location, "redis://127.0.0.1:6379/0");
  if (url.pathname !== "" && url.pathname !== "/" && !/^\/\d+$/.test(url.pathname)) {
    throw new SnapshotKeyError(`${shown}: the path must be a database number such as /0, got "${url.pathname}"`);
  }
  const store = new RedisSnapshotStore({ url: connection, keyPrefix: options.keyPrefix, ttlSeconds: options.ttlSeconds });
  return { store, key, location: shown };
}

function openPostgres(location: string, options: OpenSnapshotStoreOptions): OpenedSnapshotStore {
  const { url, key, shown, connection } = splitSessionUrl(location, "postgres://user@127.0.0.1:5432/mydb");
  if (url.pathname === "" || url.pathname === "/") {
    throw new SnapshotKeyError(`${shown} names no database: put it in the path, e.g. postgres://user@127.0.0.1:5432/mydb#${url.hash.slice(1)}`);
  }
  const store = new PostgresSnapshotStore({ url: connection, ttlSeconds: options.ttlSeconds, schema: options.schema });
  return { store, key, location: shown };
}
