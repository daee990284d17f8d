/**
 * `canvasflow db migrate`: bring a server's store up to date ahead of time.
 *
 * - `--postgres URL [--schema NAME]`: create (or upgrade) the tables of the PostgreSQL store and
 *   cancel signals, those of the server's records (agents, session records, API keys) and of
 *   conversation memories, for deployments whose runtime role may not create tables. The stores
 *   do the same on first use otherwise.
 * - With any store (`--postgres`, `--redis URL [--redis-prefix P]` or `--data DIR`): move the
 *   memories written before memories had tenants to the tenant of the session that wrote each
 *   message (memories/legacy.ts), as `canvasflow serve` does when it starts. `--memories LOCATION`
 *   names where they are when the config's `memories.location` put them elsewhere;
 *   `--unowned-to TENANT` gives the messages whose session is not known to that tenant.
 */
import { migrateLegacyMemories, legacyReportLines } from "../memories/legacy.js";
import { memoriesForServer } from "../backends/open-memories.js";
import { migratePostgresMemories } from "../backends/postgres/memories-schema.js";
import { checkTenant } from "../backends/shared/memories.js";
import { DatabaseFileError, MemoryStoreError, SnapshotStoreError } from "../backends/errors.js";
import { migrateSqlite, openSqliteDatabase } from "../backends/sqlite/database.js";
import { SQLITE_MIGRATIONS } from "../backends/sqlite/schema.js";
import type { MemoryStore } from "../backends/contracts.js";
import { sessionOwners } from "../server/memory-owners.js";
import { DEFAULT_DATA_FOLDER } from "../backends/open-server.js";
import { migratePostgresServer } from "../backends/postgres/server-schema.js";
import { migratePostgres, postgresTables } from "../backends/postgres/session-schema.js";
import type { MigrationResult } from "../backends/postgres/migrations.js";
import { postgresServer, type PostgresServer } from "../backends/location.js";
import { UsageError, type CliIO } from "./io.js";
import { withStore } from "./keys-command.js";
import { EXIT } from "./run-command.js";

export interface DbMigrateArgs {
  postgres?: string;
  /** A SQLite database file: its schema is brought up to date (it has no memories from before tenants). */
  sqlite?: string;
  schema?: string;
  redis?: string;
  redisPrefix?: string;
  data?: string;
  /** Where the memories are, when not beside the store. */
  memories?: string;
  /** The tenant of memory messages whose session is not known. */
  unownedTo?: string;
}

export async function dbMigrateCommand(args: DbMigrateArgs, io: CliIO): Promise<number> {
  if (args.sqlite !== undefined) return migrateSqliteFile(args, io);
  if (args.postgres === undefined && args.redis === undefined && args.data === undefined) {
    throw new UsageError("db migrate needs --postgres URL (postgres://user@host:port/database), --redis URL, --sqlite FILE or --data DIR: the server's store, whose tables and memories it brings up to date");
  }
  if (args.unownedTo !== undefined) {
    try {
      checkTenant(args.unownedTo, "--unowned-to");
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (args.memories !== undefined && args.memories.trim() === "") throw new UsageError("--memories needs a folder, a redis:// or a postgres:// URL");
  let server: PostgresServer | undefined;
  if (args.postgres !== undefined) {
    try {
      server = postgresServer(args.postgres, args.schema);
      // A bad schema name is a mistake in the flags, found before connecting.
      if (server.schema !== undefined) postgresTables(server.schema);
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw new UsageError(`--postgres: ${error.message}`);
      throw error;
    }
  }
  if (server) {
    const migrated = await migrateTables(server, io, args.memories === undefined && args.redis === undefined);
    if (migrated !== EXIT.finished) return migrated;
  }
  return withStore(args, io, async (store) => {
    let memories: MemoryStore;
    try {
      memories = memoriesForServer(args.memories === undefined ? undefined : { location: args.memories }, args, DEFAULT_DATA_FOLDER);
    } catch (error) {
      if (error instanceof MemoryStoreError || error instanceof SnapshotStoreError || error instanceof DatabaseFileError) throw new UsageError(`--memories: ${error.message}`);
      throw error;
    }
    try {
      const report = await migrateLegacyMemories(memories, { owners: sessionOwners(store.sessions), ...(args.unownedTo !== undefined ? { unownedTo: args.unownedTo } : {}) });
      const lines = legacyReportLines(report);
      io.stdout.write(lines.length > 0 ? lines.map((line) => `${line}\n`).join("") : `memories at ${report.location}: none written before memories had tenants\n`);
      return EXIT.finished;
    } catch (error) {
      if (!(error instanceof MemoryStoreError)) throw error;
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.failed;
    } finally {
      await memories.close();
    }
  });
}

/** The PostgreSQL tables: run state, server records and (when they are in this schema) memories. */
async function migrateTables(server: PostgresServer, io: CliIO, memoryTables: boolean): Promise<number> {
  const options = server.schema === undefined ? {} : { schema: server.schema };
  const results: Array<[string, MigrationResult]> = [];
  try {
    results.push(["schema", await migratePostgres(server.connection, options)]);
    results.push(["server tables in schema", await migratePostgresServer(server.connection, options)]);
    if (memoryTables) results.push(["memory tables in schema", await migratePostgresMemories(server.connection, options)]);
  } catch (error) {
    if (!(error instanceof SnapshotStoreError)) throw error;
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.failed;
  }
  for (const [what, result] of results) io.stdout.write(`${what} ${result.schema} at ${server.shown}: ${outcome(result)}\n`);
  return EXIT.finished;
}

function outcome(result: MigrationResult): string {
  return result.from === result.to ? `already at version ${result.to}` : result.from === 0 ? `created (version ${result.to})` : `upgraded from version ${result.from} to ${result.to}`;
}

/** `--sqlite FILE`: every migration the file lacks, each in its own transaction (a new file is created). */
async function migrateSqliteFile(args: DbMigrateArgs, io: CliIO): Promise<number> {
  const other = (["postgres", "schema", "redis", "redisPrefix", "data", "memories", "unownedTo"] as const).find((flag) => args[flag] !== undefined);
  if (other !== undefined) throw new UsageError(`db migrate --sqlite FILE brings one SQLite database up to date: --${other.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not go with it`);
  if (args.sqlite!.trim() === "") throw new UsageError("--sqlite needs the database file");
  const file = args.sqlite!;
  try {
    const db = openSqliteDatabase(file);
    try {
      const result = migrateSqlite(db, file, SQLITE_MIGRATIONS);
      io.stdout.write(`database ${file}: ${outcome({ ...result, schema: "" })}\n`);
      return EXIT.finished;
    } finally {
      db.close();
    }
  } catch (error) {
    if (!(error instanceof DatabaseFileError)) throw error;
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.failed;
  }
}
