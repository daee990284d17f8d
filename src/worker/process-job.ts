/**
 * One run job on a worker: open the job's session (waiting out another holder's lease), run the
 * turn with the durable checkpointer, its events to the session's log as they happen, and return
 * how it ended. At-least-once, made exact where the log can tell:
 *
 * - a job delivered again whose run's end is already logged returns that end (no second turn);
 * - a job whose run is under way (its worker died) continues it from its last checkpoint
 *   (workflow_resumed names the steps that run again);
 * - a session with another job's run under way waits for that job (the job is delayed) while a
 *   worker may still take it; otherwise this job continues that run first, then runs its own turn;
 * - a cancel for the job (cancelQueuedRun) reaches it wherever it is, even before its run starts;
 * - a worker shutting down suspends the run between two steps and hands the job back;
 * - a session whose DSL uses what the component policy denies the job's tenant ends the run at
 *   once, failed, with the server's refusal message (the session may predate the policy).
 */
import type { Job } from "bullmq";
import { bullmq } from "./bullmq.js";
import { CanvasValidationError } from "../api.js";
import type { ComponentRegistry } from "../components/registry.js";
import { endsRun } from "../durable/follow.js";
import { SessionNotFoundError, type DurableSession, type Durability } from "../durable/session.js";
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import type { CanvasEvent } from "../engine/events.js";
import { withTenantMemories } from "../memories/scope.js";
import { DEFAULT_MEMORY_TENANT } from "../backends/shared/memories.js";
import type { MemoryStore, CancelSignals, CheckpointStore } from "../backends/contracts.js";
import { policyRefusalMessage, type ComponentPolicy } from "../policy/policy.js";
import { readRunJob, RunJobError, type RunJobData } from "./job.js";
import { openWhenFree } from "./open-session.js";
import { loggedRunEnd, resultOf, type RunJobResult } from "./run-end.js";
import { jobCancelId, type QueueNames } from "./run-queue.js";

export interface JobRunnerContext {
  names: QueueNames;
  store: CheckpointStore;
  cancel: CancelSignals;
  registry?: ComponentRegistry;
  /** Engine options of every run, without memories. */
  canvas?: CanvasRuntimeOptions;
  /** The memory store: each job's run gets the memories of the job's tenant from it. */
  memories?: MemoryStore;
  /** What the job's tenant may run (none: everything). */
  policy?: ComponentPolicy;
  durability?: Durability;
  /** How long a job waits for its session's lease. */
  lockWaitMs: number;
  /** How long a job waits before it looks again at a session another job's run holds. */
  deferMs: number;
  /** Aborted when the worker must stop: runs are suspended between two steps. */
  suspend: AbortSignal;
  /** Whether a worker may still take this job (waiting, delayed or active). */
  jobWillRun(jobId: string): Promise<boolean>;
}

export async function processRunJob(job: Job, token: string | undefined, ctx: JobRunnerContext): Promise<RunJobResult> {
  const data = checkedData(job);
  const messageId = job.id!;
  const cancelled = new AbortController();
  const stopWatching = await ctx.cancel.watch(jobCancelId(ctx.names, messageId), () => cancelled.abort(new Error("cancelled")));
  let outcome: RunJobResult | "hand back" | "wait for its job";
  try {
    const session = await open(ctx, data);
    try {
      outcome = await runJob(session, data, messageId, cancelled.signal, ctx);
    } finally {
      await session.close();
    }
  } finally {
    await stopWatching();
  }
  // Handed back only once the session's lease is let go, so the next worker can take it at once;
  // BullMQ counts neither as a failed attempt.
  if (outcome === "hand back") {
    await job.moveToWait(token);
    throw new (bullmq().WaitingError)();
  }
  if (outcome === "wait for its job") {
    await job.moveToDelayed(Date.now() + ctx.deferMs, token);
    throw new (bullmq().DelayedError)();
  }
  return outcome;
}

async function runJob(session: DurableSession, data: RunJobData, messageId: string, signal: AbortSignal, ctx: JobRunnerContext): Promise<RunJobResult | "hand back" | "wait for its job"> {
  const ended = await loggedRunEnd(ctx.store, data.session, messageId, data.after);
  if (ended) return resultOf(ended);
  const denials = ctx.policy?.denials(session.canvas.compiledGraph, data.tenant) ?? [];
  if (denials.length > 0) return resultOf(await session.abandon(policyRefusalMessage(denials), { as: "failed", messageId }));
  const underWay = session.canvas.runMessageId;
  if (underWay !== undefined && underWay !== messageId) {
    // Another turn's run died mid-way. Its own job continues it, if a worker may still take it.
    if (await ctx.jobWillRun(underWay)) return "wait for its job";
    if (!(await runToEnd(session, { suspend: ctx.suspend }))) return "hand back";
  }
  if (signal.aborted) return resultOf(await session.abandon("cancelled", { as: "cancelled", messageId }));
  const last = await runToEnd(session, {
    ...(data.query !== undefined ? { query: data.query } : {}),
    ...(data.inputs !== undefined ? { inputs: data.inputs } : {}),
    ...(data.files !== undefined ? { files: data.files } : {}),
    ...(data.userId !== undefined ? { userId: data.userId } : {}),
    // The run's span joins the trace of the request that enqueued it.
    ...(data.traceparent !== undefined ? { traceContext: { traceparent: data.traceparent, ...(data.tracestate !== undefined ? { tracestate: data.tracestate } : {}) } } : {}),
    messageId,
    signal,
    suspend: ctx.suspend,
  });
  if (!last) return "hand back";
  // Its end is not stored (the store went away), so the log lacks it: a later attempt goes on from the last checkpoint.
  if (!session.lastRunSaved) throw new Error(`the run's end could not be stored: ${(last.event.data as { error?: string }).error ?? "unknown reason"}`);
  return resultOf(last);
}

/** The run's events to its end (the log gets them); its last event, or undefined when it was suspended. */
async function runToEnd(session: DurableSession, request: Parameters<DurableSession["stream"]>[0]): Promise<{ id: string; event: CanvasEvent } | undefined> {
  let last: { id: string; event: CanvasEvent } | undefined;
  for await (const logged of session.stream(request)) last = logged;
  return last && endsRun(last.event as unknown as Record<string, unknown>) ? last : undefined;
}

function checkedData(job: Job): RunJobData {
  try {
    return readRunJob(job.data);
  } catch (error) {
    if (error instanceof RunJobError) throw new (bullmq().UnrecoverableError)(`job ${job.id}: ${error.message}`);
    throw error;
  }
}

async function open(ctx: JobRunnerContext, data: RunJobData): Promise<DurableSession> {
  const key = data.session;
  // The job says whose run it is (the server puts the API key's tenant there); none: "default".
  const canvas = withTenantMemories(ctx.canvas ?? {}, ctx.memories, data.tenant ?? DEFAULT_MEMORY_TENANT);
  try {
    return await openWhenFree(
      { store: ctx.store, key, registry: ctx.registry, canvas, durability: ctx.durability, cancel: ctx.cancel, liveEvents: true },
      ctx.lockWaitMs,
    );
  } catch (error) {
    // No later attempt can do better: the job names a session that is not there, or a canvas this worker cannot run.
    if (error instanceof SessionNotFoundError) throw new (bullmq().UnrecoverableError)(error.message);
    if (error instanceof CanvasValidationError) throw new (bullmq().UnrecoverableError)(`session "${key}": its canvas cannot run on this worker: ${error.message}`);
    throw error;
  }
}
