/**
 * A turn run by a queue worker (`serve --queue`): the same `Turn` as one run in this process
 * (turn.ts), so every transport (SSE, a JSON answer, WebSocket) serves it unchanged.
 *
 * `startQueuedTurn` makes every check that can refuse the turn (the agent, the key's and the
 * server's run slots, the session, one run per session), creates a new session's run state from
 * the agent's DSL with the session id as its task id, and enqueues the turn (`enqueueRun`). Its
 * `events` then follow the run's events in the session's log (`followEvents` with the job's id as
 * message id), whichever worker runs it, to its last event. A job that ends without one (it failed
 * before its run could start) ends the stream with a workflow_finished naming why (job-watch.ts).
 *
 * Stopping the turn (a cancel, the client gone, the wall-clock limit, the server closing) cancels
 * the job (`cancelQueuedRun`): taken off the queue if it waits, the durable cancel if a worker has
 * it; the follower reads on to the run's cancelled end.
 */
import type { SessionEvent } from "./transcript.js";
import { cancelQueuedRun, enqueueRun, type EnqueuedRun } from "../worker/index.js";
import { followEvents } from "../durable/follow.js";
import type { CanvasEventOf } from "../engine/events.js";
import { newId, type ServerContext } from "./context.js";
import { JobWatch } from "./job-watch.js";
import { createQueuedSession, findSession, refuseFullSession, runInProgress } from "./sessions.js";
import { tenantCanvas } from "./tenant-canvas.js";
import type { AgentRecord, SessionRecord } from "../backends/contracts.js";
import { TurnTranscript } from "./transcript.js";
import { addMessages, clientEvent, giveBack, outcomeOf, RunDeadline, TurnEndHold, turnAgent, type Turn, type TurnInput } from "./turn.js";
import type { RunQueue } from "../worker/run-queue.js";
import { once } from "../util/once.js";

/** Job states in which a session's latest job is still to run or running. */
const UNDER_WAY = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);

export async function startQueuedTurn(ctx: ServerContext, queue: RunQueue, input: TurnInput): Promise<Turn> {
  const agent = await turnAgent(ctx, input);
  const giveSlotsBack = await ctx.admission.admit(input.caller, newId());
  const controller = new AbortController();
  let record: SessionRecord | undefined;
  let claimed = false;
  let enqueued: EnqueuedRun;
  let newSession = false;
  try {
    if (input.sessionId === undefined) {
      record = await createQueuedSession(ctx, input.tenant, agent, { userId: input.userId ?? input.tenant, name: input.name ?? "" });
      newSession = true;
    } else {
      record = await findSession(ctx, input.tenant, agent.id, input.sessionId);
      refuseFullSession(ctx, record);
    }
    claimed = ctx.runs.claim(record.id, controller);
    // This process follows a turn of it, or another server's turn of it is queued or running.
    if (!claimed || (!newSession && (await sessionBusy(queue, record.id)))) throw runInProgress();
    enqueued = await enqueueRun(
      {
        session: record.id,
        // A session whose run state is gone starts over from the agent (as in-process turns do).
        ...(newSession ? {} : { dsl: agent.dsl }),
        query: input.query,
        ...(input.inputs !== undefined ? { inputs: input.inputs } : {}),
        ...(input.files !== undefined ? { files: input.files } : {}),
        userId: input.userId ?? record.user_id,
        tenant: input.tenant,
        agent: agent.id,
        // The worker's run is a child of this request's span: one trace across the queue.
        ...(input.traceContext ? { traceContext: input.traceContext } : {}),
      },
      { queue, store: ctx.store.runs, registry: ctx.registry, canvas: tenantCanvas(ctx, input.tenant, { taskId: record.id, userId: record.user_id }), ...(input.runIdOf ? { jobId: input.runIdOf(record.id) } : {}) },
    );
  } catch (error) {
    if (claimed) ctx.runs.release(record!.id, controller);
    await giveBack(ctx, giveSlotsBack);
    throw error;
  }
  ctx.runs.nameRun(record.id, controller, enqueued.jobId);
  const transcript = new TurnTranscript();
  const sessionId = record.id;
  let started = false;
  const release = once(async () => {
    ctx.runs.release(sessionId, controller);
    await giveBack(ctx, giveSlotsBack);
  });
  const follow = { ctx, queue, input, record, agent, enqueued, controller, transcript };
  return {
    sessionId,
    agent,
    newSession,
    transcript,
    events: followTurn(follow, () => (started = true), release),
    stop: (reason) => controller.abort(new Error(reason)),
    // The job stays queued: a turn given up before its events were read is cancelled.
    abandon: async () => {
      if (started) return;
      controller.abort(new Error("the response could not be started"));
      await cancelJob(follow);
      await release();
    },
  };
}

/** Whether the session's latest job (from any server) is still to run or running. */
async function sessionBusy(queue: RunQueue, sessionId: string): Promise<boolean> {
  const jobId = await queue.latestJob(sessionId);
  if (jobId === undefined) return false;
  return jobUnderWay(queue, jobId);
}

/** Whether the job is on the queue, still to run or running (false: ended, or no such job). */
export async function jobUnderWay(queue: RunQueue, jobId: string): Promise<boolean> {
  return UNDER_WAY.has(await queue.queue.getJobState(jobId));
}

interface Following {
  ctx: ServerContext;
  queue: RunQueue;
  input: TurnInput;
  record: SessionRecord;
  agent: AgentRecord;
  enqueued: EnqueuedRun;
  controller: AbortController;
  transcript: TurnTranscript;
}

async function cancelJob({ ctx, queue, enqueued }: Following): Promise<void> {
  try {
    await cancelQueuedRun({ jobId: enqueued.jobId }, { queue, store: ctx.store.runs, cancel: ctx.store.cancel, registry: ctx.registry, canvas: ctx.canvas });
  } catch (error) {
    ctx.log.error({ err: error, session: enqueued.session }, "a queued run could not be cancelled");
  }
}

async function* followTurn(f: Following, onStart: () => void, release: () => Promise<void>): AsyncGenerator<SessionEvent, void, undefined> {
  onStart();
  const { ctx, input, record, enqueued, controller, transcript } = f;
  const sessionId = record.id;
  const log = (input.log ?? ctx.log).child({ session: sessionId, agent: record.agent_id, job: enqueued.jobId });
  const startedAt = performance.now();
  const deadline = new RunDeadline(controller, ctx.limits.runMs);
  // Stopping cancels the job; the follower reads on to the run's (cancelled) end.
  let cancelling: Promise<void> | undefined;
  const onAbort = () => (cancelling ??= cancelJob(f));
  if (controller.signal.aborted) onAbort();
  else controller.signal.addEventListener("abort", onAbort, { once: true });
  const watch = new JobWatch(f.queue, enqueued.jobId);
  ctx.metrics.runStarted();
  log.info({ tenant: record.tenant }, "run queued");
  let steps = 0;
  try {
    const logged = followEvents(ctx.store.runs, sessionId, {
      ...(enqueued.after !== undefined ? { after: enqueued.after } : {}),
      messageId: enqueued.jobId,
      running: () => watch.running(),
      ...(ctx.jobEnds ? { wait: ctx.jobEnds.waitFor(enqueued.jobId) } : {}),
    });
    // The turn's messages are added to the session's record before its last events go out (as
    // in-process, turn.ts): the worker that ran it does not hold the session's record.
    const held = new TurnEndHold();
    try {
      for await (const { event } of logged) {
        const sent = clientEvent(ctx, event, sessionId, transcript, { timedOut: deadline.timedOut, returnTrace: input.returnTrace === true });
        if (sent.event === "node_finished") steps++;
        yield* held.pass(sent);
      }
    } catch (error) {
      yield* held.release();
      throw error;
    }
    if (!transcript.finished && !transcript.paused) {
      yield* held.release();
      const end = missingEnd(f, watch.endOf());
      log.warn({ reason: end.data.error }, "a queued run ended without its last event in the log");
      transcript.add(end);
      yield end;
    } else {
      if (transcript.paused || transcript.error === undefined) {
        try {
          await addMessages(ctx, record, input.query, transcript);
        } catch (error) {
          ctx.log.error({ err: error, session: sessionId }, "could not add the turn to the session's messages");
        }
      }
      yield* held.release();
    }
    if (input.afterRun) await input.afterRun({ transcript, steps });
  } finally {
    deadline.clear();
    ctx.jobEnds?.forget(enqueued.jobId);
    controller.signal.removeEventListener("abort", onAbort);
    await cancelling;
    const status = transcript.paused ? "paused" : transcript.finished && transcript.error === undefined ? "idle" : transcript.error === "cancelled" ? "cancelled" : "failed";
    const outcome = outcomeOf(status, deadline.timedOut);
    ctx.metrics.runEnded(outcome);
    log.info({ outcome: "finished" in outcome ? outcome.finished : outcome.failed, steps, elapsed_ms: Math.round(performance.now() - startedAt) }, "run ended");
    await release();
  }
}

/** The workflow_finished of a run whose job ended without logging one. */
function missingEnd(f: Following, error: string): CanvasEventOf<"workflow_finished"> & { session_id: string } {
  const now = Math.floor(Date.now() / 1000);
  const usage = f.transcript.finished?.data.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 };
  return {
    event: "workflow_finished",
    message_id: f.enqueued.jobId,
    created_at: f.transcript.last?.created_at ?? now,
    task_id: f.record.id,
    data: { inputs: f.input.inputs ?? {}, outputs: {}, elapsed_time: 0, created_at: f.transcript.last?.created_at ?? now, usage, error },
    session_id: f.record.id,
  };
}
