/**
 * The ServerStore that `canvasflow serve` and `canvasflow keys` use, from their flags:
 * - nothing, or `data`: the SQLite database `canvasflow.db` in that folder (default
 *   `./.canvasflow`), shared by the server processes of a machine; a folder that still holds a
 *   data folder of an earlier release (JSON records) is refused until `canvasflow db import`
 *   has copied it, never served as a fresh start;
 * - `sqlite`: that SQLite database file;
 * - `redis`: everything in Redis, under `redisPrefix` (default `canvasflow:`);
 * - `postgres`: everything in PostgreSQL, in `schema` (default `canvasflow`, or the URL's `?schema=`);
 * - both: records and runs in PostgreSQL, cancel signals through Redis (postgres-with-redis.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { holdsDataFolder } from "./files/data-folder.js";
import { isRedisDatabasePath, maskPassword, postgresServer } from "./location.js";
import { PostgresServerStore } from "./postgres/server-store.js";
import { PostgresWithRedisServerStore } from "./postgres/server-store-with-redis.js";
import { RedisServerStore } from "./redis/server-store.js";
import { SqliteServerStore } from "./sqlite/server-store.js";
import { DATABASE_FILE_NAME } from "./sqlite/schema.js";
import { DatabaseFileError, ServerStoreError } from "./errors.js";
import type { ServerStore } from "./contracts.js";

export const DEFAULT_DATA_FOLDER = ".canvasflow";

export interface OpenServerStoreOptions {
  /** The folder of the SQLite database `canvasflow.db` (default `./.canvasflow` when no other store is given). */
  data?: string;
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  redis?: string;
  /** `postgres://[user[:password]@]host[:port]/database[?schema=NAME]`. */
  postgres?: string;
  /** A SQLite database file (`PATH` or `sqlite:PATH`), created with its folder when missing. */
  sqlite?: string;
  /** PostgreSQL: the schema of the tables (default `canvasflow`). */
  schema?: string;
  /** Redis: the prefix of every key (default `canvasflow:`). */
  redisPrefix?: string;
  /** SQLite: wait for the disk at each commit (`synchronous = FULL`), so it survives a power loss. Default false. */
  sync?: boolean;
}

/**
 * Open the store the options name. Nothing is connected to or created yet: the first operation
 * (or `ping()`) does that, so an unreachable server is reported by the operation that needed it.
 * A SQLite file is the exception: it is local, so it is opened (and made) now, and a file that is
 * not a canvasflow database is a DatabaseFileError here.
 */
export async function openServerStore(options: OpenServerStoreOptions = {}): Promise<ServerStore> {
  const { data, redis, postgres, sqlite } = options;
  if (sqlite !== undefined) {
    const others = [data !== undefined && `a data folder (${data})`, redis !== undefined && "Redis", postgres !== undefined && "PostgreSQL"].filter((other): other is string => other !== false);
    if (others.length > 0) throw new ServerStoreError(`a SQLite database (${sqlite}) and ${others.join(" and ")} were both given: the SQLite file keeps everything by itself; give one or the other`);
  }
  if (data !== undefined && (redis !== undefined || postgres !== undefined)) {
    throw new ServerStoreError(`a data folder (${data}) and ${redis !== undefined ? "Redis" : "PostgreSQL"} were both given: the data folder (its SQLite database) is for when there is no Redis and no PostgreSQL; give one or the other`);
  }
  if (options.schema !== undefined && postgres === undefined) throw new ServerStoreError("schema names a PostgreSQL schema: give it with postgres");
  if (options.redisPrefix !== undefined && redis === undefined) throw new ServerStoreError("redisPrefix is a Redis key prefix: give it with redis");
  if (postgres !== undefined) {
    const server = postgresUrl(postgres, options.schema);
    if (redis !== undefined) return new PostgresWithRedisServerStore({ url: server.connection, schema: server.schema, redisUrl: redisUrl(redis), redisPrefix: options.redisPrefix });
    return new PostgresServerStore({ url: server.connection, schema: server.schema });
  }
  if (redis !== undefined) return new RedisServerStore({ url: redisUrl(redis), prefix: options.redisPrefix });
  const file = sqlite !== undefined ? sqliteFile(sqlite) : await databaseInFolder(data ?? DEFAULT_DATA_FOLDER);
  return new SqliteServerStore({ file, synchronous: options.sync ? "full" : "normal" });
}

/**
 * The database of a data folder, `DIR/canvasflow.db`. A folder with the JSON records of an earlier
 * release and no database yet is refused: serving it would start empty beside them.
 */
export async function databaseInFolder(folder: string): Promise<string> {
  const file = join(folder, DATABASE_FILE_NAME);
  if (!existsSync(file) && (await holdsDataFolder(folder))) {
    throw new DatabaseFileError(
      `${folder} holds the data folder of an earlier canvasflow (JSON records: agents/, keys/…), and no database yet: copy it into ${file} with \`canvasflow db import --data-folder ${folder}\`, then start again`,
      file,
    );
  }
  return file;
}

/** The file of `PATH` or `sqlite:PATH` (`sqlite://PATH`). */
function sqliteFile(text: string): string {
  const file = text.replace(/^sqlite:(\/\/)?/i, "");
  if (file.trim() === "") throw new ServerStoreError(`sqlite: expected the path of a database file, got ${JSON.stringify(text)}`);
  return file;
}

/** `redis://host:port[/db]` checked before anything connects. */
function redisUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ServerStoreError(`redis: ${JSON.stringify(maskPassword(text))} is not a valid URL (expected redis://host:port[/db])`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") throw new ServerStoreError(`redis: expected a redis:// or rediss:// URL, got ${JSON.stringify(maskPassword(text))}`);
  if (!isRedisDatabasePath(url)) throw new ServerStoreError(`redis: the path of ${JSON.stringify(maskPassword(text))} must be a database number such as /0, got "${url.pathname}"`);
  return text;
}

/** `postgres://…[?schema=NAME]` and the schema option, checked before anything connects. */
function postgresUrl(text: string, schema: string | undefined): { connection: string; schema: string | undefined } {
  const server = postgresServer(text, schema, (message) => new ServerStoreError(`postgres: ${message}`));
  return { connection: server.connection, schema: server.schema };
}
