/**
 * One parser for the places stores live, as every command and entry names them:
 * - a file path or folder (the files backend);
 * - `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS);
 * - `postgres://[user[:password]@]host[:port]/database[?schema=NAME]` (or `postgresql://`);
 * - `sqlite:PATH` (or `sqlite://PATH`): a SQLite database file;
 * a session's location adds its key as the `#fragment` (never part of the connection, so the rest
 * of the URL stays what ioredis, redis-cli, pg and psql understand).
 *
 * The openers (open-sessions.ts, open-server.ts, open-memories.ts) say what they open and
 * raise their own error kind: each function here takes `fail`, which makes that error from a
 * message.
 */
import { SnapshotKeyError } from "./errors.js";

/** Which backend a location names: a Redis or PostgreSQL URL, another URL (unsupported), or a path. */
export type LocationKind = "redis" | "postgres" | "sqlite" | "url" | "path";

const REDIS_URL = /^rediss?:\/\//i;
const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const SQLITE_LOCATION = /^sqlite:/i;
const ANY_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

export function locationKind(location: string): LocationKind {
  if (REDIS_URL.test(location)) return "redis";
  if (POSTGRES_URL.test(location)) return "postgres";
  if (SQLITE_LOCATION.test(location)) return "sqlite";
  if (ANY_URL.test(location)) return "url";
  return "path";
}

/** Makes the caller's error from a message. */
export type Fail = (message: string) => Error;

const keyError: Fail = (message) => new SnapshotKeyError(message);

/** A URL as text for messages, before it is parsed: what is between `//` and `@` masked. */
export function maskCredentials(text: string): string {
  return text.replace(/\/\/[^@/]*@/, "//***@");
}

/** A URL as text for messages, before it is parsed: the password masked, the user kept. */
export function maskPassword(text: string): string {
  return text.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}

/** A parsed URL as text for messages, its password masked. */
export function shownUrl(url: URL): string {
  const copy = new URL(url.toString());
  if (copy.password) copy.password = "***";
  return copy.toString();
}

/** `location` parsed; `what` names it in the message when it is not a URL. */
export function parseUrl(location: string, what: string, fail: Fail = keyError): URL {
  try {
    return new URL(location);
  } catch {
    throw fail(`${what} "${maskCredentials(location)}" is not a valid URL`);
  }
}

/** Whether a Redis URL's path is empty or a database number (`/0`). */
export function isRedisDatabasePath(url: URL): boolean {
  return url.pathname === "" || url.pathname === "/" || /^\/\d+$/.test(url.pathname);
}

/** A Redis URL's path checked: `shown` names the URL in the message. */
export function checkRedisPath(url: URL, shown: string, fail: Fail = keyError): void {
  if (!isRedisDatabasePath(url)) throw fail(`${shown}: the path must be a database number such as /0, got "${url.pathname}"`);
}

/**
 * A store URL with a session key in its fragment: the key (percent-decoded, checked by
 * `checkKey`), the URL to show (password masked) and the server's URL (as given, without the
 * fragment). `example` is a URL of the same kind, for the message when the key is missing.
 */
export function splitSessionUrl(location: string, example: string, checkKey: (key: string) => string): { url: URL; key: string; shown: string; server: URL } {
  const url = parseUrl(location, "session location");
  const shown = shownUrl(url);
  let key: string;
  try {
    key = decodeURIComponent(url.hash.slice(1));
  } catch {
    throw keyError(`${shown}: the session key after "#" is not valid percent-encoding`);
  }
  if (key === "") throw keyError(`${shown} names no session: put its key after "#", e.g. ${example}#my-session`);
  checkKey(key);
  const server = new URL(location);
  server.hash = "";
  return { url, key, shown, server };
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

/** A PostgreSQL URL's connection string (without `schema`) and the schema it names, if any. */
export function postgresTarget(url: URL, shown: string, optionSchema: string | undefined, fail: Fail = keyError): { connection: string; schema: string | undefined } {
  const inUrl = url.searchParams.get("schema") ?? undefined;
  if (inUrl !== undefined && optionSchema !== undefined && inUrl !== optionSchema) {
    throw fail(`${shown} names schema "${inUrl}", but schema "${optionSchema}" was also given: name it once`);
  }
  const connection = new URL(url.toString());
  connection.searchParams.delete("schema");
  return { connection: connection.toString(), schema: inUrl ?? optionSchema };
}

/** A `postgres://` location (a `#fragment` ignored) and a schema given beside it, as one server. */
export function postgresServer(location: string, schema?: string, fail: Fail = keyError): PostgresServer {
  if (!POSTGRES_URL.test(location)) throw fail(`expected a postgres:// URL, got "${maskCredentials(location)}"`);
  const url = parseUrl(location, "PostgreSQL URL", fail);
  url.hash = "";
  const bare = new URL(url.toString());
  bare.search = "";
  const target = postgresTarget(url, shownUrl(bare), schema, fail);
  return { ...target, shown: shownUrl(bare) };
}

/**
 * A SQLite location: `sqlite:PATH[#KEY]` (or `sqlite://PATH[#KEY]`): the database file, and the
 * session key when one is given (percent-decoded, as in a URL's fragment). The path is a file
 * path as the shell gives it (relative to the working folder, or absolute).
 */
export function splitSqliteLocation(location: string, fail: Fail = keyError): { file: string; key: string | undefined } {
  const rest = location.replace(SQLITE_LOCATION, "").replace(/^\/\//, "");
  const hash = rest.indexOf("#");
  const file = hash === -1 ? rest : rest.slice(0, hash);
  if (file === "") throw fail(`${JSON.stringify(location)} names no database file: write sqlite:PATH, e.g. sqlite:./runs.db`);
  if (hash === -1) return { file, key: undefined };
  try {
    return { file, key: decodeURIComponent(rest.slice(hash + 1)) };
  } catch {
    throw fail(`the session key in ${JSON.stringify(location)} is not valid percent-encoding`);
  }
}
