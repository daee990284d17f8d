/**
 * Dify's runs and what the session store keeps of each. A run's id (its events' message_id;
 * Dify's task_id and workflow_run_id) is its session's id and a random suffix (run-ids.ts), so the
 * stop endpoints and GET /v1/workflows/run/{id} find the session from the id alone, in any server
 * process, and only within the caller's tenant. When a run ends, its summary (status, inputs,
 * outputs, times, tokens, steps) is kept on the turn's answer in the session's messages; a run
 * that ended without an answer (failed, stopped) gets its turn recorded with an empty answer.
 *
 * An id whose prefix is a session's is not yet a run of it: a run without a kept summary is found
 * as in flight only from what says it is (runState), never assumed, so a made-up id is not found
 * and stopping one does not stop the session's real run.
 */
import { endsRun } from "../../durable/follow.js";
import type { CanvasEventOf } from "../../engine/events.js";
import type { StoredEvent, RunSummary, SessionMessage, SessionRecord } from "../../backends/contracts.js";
import type { ServerContext } from "../context.js";
import { jobUnderWay } from "../queued-turn.js";
import { sessionOfRun } from "../run-ids.js";
import { runStatus } from "./events.js";

/** A run of the session: ended (with its summary) or in flight (no summary yet). */
interface FoundRun {
  record: SessionRecord;
  summary: RunSummary | undefined;
}

/** The run, when it is the tenant's, of this app and user, and the session really made it. */
export async function findRun(ctx: ServerContext, tenant: string, agentId: string, runId: string, user?: string): Promise<FoundRun | undefined> {
  const sessionId = sessionOfRun(runId);
  if (!sessionId) return undefined;
  const record = await ctx.store.sessions.get(tenant, sessionId);
  if (!record || record.agent_id !== agentId || (user !== undefined && record.user_id !== user)) return undefined;
  const answer = record.message.find((m) => m.id === runId && m.role === "assistant");
  if (answer?.run) return { record, summary: answer.run };
  const state = await runState(ctx, sessionId, runId);
  if (state === undefined) return undefined;
  return { record, summary: state === "running" ? undefined : state };
}

/**
 * What says a run without a kept summary exists, cheapest first: this process runs (or follows)
 * it; under `serve --queue`, its job (the job id is the run id) waits or runs; else the session's
 * latest run in its event log is it (another process runs it, or it ended and its summary is not
 * kept yet: then its workflow_finished gives the summary). A run of another process is in the log
 * from its first checkpoint on (its first step, in an instant with the stores' default
 * durability). Nothing: the session never made a run of that id.
 */
async function runState(ctx: ServerContext, sessionId: string, runId: string): Promise<"running" | RunSummary | undefined> {
  if (ctx.runs.runOf(sessionId) === runId) return "running";
  if (ctx.queue && (await jobUnderWay(ctx.queue, runId))) return "running";
  const logged = (await latestRunEvents(ctx, sessionId)).filter((e) => e.event.message_id === runId);
  if (logged.length === 0) return undefined;
  const last = logged.at(-1)!.event;
  // A run that paused for the user's answer has no summary (Dify has no such state): it is under way.
  if (!endsRun(last) || last.event !== "workflow_finished") return "running";
  const finished = last as unknown as CanvasEventOf<"workflow_finished">;
  // Its end is not logged as a time: the run's start plus its elapsed time.
  return runSummaryOf(finished, logged.filter((e) => e.event.event === "node_finished").length, Math.round(finished.data.created_at + finished.data.elapsed_time));
}

/** The events of the session's latest run in its log (its epoch's: the events' ids are `<epoch>-<n>`, n from 1). */
async function latestRunEvents(ctx: ServerContext, sessionId: string): Promise<StoredEvent[]> {
  const lastId = await ctx.store.runs.lastEventId(sessionId);
  if (lastId === undefined) return [];
  return ctx.store.runs.events(sessionId, { after: `${lastId.slice(0, lastId.indexOf("-"))}-0` });
}

/** A run's summary from its workflow_finished, its `steps` (node_finished events) and when it ended (epoch seconds). */
export function runSummaryOf(finished: CanvasEventOf<"workflow_finished">, steps: number, finishedAt: number): RunSummary {
  const d = finished.data;
  return {
    status: runStatus(d),
    inputs: d.inputs,
    outputs: d.outputs,
    error: d.error ?? null,
    elapsed_time: d.elapsed_time,
    total_tokens: d.usage.total_tokens,
    total_steps: steps,
    created_at: d.created_at,
    finished_at: finishedAt,
  };
}

/** Keep how a run ended with its turn (after the turn's messages were added, if they were). */
export async function keepRunSummary(ctx: ServerContext, tenant: string, sessionId: string, runId: string, query: string, summary: RunSummary): Promise<void> {
  const record = await ctx.store.sessions.get(tenant, sessionId);
  if (!record) return;
  const messages: SessionMessage[] = record.message.map((m) => (m.id === runId && m.role === "assistant" ? { ...m, run: summary } : m));
  if (!messages.some((m) => m.id === runId && m.role === "assistant")) {
    messages.push({ role: "user", content: query, id: runId }, { role: "assistant", content: "", id: runId, run: summary });
  }
  await ctx.store.sessions.update(tenant, sessionId, { message: messages }, ctx.now());
}
