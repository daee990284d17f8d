/**
 * The run state of a deleted agent's sessions (checkpoints, event log, lease, cancel flag) goes
 * with it, including a session running a turn right now: that run is cancelled, wherever it runs,
 * and its turn deletes its run state when it ends and finds its session's record gone
 * (`removeOrphanRunState`). Left behind, the run state made the owner's own session id answer
 * 103 "Only authorized users…" (a run state without a record reads as another tenant's session).
 */
import { SessionLockedError } from "../backends/errors.js";
import type { ServerContext } from "./context.js";

const AGENT_DELETED = "cancelled: the agent was deleted";

/** After the agent and its session records were deleted: delete each session's run state, or cancel its run. */
export async function removeRunStates(ctx: ServerContext, sessionIds: readonly string[]): Promise<void> {
  for (const id of sessionIds) {
    try {
      if (await deleteRunState(ctx, id)) continue;
      // A run holds the session: stop it (here at once, elsewhere through the store's signals);
      // its turn deletes the run state when it ends.
      ctx.runs.abort(id, AGENT_DELETED);
      await ctx.store.cancel.request(id);
      // It may have ended before it heard the cancel: then nobody else removes what is left.
      if (await deleteRunState(ctx, id)) continue;
    } catch (error) {
      ctx.log.warn({ err: error, session: id }, "the run state of a deleted agent's session was kept");
    }
  }
}

/** A turn ended on a session whose record is gone (its agent was deleted while it ran): its run state goes too. */
export async function removeOrphanRunState(ctx: ServerContext, sessionId: string): Promise<void> {
  try {
    await deleteRunState(ctx, sessionId);
  } catch (error) {
    ctx.log.warn({ err: error, session: sessionId }, "the run state of a deleted agent's session was kept");
  }
}

/** Delete the run state and its cancel flag; false while a run holds the session's lease. */
async function deleteRunState(ctx: ServerContext, id: string): Promise<boolean> {
  try {
    await ctx.store.runs.delete(id);
  } catch (error) {
    if (error instanceof SessionLockedError) return false;
    throw error;
  }
  await ctx.store.cancel.clear(id);
  return true;
}
