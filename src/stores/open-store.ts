/**
 * One string names where a session lives, as the CLI's `--session` takes it:
 * - a file path: the session file itself (`FileSnapshotStore`, the key is the path);
 * - `redis://[user:password@]host:port[/db]#key` (or `rediss://` for TLS): the session `key` in
 *   Redis. The key goes in the `#fragment` because the fragment is never part of the connection,
 *   so the rest of the URL stays what ioredis and redis-cli understand.
 */
import { FileSnapshotStore } from "./file-store.js";
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
  /** Redis only: expiry for every save (default: none). */
  ttlSeconds?: number;
}

const REDIS_URL = /^rediss?:\/\//i;
const ANY_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

export function openSnapshotStore(location: string, options: OpenSnapshotStoreOptions = {}): OpenedSnapshotStore {
  if (typeof location !== "string" || location === "") throw new SnapshotKeyError("a session location must be a file path or a redis:// URL, got an empty value");
  if (REDIS_URL.test(location)) return openRedis(location, options);
  if (ANY_URL.test(location)) {
    throw new SnapshotKeyError(`unsupported session location "${location}": use a file path or redis://host:port[/db]#key`);
  }
  return { store: new FileSnapshotStore(), key: checkKey(location), location };
}

function openRedis(location: string, options: OpenSnapshotStoreOptions): OpenedSnapshotStore {
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
  if (key === "") throw new SnapshotKeyError(`${shown} names no session: put its key after "#", e.g. redis://127.0.0.1:6379/0#my-session`);
  checkKey(key);
  if (url.pathname !== "" && url.pathname !== "/" && !/^\/\d+$/.test(url.pathname)) {
    throw new SnapshotKeyError(`${shown}: the path must be a database number such as /0, got "${url.pathname}"`);
  }
  // Connect with the URL as given (credentials included), minus the fragment.
  const connection = new URL(location);
  connection.hash = "";
  const store = new RedisSnapshotStore({ url: connection.toString(), keyPrefix: options.keyPrefix, ttlSeconds: options.ttlSeconds });
  return { store, key, location: shown };
}
