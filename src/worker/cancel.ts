/**
 * Cancel a queued run, by its job id or by its session (its latest job), from any process:
 *
 * - a job still waiting (or delayed) is taken off the queue, and the session's log gets the run's
 *   workflow_finished error "cancelled", so whoever follows it sees it end;
 * - a job a worker has taken is told through the job's cancel flag, which that worker watches
 *   from before it opens the session: its run ends with workflow_finished error "cancelled".
 *
 * The flag is set before the job is taken off, so a job a worker takes in between still hears it.
 */
import type { ComponentRegistry } from "../components/registry.js";
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import type { CancelSignals, CheckpointStore } from "../backends/contracts.js";
import { endJobRun } from "./end-job-run.js";
import { readRunJob } from "./job.js";
import { jobCancelId, type RunQueue } from "./run-queue.js";

export interface CancelQueuedRunOptions {
  queue: RunQueue;
  /** The store the workers run sessions in. */
  store: CheckpointStore;
  /** Where the workers hear cancels (the same Redis). */
  cancel: CancelSignals;
  /** The components the sessions' canvases use: a removed job's session is opened to log its end. */
  registry?: ComponentRegistry;
  canvas?: CanvasRuntimeOptions;
  /** How long to wait for the session's lease to log the end of a removed job (default 20 s). */
  lockWaitMs?: number;
}

export interface CancelledRun {
  /**
   * `removed`: it had not started and never will; `signalled`: a worker has it and stops it;
   * `finished`: it had already ended; `none`: no such job (or none for the session in the last day).
   */
  outcome: "removed" | "signalled" | "finished" | "none";
  jobId?: string;
}

export async function cancelQueuedRun(target: { jobId: string } | { session: string }, options: CancelQueuedRunOptions): Promise<CancelledRun> {
  const { queue } = options;
  const jobId = "jobId" in target ? target.jobId : await queue.latestJob(target.session);
  if (jobId === undefined) return { outcome: "none" };
  const job = await queue.queue.getJob(jobId);
  if (!job) return { outcome: "none", jobId };
  const state = await job.getState();
  if (state === "completed" || state === "failed") return { outcome: "finished", jobId };
  await options.cancel.request(jobCancelId(queue.names, jobId));
  if (state === "active") return { outcome: "signalled", jobId };
  try {
    await job.remove();
  } catch {
    // A worker took it meanwhile (a job it holds cannot be removed): it hears the flag.
    return { outcome: "signalled", jobId };
  }
  await endJobRun(jobId, readRunJob(job.data), "cancelled", "cancelled", {
    store: options.store,
    registry: options.registry,
    canvas: options.canvas,
    lockWaitMs: options.lockWaitMs ?? 20_000,
  });
  return { outcome: "removed", jobId };
}
