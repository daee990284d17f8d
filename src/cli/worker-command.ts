/**
 * `canvasflow worker --redis URL [--queue NAME] [--prefix P] [--concurrency N] [--config FILE]
 *                   [--kb ID=DIR]... [--mock-llm] [--mock-llm-script FILE] [--allow-private-network]
 *                   [--register MODULE]... [--durability sync|async] [--max-stalled N]
 *                   [--stall-timeout SECONDS] [--grace SECONDS] [--otlp URL]`
 *
 * A worker process (the library's `createWorker`): takes run jobs from the queue on Redis and runs
 * them on the durable checkpointer, until Ctrl+C or SIGTERM; then it takes no more jobs, lets the
 * runs still going finish within --grace, suspends the others between two steps and hands their
 * jobs back. One line per job on stderr (its id and how it ended; never a prompt or a canvas).
 * The config's `server.policy` (the servers' component policy) applies to the runs it takes.
 *
 * Exit codes: 0 stopped, 1 Redis cannot be reached, 2 usage.
 */
import { RunQueueConnectionError, RunQueueError } from "../worker/run-queue.js";
import { createWorker, type RunWorker } from "../worker/worker.js";
import { stopRequested, UsageError, type CliIO } from "./io.js";
import { integerFlag, secondsFlag } from "./numeric-flags.js";
import { registryWithModules } from "./register-modules.js";
import { EXIT } from "./run-command.js";
import { openUntrustedServices } from "./services.js";
import { serverPolicy } from "./server-policy.js";
import { ConfigError } from "../config/load.js";
import type { ComponentPolicy } from "../policy/policy.js";
import { memoriesForServer } from "../backends/open-memories.js";
import { locationKind } from "../backends/location.js";
import { DatabaseFileError, MemoryStoreError, SnapshotStoreError } from "../backends/errors.js";
import type { MemoryStore } from "../backends/contracts.js";
import { DEFAULT_DATA_FOLDER } from "../backends/open-server.js";

export interface WorkerArgs {
  redis?: string;
  queue?: string;
  prefix?: string;
  concurrency?: string;
  config?: string;
  kb?: readonly string[];
  mockLlm?: boolean;
  mockLlmScript?: string;
  allowPrivateNetwork?: boolean;
  register?: readonly string[];
  durability?: string;
  maxStalled?: string;
  stallTimeout?: string;
  grace?: string;
  /** `--otlp URL`: export spans there (also the config's tracing section, OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlp?: string;
}

export async function workerCommand(args: WorkerArgs, io: CliIO): Promise<number> {
  if (args.redis === undefined) throw new UsageError("worker needs --redis URL: the Redis its queue and sessions are on (the one canvasflow serve --redis uses)");
  const concurrency = args.concurrency === undefined ? undefined : integerFlag("--concurrency", args.concurrency, { min: 1, max: 1000 });
  const maxStalledCount = args.maxStalled === undefined ? undefined : integerFlag("--max-stalled", args.maxStalled, { min: 0, max: 1000 });
  const stallSeconds = args.stallTimeout === undefined ? undefined : secondsFlag("--stall-timeout", args.stallTimeout, { min: 0.1, max: 3600 });
  const graceSeconds = args.grace === undefined ? undefined : secondsFlag("--grace", args.grace, { min: 0, max: 86_400 });
  if (args.durability !== undefined && args.durability !== "sync" && args.durability !== "async") {
    throw new UsageError(`--durability must be sync or async for a worker (exit would lose a whole run when a worker dies), got ${JSON.stringify(args.durability)}`);
  }
  const registry = await registryWithModules(args.register ?? []);
  const services = await openUntrustedServices(
    { config: args.config, kb: args.kb, mockLlm: args.mockLlm, mockLlmScript: args.mockLlmScript, allowPrivateNetwork: args.allowPrivateNetwork, otlp: args.otlp },
    io,
  );
  if (services === undefined) return EXIT.usage;
  let policy: ComponentPolicy;
  try {
    // The servers' component policy: a session whose DSL predates it is refused here too.
    policy = serverPolicy(services, registry);
  } catch (error) {
    await services.close();
    if (!(error instanceof ConfigError)) throw error;
    io.err(`${error.message}\n`);
    return EXIT.usage;
  }
  let memories: MemoryStore | undefined;
  try {
    // The memories canvasflow serve --redis keeps on the same Redis (or the configured place). A
    // --redis that is not a Redis URL is left to the queue, whose message names the flag.
    if (services.config.memories?.location || locationKind(args.redis) === "redis") {
      memories = memoriesForServer(services.config.memories, { redis: args.redis, redisPrefix: args.prefix }, DEFAULT_DATA_FOLDER);
    }
  } catch (error) {
    await services.close();
    if (!(error instanceof MemoryStoreError || error instanceof SnapshotStoreError || error instanceof DatabaseFileError)) throw error;
    io.err(`canvasflow: memories: ${error.message}\n`);
    return EXIT.usage;
  }
  const closeServices = async () => {
    await memories?.close();
    await services.close();
  };
  let worker: RunWorker;
  try {
    worker = await createWorker({
      redis: args.redis,
      ...(args.queue !== undefined ? { queue: args.queue } : {}),
      ...(args.prefix !== undefined ? { prefix: args.prefix } : {}),
      registry,
      canvas: { services: { ...services.services, ...(memories ? { memories } : {}) } },
      policy,
      ...(args.durability !== undefined ? { durability: args.durability as "sync" | "async" } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(maxStalledCount !== undefined ? { maxStalledCount } : {}),
      ...(stallSeconds !== undefined ? { lockDurationMs: Math.round(stallSeconds * 1000) } : {}),
      ...(graceSeconds !== undefined ? { graceMs: Math.round(graceSeconds * 1000) } : {}),
      onError: onceInAWhile((message) => io.err(`canvasflow: worker: ${message}\n`)),
      onJobEnd: (jobId, outcome) => io.err(`canvasflow: run ${jobId}: ${outcome.status}${outcome.status === "job failed" ? `: ${outcome.error}` : ""}\n`),
    });
  } catch (error) {
    await closeServices();
    if (!(error instanceof RunQueueError)) throw error;
    if (error instanceof RunQueueConnectionError) {
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.failed;
    }
    throw new UsageError(error.message);
  }
  try {
    const grace = graceSeconds ?? 30;
    io.err(
      [
        `canvasflow: worker ${worker.name} takes runs from the queue "${args.queue ?? "runs"}" (prefix ${args.prefix ?? "canvasflow:"}), ${concurrency ?? 4} at a time`,
        `canvasflow: Ctrl+C or SIGTERM stops it: no new runs; runs still going get ${grace} s to finish, then go back to the queue for another worker.`,
        "",
      ].join("\n"),
    );
    await stopRequested(io);
    io.err(`canvasflow: stopping: no new runs; ${worker.active} still going (${grace} s to finish)\n`);
    await worker.close();
    io.err("canvasflow: stopped\n");
    return EXIT.finished;
  } finally {
    await worker.close({ graceMs: 0 });
    await closeServices();
  }
}

/** A connection that drops is reported on every reconnect attempt: the same message at most every 5 s. */
function onceInAWhile(report: (message: string) => void): (error: Error) => void {
  const last = new Map<string, number>();
  return (error) => {
    const now = Date.now();
    if ((last.get(error.message) ?? -Infinity) > now - 5000) return;
    last.set(error.message, now);
    report(error.message);
  };
}
