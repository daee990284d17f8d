/**
 * Put a turn on the run queue: the session it runs in (created here from `dsl` when it is new, so
 * a bad DSL is refused here and not in a worker) and the turn's request. Any worker takes it.
 */
import { randomUUID } from "node:crypto";
import { trace } from "@opentelemetry/api";
import type { ComponentRegistry } from "../components/registry.js";
import { createSessionIfAbsent } from "../durable/create.js";
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import type { CheckpointStore } from "../backends/contracts.js";
import { readRunJob, RUN_JOB_FORMAT, RUN_JOB_NAME, type RunJobData } from "./job.js";
import { RunQueueError, type RunQueue } from "./run-queue.js";
import { traceCarrierOf } from "../tracing/w3c.js";

export interface QueuedRunRequest {
  /** The durable session's key. */
  session: string;
  /** The canvas of a new session (a path, JSON text or a DSL object); the session is created from it unless it exists. Left out, the session must exist. */
  dsl?: string | object;
  query?: string;
  inputs?: Record<string, unknown>;
  files?: unknown[];
  userId?: string;
  tenant?: string;
  agent?: string;
  /**
   * The run's parent span as a W3C carrier (a server's request span), kept in the job's data so
   * the worker's run joins that trace. Left out: the span active when enqueueRun is called, if any.
   */
  traceContext?: { traceparent: string; tracestate?: string };
}

export interface EnqueueOptions {
  queue: RunQueue;
  /** The store the workers run sessions in. */
  store: CheckpointStore;
  /** Components a new session's DSL may use (default: the built-ins and those registered globally). */
  registry?: ComponentRegistry;
  /** Engine options of a new session (`taskId`: a server makes it the session id). */
  canvas?: CanvasRuntimeOptions;
  /**
   * Times a job is tried when it fails for a reason that may pass (Redis away, the session's lease
   * held too long), with exponential backoff from `backoffMs` (defaults 3 and 1000). A worker that
   * dies is another matter: see the worker's `maxStalledCount`.
   */
  attempts?: number;
  backoffMs?: number;
  /** The job's id, which is also the run's message id (default: a random UUID). Unique per run. */
  jobId?: string;
}

export interface EnqueuedRun {
  /** The job's id: also the run's message id (`followEvents(store, session, { after, messageId })`). */
  jobId: string;
  session: string;
  /** The session's last logged event before this run (undefined when it logged none). */
  after: string | undefined;
  /** Whether the session was created for this turn. */
  created: boolean;
}

const KEEP_COMPLETED = { age: 3600, count: 10_000 };
const KEEP_FAILED = { age: 7 * 24 * 3600 };

export async function enqueueRun(request: QueuedRunRequest, options: EnqueueOptions): Promise<EnqueuedRun> {
  const attempts = options.attempts ?? 3;
  const backoffMs = options.backoffMs ?? 1000;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RunQueueError(`attempts must be a whole number from 1, got ${String(options.attempts)}`);
  if (!Number.isFinite(backoffMs) || backoffMs < 0) throw new RunQueueError(`backoffMs must be a number of milliseconds from 0, got ${String(options.backoffMs)}`);
  const jobId = options.jobId ?? randomUUID();
  if (typeof jobId !== "string" || !/^[A-Za-z0-9_-]{1,128}$/.test(jobId)) throw new RunQueueError(`jobId must be 1 to 128 letters, digits, '-' or '_', got ${JSON.stringify(options.jobId)}`);
  const { session, dsl, traceContext, ...turn } = request;
  const parent = traceContext ?? traceCarrierOf(trace.getActiveSpan()?.spanContext());
  // Checked before anything is written: a job the workers would refuse never goes on the queue.
  const data: RunJobData = readRunJob(withoutUndefined({ v: RUN_JOB_FORMAT, session, ...turn, traceparent: parent?.traceparent, tracestate: parent?.tracestate }));
  const created = dsl === undefined ? false : await createSessionIfAbsent(options.store, session, dsl, { registry: options.registry, canvas: options.canvas });
  const after = await options.store.lastEventId(session);
  if (after !== undefined) data.after = after;
  await options.queue.queue.add(RUN_JOB_NAME, data, {
    jobId,
    attempts,
    backoff: { type: "exponential", delay: backoffMs },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  });
  await options.queue.rememberJob(session, jobId);
  return { jobId, session, after, created };
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
