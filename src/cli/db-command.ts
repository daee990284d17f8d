/**
 * `canvasflow db migrate --postgres URL [--schema NAME]`: create (or upgrade) the tables of the
 * PostgreSQL store and cancel signals ahead of time, for deployments whose runtime role may not
 * create tables. The stores do the same on first use otherwise.
 */
import { migratePostgres, postgresTables } from "../stores/postgres-schema.js";
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
  let result;
  try {
    result = await migratePostgres(server.connection, server.schema === undefined ? {} : { schema: server.schema });
  } catch (error) {
    if (!(error instanceof SnapshotStoreError)) throw error;
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.failed;
  }
  const what = result.from === result.to ? `already at version ${result.to}` : result.from === 0 ? `created (version ${result.to})` : `upgraded from version ${result.from} to ${result.to}`;
  io.stdout.write(`schema ${result.schema} at ${server.shown}: ${what}\n`);
  return EXIT.finished;
}
