/**
 * A worker process's part: take run jobs from the queue and run them on the durable checkpointer
 * (`process-job.ts`), events to each session's log as they happen.
 *
 * - **Crash.** A worker that dies stops renewing its jobs' locks; BullMQ's stalled-job check (run
 *   by every worker) hands such a job to another worker, which continues the run from its last
 *   checkpoint. A job found stalled more than `maxStalledCount` times fails; then, as for a job
 *   whose last attempt failed, the run's end is logged with the reason (`end-job-run.ts`), so a
 *   follower does not wait for ever.
 * - **One run per session.** The session's lease still holds: a job whose session another holder
 *   has waits for it (`lockWaitMs`).
 * - **Shutdown.** `close()` stops taking jobs; runs still going get `graceMs` to finish, then are
 *   suspended between two steps (their last checkpoint is where another worker goes on, with
 *   nothing to redo) and their jobs handed back; the sessions' leases are let go.
 */
import type { Job } from "bullmq";
import { bullmq } from "./bullmq.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { Durability } from "../durable/session.js";
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import { takeMemoryStore } from "../memories/scope.js";
import { MemoryStoreError } from "../backends/errors.js";
import type { MemoryStore, CancelSignals, CheckpointStore } from "../backends/contracts.js";
import type { ComponentPolicy } from "../policy/policy.js";
import { endJobRun } from "./end-job-run.js";
import { readRunJob, RUN_JOB_NAME, type RunJobData } from "./job.js";
import { processRunJob, type JobRunnerContext } from "./process-job.js";
import type { RunJobResult } from "./run-end.js";
import { trustsCode, UNTRUSTED_CODE_ONLY } from "../sandbox/code/trust.js";
import { bullConnection, bullPrefix, RunQueue, RunQueueError, serverRunBackends, stalledKey, type RunQueueOptions } from "./run-queue.js";

export interface CreateWorkerOptions extends RunQueueOptions {
  /**
   * The durable store and cancel signals (default: those of `canvasflow serve --redis` on the same
   * Redis and prefix, which this worker then owns).
   */
  store?: CheckpointStore;
  cancel?: CancelSignals;
  /** Components the canvases may use (default: the built-ins and those registered globally). */
  registry?: ComponentRegistry;
  /**
   * Engine options and services (LLM providers, tools) of every run. A `memories` service must be
   * a MemoryStore: each job's run gets the memories of the tenant the job names ("default" when
   * it names none).
   */
  canvas?: CanvasRuntimeOptions;
  /**
   * The servers' component policy (`ComponentPolicy.resolve` of the config's `server.policy`):
   * a run whose session's DSL uses what it denies the job's tenant ends at once, failed, with
   * the message the server gives (default: none).
   */
  policy?: ComponentPolicy;
  /** When checkpoints are written (default: the store's; sync for Redis). Not `exit`. */
  durability?: Durability;
  /** Runs at once on this worker (default 4; the work is mostly waiting on I/O). */
  concurrency?: number;
  /** Times a job is handed on after its worker died; one more death fails it (default 1, BullMQ's). */
  maxStalledCount?: number;
  /** How long a job's lock lives unless its worker renews it: how soon a dead worker's job is noticed (default 30 000 ms). */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs (default half of `lockDurationMs`). */
  stalledIntervalMs?: number;
  /** How long a job waits for its session's lease (default 20 000 ms: a dead holder's 15 s lease runs out). */
  lockWaitMs?: number;
  /** How long a job waits before it looks again at a session that another job's unfinished run holds (default 1000 ms). */
  deferMs?: number;
  /** On `close()`: how long runs get to finish before they are suspended (default 30 000 ms). */
  graceMs?: number;
  /** This worker's name on its jobs (default: host and pid). */
  name?: string;
  /** Problems that end no run: a lost connection, a give-up that could not be logged. */
  onError?: (error: Error) => void;
  /** Each job's end (what it returned, or why it failed), e.g. for a log line. */
  onJobEnd?: (jobId: string, outcome: RunJobResult | { status: "job failed"; error: string }) => void;
}

export interface RunWorker {
  readonly name: string;
  /** Jobs being worked on now. */
  readonly active: number;
  /**
   * Stop taking jobs; let the runs still going finish within `graceMs` (default: the option's),
   * then suspend them and hand their jobs back; let the sessions go and close the connections.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Start a worker: resolves once it takes jobs. Rejects with RunQueueError, naming the server, when
 * Redis cannot be reached (checked first, with bounded timeouts: BullMQ itself waits for ever).
 */
export async function createWorker(options: CreateWorkerOptions): Promise<RunWorker> {
  const numbers = {
    concurrency: positiveInteger("concurrency", options.concurrency ?? 4),
    maxStalledCount: wholeNumber("maxStalledCount", options.maxStalledCount ?? 1),
    lockDurationMs: positiveInteger("lockDurationMs", options.lockDurationMs ?? 30_000),
    lockWaitMs: wholeNumber("lockWaitMs", options.lockWaitMs ?? 20_000),
    deferMs: wholeNumber("deferMs", options.deferMs ?? 1000),
    graceMs: wholeNumber("graceMs", options.graceMs ?? 30_000),
  };
  const stalledIntervalMs = positiveInteger("stalledIntervalMs", options.stalledIntervalMs ?? Math.max(1, Math.floor(numbers.lockDurationMs / 2)));
  if (trustsCode(options.canvas?.services?.codeExec)) throw new RunQueueError(`canvas.services.codeExec.trustCode is true, but ${UNTRUSTED_CODE_ONLY}`);
  if (options.durability === "exit") throw new RunQueueError("durability exit writes nothing until a run ends, so a worker's death would lose the whole run: choose sync or async");
  if ((options.store === undefined) !== (options.cancel === undefined)) throw new RunQueueError("pass both store and cancel, or neither (then the server's layout on the same Redis is used)");
  // Taken out of the shared services: each job's run gets its tenant's memories (process-job.ts).
  let memories: { options: CanvasRuntimeOptions; store: MemoryStore | undefined };
  try {
    memories = takeMemoryStore(options.canvas ?? {}, "canvas.services.memories");
  } catch (error) {
    if (error instanceof MemoryStoreError) throw new RunQueueError(error.message);
    throw error;
  }
  const queue = new RunQueue(options);
  try {
    await queue.ping();
  } catch (error) {
    await queue.close().catch(() => undefined);
    throw error;
  }
  const owned = options.store === undefined ? serverRunBackends(queue.names) : undefined;
  const store = options.store ?? owned!.store;
  const cancel = options.cancel ?? owned!.cancel;
  const onError = options.onError ?? (() => undefined);
  const name = options.name ?? `${process.env.HOSTNAME ?? "worker"}:${process.pid}`;
  const suspend = new AbortController();
  const ctx: JobRunnerContext = {
    names: queue.names,
    store,
    cancel,
    registry: options.registry,
    canvas: memories.options,
    ...(memories.store ? { memories: memories.store } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
    durability: options.durability,
    lockWaitMs: numbers.lockWaitMs,
    deferMs: numbers.deferMs,
    suspend: suspend.signal,
    async jobWillRun(jobId) {
      const state = await queue.queue.getJobState(jobId);
      return state !== "completed" && state !== "failed" && state !== "unknown";
    },
  };
  let active = 0;
  const worker = new (bullmq().Worker)<RunJobData, RunJobResult, typeof RUN_JOB_NAME>(
    queue.name,
    async (job, token) => {
      active++;
      try {
        return await processRunJob(job, token, ctx);
      } finally {
        active--;
      }
    },
    {
      connection: bullConnection(queue.names),
      prefix: bullPrefix(queue.names),
      name,
      concurrency: numbers.concurrency,
      maxStalledCount: numbers.maxStalledCount,
      lockDuration: numbers.lockDurationMs,
      stalledInterval: stalledIntervalMs,
    },
  );
  const givingUp = new Set<Promise<void>>();
  worker.on("error", (error) => onError(error));
  // The check that found it runs in one worker only: each stall is counted once.
  worker.on("stalled", () => void queue.redis.incr(stalledKey(queue.names)).catch((error: Error) => onError(error)));
  worker.on("completed", (job, result) => options.onJobEnd?.(job.id!, result));
  worker.on("failed", (job, error) => {
    if (!job) return;
    const done = giveUp(job, error).catch((failure: Error) => onError(failure));
    givingUp.add(done);
    void done.finally(() => givingUp.delete(done));
  });

  /** A job that failed for good: log its run's end in the session. */
  async function giveUp(job: Job, error: Error): Promise<void> {
    if ((await job.getState()) !== "failed") return; // it will be tried again
    const reason = failureReason(job, error, numbers.maxStalledCount);
    options.onJobEnd?.(job.id!, { status: "job failed", error: reason });
    let data: RunJobData;
    try {
      data = readRunJob(job.data);
    } catch {
      return; // not a run job: there is no session to tell
    }
    await endJobRun(job.id!, data, reason, "failed", { store, registry: options.registry, canvas: memories.options, lockWaitMs: numbers.lockWaitMs });
  }

  await worker.waitUntilReady();
  let closing: Promise<void> | undefined;
  return {
    name,
    get active() {
      return active;
    },
    close(closeOptions = {}) {
      closing ??= (async () => {
        const graceMs = wholeNumber("graceMs", closeOptions.graceMs ?? numbers.graceMs);
        const timer = setTimeout(() => suspend.abort(), graceMs);
        try {
          await worker.close();
        } finally {
          clearTimeout(timer);
        }
        await Promise.allSettled([...givingUp]);
        await queue.close();
        await owned?.close();
      })();
      return closing;
    },
  };
}

/** Why a job failed for good, in words for the run's last event. */
function failureReason(job: Job, error: Error, maxStalledCount: number): string {
  if (error.message === "job stalled more than allowable limit") {
    return (
      `the run was given up: the worker running it died ${maxStalledCount + 1} times ` +
      `(a run is handed to another worker after its worker dies, ${maxStalledCount} time${maxStalledCount === 1 ? "" : "s"} at most: maxStalledCount)`
    );
  }
  const attempts = job.attemptsMade;
  return `the run could not be completed: ${error.message}${attempts > 1 ? ` (${attempts} attempts)` : ""}`;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RunQueueError(`${name} must be a whole number from 1, got ${String(value)}`);
  return value;
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RunQueueError(`${name} must be a whole number from 0, got ${String(value)}`);
  return value;
}
