/**
 * Ingestion-pipeline runs started by a completion (research/ragflow-pipelines.md §6.4). RAGFlow
 * queues one task per document and answers at once with `{message_id, session_id}`; so does this
 * server. A new session is made (its record and run state, not opened); each document gets a run
 * id, its message_id (the session's id and a suffix: run-ids.ts), and a user message in the
 * session's record naming it (as RAGFlow's does: its id, its files). Then the documents run one
 * after another in the background, each a turn of the session (turn.ts: run slots, lease, time
 * limit, event log, cancel signals), and each turn's answer joins the record when it ends.
 *
 * A run that cannot start (the server closing, no run slot free) has the reason kept on its turn's
 * answer (`run`, failed), so its log says why. A run cancelled by a client ends the batch: the
 * documents still waiting are not run, and say so. When the server closes, it waits for the batch
 * to note the documents it will not run.
 */
import type { FastifyBaseLogger } from "fastify";
import type { AgentRecord, RunSummary, SessionMessage } from "../backends/contracts.js";
import type { ServerContext } from "./context.js";
import type { PipelineDocument, UploadFileDict } from "./pipeline-files.js";
import { newRunId } from "./run-ids.js";
import { createQueuedSession } from "./sessions.js";
import { startTurn } from "./turn.js";

export interface PipelineRequest {
  tenant: string;
  /** Whom the runs count against (the request's rate-limit identity). */
  caller: string;
  log: FastifyBaseLogger;
  agent: AgentRecord;
  query: string;
  userId?: string;
  name?: string;
  documents: readonly PipelineDocument[];
}

/** One document's run, as the completion's answer lists it. */
export interface PipelineRun {
  message_id: string;
  file: UploadFileDict;
}

/** The engine's error of a run that was stopped (a cancel; the server closing). */
const CANCELLED = "cancelled";

/** Create the session, note every run in its record, and start the runs in the background. */
export async function startPipelineRuns(ctx: ServerContext, request: PipelineRequest): Promise<{ sessionId: string; runs: PipelineRun[] }> {
  const { tenant, agent, query } = request;
  const record = await createQueuedSession(ctx, tenant, agent, { userId: request.userId ?? tenant, name: request.name ?? "" });
  const runs = request.documents.map((document) => ({ message_id: newRunId(record.id), file: document.file }));
  const asked: SessionMessage[] = runs.map((run) => ({ role: "user", content: query, id: run.message_id, files: [run.file] }));
  await ctx.store.sessions.update(tenant, record.id, { message: [...record.message, ...asked] }, ctx.now(), record);
  const batch = runAll(ctx, request, record.id, runs);
  const forget = ctx.shutdown.onClose(() => batch);
  void batch.finally(forget);
  return { sessionId: record.id, runs };
}

async function runAll(ctx: ServerContext, request: PipelineRequest, sessionId: string, runs: readonly PipelineRun[]): Promise<void> {
  const log = request.log.child({ session: sessionId, agent: request.agent.id });
  let stopped: string | undefined;
  for (const run of runs) {
    if (stopped === undefined && ctx.shutdown.draining) stopped = "the server shut down before this document's run started";
    if (stopped !== undefined) {
      await keepFailure(ctx, request.tenant, sessionId, run.message_id, stopped, log);
      continue;
    }
    try {
      const turn = await startTurn(ctx, {
        tenant: request.tenant,
        caller: request.caller,
        log: request.log,
        agentId: request.agent.id,
        agent: request.agent,
        sessionId,
        query: request.query,
        files: [run.file],
        ...(request.userId !== undefined ? { userId: request.userId } : {}),
        runIdOf: () => run.message_id,
      });
      for await (const _event of turn.events);
      if (turn.transcript.finished?.data.error === CANCELLED && !ctx.shutdown.draining) stopped = `not run: the run ${turn.transcript.messageId ?? ""} of the same request was cancelled`;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ err: error, run: run.message_id }, "a pipeline run could not start or failed outside its events");
      await keepFailure(ctx, request.tenant, sessionId, run.message_id, `the run could not start: ${reason}`, log);
    }
  }
}

/** Keep why a run did not run on its turn's answer; a failure to keep it is logged. */
async function keepFailure(ctx: ServerContext, tenant: string, sessionId: string, runId: string, reason: string, log: FastifyBaseLogger): Promise<void> {
  try {
    const record = await ctx.store.sessions.get(tenant, sessionId);
    if (!record || record.message.some((m) => m.id === runId && m.role === "assistant")) return;
    const seconds = ctx.now() / 1000;
    const run: RunSummary = { status: "failed", inputs: {}, outputs: {}, error: reason, elapsed_time: 0, total_tokens: 0, total_steps: 0, created_at: seconds, finished_at: seconds };
    await ctx.store.sessions.update(tenant, sessionId, { message: [...record.message, { role: "assistant", content: "", id: runId, run }] }, ctx.now(), record);
  } catch (error) {
    log.error({ err: error, run: runId }, "could not keep why a pipeline run did not run");
  }
}
