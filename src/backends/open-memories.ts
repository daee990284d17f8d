/**
 * Where memories live, named like a session's place: a folder, `redis://host:port[/db]`,
 * `postgres://…/db[?schema=NAME]` or `sqlite:PATH` (a `#fragment`, a session key, is ignored). A
 * run's memories follow its session: a session file's memories are in the folder
 * `canvasflow-memories` beside it, a Redis or PostgreSQL session's are on the same server, a
 * SQLite session's are in the same database file.
 */
import path from "node:path";
import { locationKind, parseUrl, postgresServer, splitSqliteLocation } from "./location.js";
import { FileMemoryStore } from "./files/memories.js";
import { InProcessMemoryStore } from "./process/memories.js";
import { PostgresMemoryStore } from "./postgres/memories.js";
import { RedisMemoryStore } from "./redis/memories.js";
import { SqliteMemoryStore } from "./sqlite/memories.js";
import { DATABASE_FILE_NAME } from "./sqlite/schema.js";
import { MemoryStoreError } from "./errors.js";
import type { MemoryStore } from "./contracts.js";

/** The folder of a file session's memories, beside the session file. */
export const MEMORY_FOLDER = "canvasflow-memories";

const memoryError = (message: string) => new MemoryStoreError(message);

export interface OpenMemoryStoreOptions {
  maxBytes?: number;
  /** Redis: the key prefix of tenants' memories (default `canvasflow:tenant-memory:`). */
  keyPrefix?: string;
  /** Redis: the key prefix of legacy (unscoped) memories (default `canvasflow:memory:`). */
  legacyKeyPrefix?: string;
}

export function openMemoryStore(location: string, options: OpenMemoryStoreOptions = {}): MemoryStore {
  if (typeof location !== "string" || location.trim() === "") throw new MemoryStoreError("memories need a folder, a redis:// or postgres:// URL, or sqlite:FILE; got an empty value");
  const kind = locationKind(location);
  if (kind === "redis") {
    const url = parseUrl(location, "memories location", memoryError);
    url.hash = "";
    return new RedisMemoryStore({ url: url.toString(), keyPrefix: options.keyPrefix, legacyKeyPrefix: options.legacyKeyPrefix, maxBytes: options.maxBytes });
  }
  if (kind === "postgres") {
    const server = postgresServer(location);
    return new PostgresMemoryStore({ url: server.connection, schema: server.schema, maxBytes: options.maxBytes });
  }
  if (kind === "sqlite") return new SqliteMemoryStore({ file: splitSqliteLocation(location, memoryError).file, maxBytes: options.maxBytes });
  if (kind === "url") throw new MemoryStoreError(`unsupported memories location "${location}": use a folder, redis://host:port[/db], postgres://user@host:port/db or sqlite:FILE`);
  return new FileMemoryStore({ directory: location, maxBytes: options.maxBytes });
}

/** A Redis or PostgreSQL URL or a SQLite file: a session there keeps its memories in the same database. */
function isDatabaseLocation(location: string): boolean {
  const kind = locationKind(location);
  return kind === "redis" || kind === "postgres" || kind === "sqlite";
}

/** The memories of a session at `session` (a file path, a Redis/PostgreSQL URL with `#key`, or `sqlite:FILE#key`). */
export function memoriesOfSession(session: string, options: OpenMemoryStoreOptions = {}): MemoryStore {
  if (isDatabaseLocation(session)) return openMemoryStore(session, options);
  return openMemoryStore(path.join(path.dirname(path.resolve(session)), MEMORY_FOLDER), options);
}

/**
 * A run's memories: the configured location, else with its session (`session`: a file path, a
 * Redis/PostgreSQL URL or `sqlite:FILE#key`), else in this process's memory (gone when the process ends).
 */
export function memoriesForRun(config: { location?: string; maxBytes?: number } | undefined, session: string | undefined): MemoryStore {
  const options = { maxBytes: config?.maxBytes };
  if (config?.location) return openMemoryStore(config.location, options);
  if (session) return memoriesOfSession(session, options);
  return new InProcessMemoryStore(options);
}

/**
 * Whether a run's memories are the folder beside its session file: a CLI's own place, which no
 * server shares, so every memory an earlier release kept there is the tenant "default"'s. (A Redis
 * or PostgreSQL session's memories, or a configured location, may be a server's: `canvasflow db
 * migrate` or `canvasflow serve` moves those, by the server's session records. A SQLite session's
 * are in its database file, where no release kept memories before tenants.)
 */
export function memoriesBesideSession(config: { location?: string } | undefined, session: string | undefined): boolean {
  return !config?.location && session !== undefined && !isDatabaseLocation(session);
}

/** Where `canvasflow serve` keeps memories: with its store (a data folder, Redis, PostgreSQL or a SQLite file). */
export interface ServerMemoryPlace {
  data?: string;
  redis?: string;
  /** The server's Redis prefix (default `canvasflow:`): memories go under `<prefix>tenant-memory:` (legacy ones were under `<prefix>memory:`). */
  redisPrefix?: string;
  postgres?: string;
  schema?: string;
  /** The server's SQLite database file (`FILE` or `sqlite:FILE`): memories go in the same file. */
  sqlite?: string;
}

/** The server's memories: the configured location, else with its store (the same Redis, PostgreSQL or SQLite file, `<data>/canvasflow.db` by default). */
export function memoriesForServer(config: { location?: string; maxBytes?: number } | undefined, place: ServerMemoryPlace, defaultData: string): MemoryStore {
  const options = { maxBytes: config?.maxBytes };
  if (config?.location) return openMemoryStore(config.location, options);
  if (place.redis !== undefined) {
    const prefix = place.redisPrefix ?? "canvasflow:";
    return openMemoryStore(place.redis, { ...options, keyPrefix: `${prefix}tenant-memory:`, legacyKeyPrefix: `${prefix}memory:` });
  }
  if (place.postgres !== undefined) {
    const server = postgresServer(place.postgres, place.schema);
    return new PostgresMemoryStore({ url: server.connection, schema: server.schema, maxBytes: options.maxBytes });
  }
  const file = place.sqlite === undefined ? path.join(place.data ?? defaultData, DATABASE_FILE_NAME) : locationKind(place.sqlite) === "sqlite" ? splitSqliteLocation(place.sqlite, memoryError).file : place.sqlite;
  return new SqliteMemoryStore({ file, maxBytes: options.maxBytes });
}
