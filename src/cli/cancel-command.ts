/**
 * `canvasflow cancel TASK_ID [--redis URL [--redis-prefix P] | --postgres URL | --sqlite FILE | --dir DIR]`: ask
 * every process that runs the task to stop it. The run ends with workflow_finished error
 * "cancelled" (exit 130), its state checkpointed; the request stands (10 minutes) until the task's
 * next turn starts. Without a flag the request goes to the local cancel folder (cancel-folder.ts),
 * where runs without a session and runs with a file session listen. `--redis-prefix P` reaches the
 * runs of `canvasflow serve --redis-prefix P` and `canvasflow worker --prefix P`, whose cancel
 * flags and channel are under P (serverCancelLayout).
 */
import { cancelRun } from "../durable/cancel.js";
import { serverCancelLayout } from "../backends/redis/server-store.js";
import { CancelSignalError, SnapshotStoreError } from "../backends/errors.js";
import { checkTaskId } from "../backends/shared/cancel.js";
import type { CancelSignals } from "../backends/contracts.js";
import { FileCancelSignals } from "../backends/files/cancel.js";
import { openCancelSignals } from "../backends/open-sessions.js";
import { locationKind } from "../backends/location.js";
import { cancelFolder } from "./cancel-folder.js";
import { UsageError, type CliIO } from "./io.js";
import { EXIT } from "./run-command.js";

export interface CancelArgs {
  taskId: string;
  redis?: string;
  /** The prefix of the server's Redis keys (`serve --redis-prefix`): its cancel flags and channel are under it. */
  redisPrefix?: string;
  postgres?: string;
  /** A SQLite database file (`--session sqlite:FILE#KEY` runs listen there). */
  sqlite?: string;
  dir?: string;
}

export async function cancelCommand(args: CancelArgs, io: CliIO): Promise<number> {
  const given = (["redis", "postgres", "sqlite", "dir"] as const).filter((flag) => args[flag] !== undefined);
  if (given.length > 1) throw new UsageError(`cancel takes one of --redis, --postgres, --sqlite and --dir, got ${given.map((flag) => `--${flag}`).join(" and ")}`);
  try {
    checkTaskId(args.taskId);
  } catch (error) {
    throw new UsageError(`cancel: ${(error as Error).message}`);
  }
  if (args.redisPrefix !== undefined && args.redis === undefined) throw new UsageError("--redis-prefix is a Redis key prefix: give it with --redis");
  if (args.sqlite === "") throw new UsageError("--sqlite expects the path of a SQLite database file, got an empty one");
  const where = args.redis ?? args.postgres ?? (args.sqlite !== undefined ? `sqlite:${args.sqlite.replace(/^sqlite:/i, "")}` : undefined) ?? args.dir ?? cancelFolder().directory;
  if (args.redis !== undefined && locationKind(args.redis) !== "redis") throw new UsageError(`--redis expects a redis:// URL, got ${JSON.stringify(args.redis)}`);
  if (args.postgres !== undefined && locationKind(args.postgres) !== "postgres") throw new UsageError(`--postgres expects a postgres:// URL, got ${JSON.stringify(args.postgres)}`);
  let signals: CancelSignals;
  try {
    signals = args.redis ?? args.postgres ?? args.sqlite ? openCancelSignals(where, args.redisPrefix !== undefined ? { redis: serverCancelLayout(args.redisPrefix) } : {}) : new FileCancelSignals({ directory: where });
  } catch (error) {
    if (error instanceof CancelSignalError) throw new UsageError(error.message);
    throw error;
  }
  try {
    await cancelRun(args.taskId, { signals });
  } catch (error) {
    if (!(error instanceof CancelSignalError || error instanceof SnapshotStoreError)) throw error;
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.failed;
  } finally {
    await signals.close();
  }
  io.err(`canvasflow: cancel requested for task ${args.taskId}\n`);
  return EXIT.finished;
}
