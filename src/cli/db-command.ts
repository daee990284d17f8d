/**
 * `canvasflow db migrate --postgres URL [--schema NAME]`: create (or upgrade) the tables of the
 * PostgreSQL store and cancel signals, and those of the server's records (agents, session
 * records, API keys), ahead of time, for deployments whose runtime role may not create tables.
 * The stores do the same on first use otherwise.
 */
import { migratePostgresServer } from "../server/store/postgres-schema.js";
import { migratePostgres, postgresTables, type MigrationResult } from "../stores/postgres-schema.js";
import { postgresServer, type PostgresServer } from "../stores/open-store.js";
import { SnapshotStoreError } from "../stores/snapshot-store.js";
import { UsageError, type CliIO } from "./io.js";
import { EXIT } from "./run-command.js";

export interface DbMigrateArgs {
  postgres?: string;
  schema?: string;
}

export async function dbMigrateCommand(args: DbMigrateArgs, io: CliIO): Promise<number> {
  if (args.postgres === undefined) throw new UsageError("db migrate needs --postgres URL (postgres://user@host:port/database)");
  let server: PostgresServer;
  try {
    server = postgresServer(args.postgres, args.schema);
    // A bad schema name is a mistake in the flags, found before connecting.
    if (server.schema !== undefined) postgresTables(server.schema);
  } catch (error) {
    if (error instanceof SnapshotStoreError) throw new UsageError(`--postgres: ${error.message}`);
    throw error;
  }
  const options = server.schema === undefined ? {} : { schema: server.schema };
  let runState: MigrationResult;
  let records: MigrationResult;
  try {
    runState = await migratePostgres(server.connection, options);
    records = await migratePostgresServer(server.connection, options);
  } catch (error) {
    if (!(error instanceof SnapshotStoreError)) throw error;
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.failed;
  }
  io.stdout.write(`schema ${runState.schema} at ${server.shown}: ${outcome(runState)}\n`);
  io.stdout.write(`server tables in schema ${records.schema} at ${server.shown}: ${outcome(records)}\n`);
  return EXIT.finished;
}

function outcome(result: MigrationResult): string {
  return result.from === result.to ? `already at version ${result.to}` : result.from === 0 ? `created (version ${result.to})` : `upgraded from version ${result.from} to ${result.to}`;
}
