/**
 * `canvasflow keys create|list|revoke`: the API keys of `canvasflow serve`, in the store the
 * server uses (the same `--data`, `--sqlite`, `--redis`, `--postgres` flags; default the SQLite
 * database `./.canvasflow/canvasflow.db`).
 * `create` prints the key once, on stdout alone; only its SHA-256 and last four characters are
 * kept. `list` never shows a key or its hash.
 */
import { apiKeyNameProblem, createApiKey } from "../server/store/api-keys.js";
import { openServerStore } from "../backends/open-server.js";
import { isRecordId, tenantProblem } from "../backends/shared/records.js";
import { DatabaseFileError, ServerStoreError } from "../backends/errors.js";
import type { ApiKeyRecord, ServerStore } from "../backends/contracts.js";
import { UsageError, type CliIO } from "./io.js";
import { EXIT } from "./run-command.js";

export interface KeysStoreArgs {
  /** The folder of the database `canvasflow.db` (default `./.canvasflow`). */
  data?: string;
  /** The SQLite database file itself. */
  sqlite?: string;
  redis?: string;
  /** The prefix of every Redis key (default `canvasflow:`): several deployments in one Redis. */
  redisPrefix?: string;
  postgres?: string;
  schema?: string;
}

export interface KeysArgs extends KeysStoreArgs {
  action: string | undefined;
  positionals: string[];
  tenant?: string;
  name?: string;
}

export async function keysCommand(args: KeysArgs, io: CliIO): Promise<number> {
  const { action, positionals } = args;
  if (action === undefined) throw new UsageError("keys expects a subcommand: create, list or revoke");
  if (action === "create") {
    if (positionals.length > 0) throw new UsageError(`keys create takes no arguments, got "${positionals[0]}"`);
    if (args.tenant === undefined) throw new UsageError("keys create needs --tenant T (the tenant whose agents and sessions the key reaches)");
    if (args.name === undefined) throw new UsageError('keys create needs --name N (what the key is for, e.g. "ci")');
    const problem = tenantProblem(args.tenant);
    if (problem) throw new UsageError(`--tenant: ${problem}`);
    const nameProblem = apiKeyNameProblem(args.name);
    if (nameProblem) throw new UsageError(`--name: ${nameProblem}`);
    return withStore(args, io, async (store) => {
      const { key, record } = await createApiKey(store, { tenant: args.tenant!, name: args.name! });
      io.stdout.write(`${key}\n`);
      io.err(
        `canvasflow: created API key ${record.id} for tenant ${JSON.stringify(record.tenant)} (name ${JSON.stringify(record.name)}, ending ${record.last4}) in ${store.location}.\n` +
          "canvasflow: this is the only time the key is shown: store it now (only its SHA-256 is kept).\n",
      );
      return EXIT.finished;
    });
  }
  if (action === "list") {
    if (positionals.length > 0) throw new UsageError(`keys list takes no arguments, got "${positionals[0]}"`);
    if (args.name !== undefined) throw new UsageError("--name is for keys create");
    if (args.tenant !== undefined && tenantProblem(args.tenant)) throw new UsageError(`--tenant: ${tenantProblem(args.tenant)}`);
    return withStore(args, io, async (store) => {
      const keys = await store.keys.list(args.tenant);
      if (keys.length === 0) {
        io.err(`canvasflow: no API keys${args.tenant === undefined ? "" : ` of tenant ${JSON.stringify(args.tenant)}`} in ${store.location}\n`);
      } else {
        io.stdout.write(keyTable(keys));
      }
      return EXIT.finished;
    });
  }
  if (action === "revoke") {
    if (positionals.length !== 1) throw new UsageError(`keys revoke expects exactly one key ID (from keys list), got ${positionals.length}`);
    if (args.tenant !== undefined || args.name !== undefined) throw new UsageError(`${args.tenant !== undefined ? "--tenant" : "--name"} is not used by keys revoke: it takes the key's ID`);
    const id = positionals[0];
    if (!isRecordId(id)) throw new UsageError(`keys revoke: ${JSON.stringify(id)} is not a key ID (keys list shows them)`);
    return withStore(args, io, async (store) => {
      if (!(await store.keys.revoke(id))) {
        io.err(`canvasflow: there is no API key ${id} in ${store.location} (keys list shows them)\n`);
        return EXIT.failed;
      }
      io.err(`canvasflow: revoked API key ${id} in ${store.location}: it no longer authenticates\n`);
      return EXIT.finished;
    });
  }
  throw new UsageError(`unknown keys subcommand "${action}": use create, list or revoke`);
}

/** Open the store the flags name (a bad flag is a usage error), run `work`, close it; a store failure is one line, exit 1. */
export async function withStore(args: KeysStoreArgs, io: CliIO, work: (store: ServerStore) => Promise<number>): Promise<number> {
  const local = [args.data !== undefined && "--data", args.sqlite !== undefined && "--sqlite"].filter((flag): flag is string => flag !== false);
  if (local.length === 2) throw new UsageError("--data names the folder of the database (DIR/canvasflow.db), --sqlite the database file: give one");
  if (local.length > 0 && (args.redis !== undefined || args.postgres !== undefined)) {
    throw new UsageError(`${local[0]} is the store when there is no Redis and no PostgreSQL: give ${local[0]} or --redis/--postgres, not both`);
  }
  let store: ServerStore;
  try {
    store = await openServerStore({ data: args.data, sqlite: args.sqlite, redis: args.redis, redisPrefix: args.redisPrefix, postgres: args.postgres, schema: args.schema });
  } catch (error) {
    if (error instanceof ServerStoreError) throw new UsageError(flagged(error.message));
    if (error instanceof DatabaseFileError) {
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
  try {
    return await work(store);
  } catch (error) {
    if (!(error instanceof ServerStoreError || error instanceof DatabaseFileError)) throw error;
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.failed;
  } finally {
    await store.close();
  }
}

/** openServerStore's option names as the flags that set them. */
function flagged(message: string): string {
  return message
    .replace(/^(redis|postgres|sqlite): /, "--$1: ")
    .replace(/^schema names/, "--schema names")
    .replace(/^redisPrefix is a Redis key prefix: give it with redis$/, "--redis-prefix is a Redis key prefix: give it with --redis");
}

/** Keys as an aligned table: id, tenant, name, last4, created, revoked (never the key or hash). */
export function keyTable(keys: readonly ApiKeyRecord[]): string {
  const rows = [["ID", "TENANT", "NAME", "LAST4", "CREATED", "REVOKED"], ...keys.map((k) => [k.id, k.tenant, k.name, k.last4, new Date(k.create_time).toISOString(), k.revoked ? "yes" : "no"])];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join("  ")).join("\n") + "\n";
}
