/**
 * Dify's run ids and what the session store keeps of each run. A run's id (its events'
 * message_id; Dify's task_id and workflow_run_id) is its session's id and a random suffix, so the
 * stop endpoints and GET /v1/workflows/run/{id} find the session from the id alone, in any server
 * process, and only within the caller's tenant. When a run ends, its summary (status, inputs,
 * outputs, times, tokens, steps) is kept on the turn's answer in the session's messages; a run
 * that ended without an answer (failed, stopped) gets its turn recorded with an empty answer.
 */
import { randomBytes } from "node:crypto";
import type { ServerContext } from "../context.js";
import type { RunSummary, SessionMessage, SessionRecord } from "../store/types.js";

const RUN_ID = /^([0-9a-f]{32})-[0-9a-f]{12}$/;

/** A new run id of the session. */
export function newRunId(sessionId: string): string {
  return `${sessionId}-${randomBytes(6).toString("hex")}`;
}

/** The session a run id belongs to, or undefined when it is not a run id. */
export function sessionOfRun(runId: string): string | undefined {
  return RUN_ID.exec(runId)?.[1];
}

/** The run's record and its summary (if it has ended), when the run is the tenant's and of this app and user. */
export async function findRun(
  ctx: ServerContext,
  tenant: string,
  agentId: string,
  runId: string,
  user?: string,
): Promise<{ record: SessionRecord; summary: RunSummary | undefined } | undefined> {
  const sessionId = sessionOfRun(runId);
  if (!sessionId) return undefined;
  const record = await ctx.store.sessions.get(tenant, sessionId);
  if (!record || record.agent_id !== agentId || (user !== undefined && record.user_id !== user)) return undefined;
  const answer = record.message.find((m) => m.id === runId && m.role === "assistant");
  return { record, summary: answer?.run };
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
