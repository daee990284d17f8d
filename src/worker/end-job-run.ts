/**
 * Log the end of a queued run that will not run (any more): a job cancelled while it waited, or a
 * job given up (it kept killing its workers, or failed its last attempt). The session's event log
 * gets the run's workflow_finished with the reason, so whoever follows the run sees it end; a run
 * under way ends as failed or cancelled (the next turn starts before it). Nothing happens when the
 * log already holds the run's end, or the session is gone.
 */
import type { ComponentRegistry } from "../components/registry.js";
import { SessionNotFoundError } from "../durable/session.js";
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import type { CheckpointStore } from "../backends/contracts.js";
import type { RunJobData } from "./job.js";
import { openWhenFree } from "./open-session.js";
import { loggedRunEnd } from "./run-end.js";

interface EndJobRunContext {
  store: CheckpointStore;
  registry?: ComponentRegistry;
  canvas?: CanvasRuntimeOptions;
  /** How long to wait for the session's lease. */
  lockWaitMs: number;
}

/** Resolves to the logged end's id, or undefined when there was nothing to end. */
export async function endJobRun(jobId: string, data: RunJobData, reason: string, as: "failed" | "cancelled", ctx: EndJobRunContext): Promise<string | undefined> {
  let session;
  try {
    session = await openWhenFree({ store: ctx.store, key: data.session, registry: ctx.registry, canvas: ctx.canvas }, ctx.lockWaitMs);
  } catch (error) {
    if (error instanceof SessionNotFoundError) return undefined;
    throw error;
  }
  try {
    if (await loggedRunEnd(ctx.store, data.session, jobId, data.after)) return undefined;
    return (await session.abandon(reason, { as, messageId: jobId })).id;
  } finally {
    await session.close();
  }
}
