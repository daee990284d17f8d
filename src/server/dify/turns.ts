/**
 * A Dify run request (/workflows/run, /chat-messages) as a turn of the shared server: the same
 * admission, session store, leases and limits as RAGFlow's completions (turn.ts); only the body
 * and the answer are Dify's. A conversation is a canvasflow session of the app's agent, kept per
 * `user`: another user's conversation id is not found, as in Dify.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { isPlainObject } from "../../util/values.js";
import type { ServerContext } from "../context.js";
import type { TurnTranscript } from "../transcript.js";
import { SseStream } from "../sse.js";
import { openTurn } from "../open-turn.js";
import type { Turn } from "../turn.js";
import { checkRequiredInputs, type DifyApp } from "./app.js";
import { DifyApiError, invalidParam, notFound } from "./errors.js";
import { DifyEventMapper, difyUsage, finishedData, type DifyMode } from "./events.js";
import { newRunId } from "../run-ids.js";
import { keepRunSummary, runSummaryOf } from "./run-records.js";
import { requestTraceContext } from "../request-span.js";

/** How often a stream says it is alive while a step runs (Dify: about every 10 s). */
const PING_MS = 10_000;
/** The longest `user` and `query` accepted. */
const MAX_USER_CHARS = 255;

export interface RunBody {
  inputs?: unknown;
  query?: unknown;
  user?: unknown;
  response_mode?: unknown;
  conversation_id?: unknown;
  files?: unknown;
}

/** The checked fields of a run body. */
interface RunRequestFields {
  inputs: Record<string, unknown>;
  user: string;
  streaming: boolean;
  files: unknown[] | undefined;
}

export function userOf(value: unknown, where = "user"): string {
  if (typeof value !== "string" || value.trim() === "") throw invalidParam(`${where} is required: a non-empty string naming the end user`);
  if (value.length > MAX_USER_CHARS) throw invalidParam(`${where} is ${value.length} characters; at most ${MAX_USER_CHARS}`);
  return value;
}

export function runFields(body: RunBody): RunRequestFields {
  const inputs = body.inputs ?? {};
  if (!isPlainObject(inputs)) throw invalidParam("inputs must be an object of the Start form's values");
  const mode = body.response_mode ?? "blocking";
  if (mode !== "blocking" && mode !== "streaming") throw invalidParam(`response_mode must be "blocking" or "streaming", got ${JSON.stringify(mode)}`);
  if (body.files !== undefined && body.files !== null && !Array.isArray(body.files)) throw invalidParam("files must be a list of {type, transfer_method, upload_file_id | url}");
  return { inputs, user: userOf(body.user), streaming: mode === "streaming", files: Array.isArray(body.files) ? body.files : undefined };
}

/** Start the run: a new conversation, or the next turn of the user's conversation. */
export async function startDifyTurn(ctx: ServerContext, request: FastifyRequest, app: DifyApp, fields: RunRequestFields, query: string, conversationId: string | undefined): Promise<Turn> {
  checkRequiredInputs(app, fields.inputs);
  if (conversationId !== undefined) await userConversation(ctx, request.tenant, app.agent.id, conversationId, fields.user);
  // In this process, or on the queue's workers under `serve --queue`, as RAGFlow's turns.
  const traceContext = requestTraceContext(request);
  return openTurn(ctx, {
    tenant: request.tenant,
    caller: request.caller,
    log: request.log,
    agentId: app.agent.id,
    query,
    inputs: fields.inputs,
    ...(fields.files ? { files: fields.files } : {}),
    userId: fields.user,
    ...(conversationId !== undefined ? { sessionId: conversationId } : {}),
    runIdOf: newRunId,
    ...(traceContext ? { traceContext } : {}),
    afterRun: ({ transcript, steps }) => keepSummary(ctx, request.tenant, query, transcript, steps),
  });
}

/** Keep how the run ended with its turn; a store failure is logged (the answer itself goes out). */
async function keepSummary(ctx: ServerContext, tenant: string, query: string, transcript: TurnTranscript, steps: number): Promise<void> {
  const finished = transcript.finished;
  if (!finished) return;
  const sessionId = finished.session_id;
  try {
    await keepRunSummary(ctx, tenant, sessionId, finished.message_id, query, runSummaryOf(finished, steps, Math.floor(Date.now() / 1000)));
  } catch (error) {
    ctx.log.error({ err: error, session: sessionId }, "could not keep a Dify run's summary");
  }
}

/** The user's conversation of this app, or Dify's 404. */
export async function userConversation(ctx: ServerContext, tenant: string, agentId: string, id: string, user: string) {
  const record = /^[0-9a-f]{32}$/.test(id) ? await ctx.store.sessions.get(tenant, id) : undefined;
  if (!record || record.agent_id !== agentId || record.user_id !== user) throw notFound("Conversation Not Exists.");
  return record;
}

/** Stop the run when the client leaves before the answer is complete (unless the server keeps runs going). */
function stopWhenClientLeaves(ctx: ServerContext, reply: FastifyReply, turn: Turn): void {
  if (ctx.keepRunningOnDisconnect) return;
  reply.raw.on("close", () => {
    if (!reply.raw.writableEnded) turn.stop("the client closed the connection");
  });
}

/** The streaming answer: Dify's events as `data: {json}`, pings while steps run; no [DONE]. */
export async function streamDify(ctx: ServerContext, reply: FastifyReply, turn: Turn, mode: DifyMode): Promise<void> {
  let sse: SseStream;
  try {
    sse = new SseStream(reply, "openai");
    ctx.metrics.trackStream(reply.raw);
  } catch (error) {
    await turn.abandon();
    throw error;
  }
  stopWhenClientLeaves(ctx, reply, turn);
  const ping = setInterval(() => void sse.ping(), PING_MS);
  ping.unref();
  const mapper = new DifyEventMapper(mode, turn.agent.id);
  try {
    for await (const event of turn.events) for (const out of mapper.map(event)) await sse.send(out);
  } catch (error) {
    ctx.log.error({ err: error, session: turn.sessionId }, "a run's stream failed");
    await sse.send({ event: "error", task_id: turn.transcript.messageId ?? turn.sessionId, status: 500, code: "internal_server_error", message: error instanceof Error ? error.message : String(error) });
  } finally {
    clearInterval(ping);
  }
  sse.end();
}

/** The blocking answer of a workflow app: `{task_id, workflow_run_id, data}`. */
export async function answerWorkflow(ctx: ServerContext, reply: FastifyReply, turn: Turn): Promise<Record<string, unknown>> {
  stopWhenClientLeaves(ctx, reply, turn);
  const mapper = new DifyEventMapper("workflow", turn.agent.id);
  for await (const event of turn.events) mapper.map(event);
  const finished = turn.transcript.finished;
  if (!finished) throw new DifyApiError(500, "internal_server_error", "the run ended without a workflow_finished event");
  return { task_id: finished.message_id, workflow_run_id: finished.message_id, data: finishedData(finished, mapper.totalSteps, turn.agent.id) };
}

/** The blocking answer of a chatflow: the whole message; a failed run is Dify's error answer. */
export async function answerChat(ctx: ServerContext, reply: FastifyReply, turn: Turn): Promise<Record<string, unknown>> {
  stopWhenClientLeaves(ctx, reply, turn);
  for await (const _event of turn.events);
  const transcript = turn.transcript;
  const finished = transcript.finished;
  if (!finished) throw new DifyApiError(500, "internal_server_error", "the run ended without a workflow_finished event");
  if (finished.data.error !== undefined) {
    if (finished.data.error === "cancelled") throw new DifyApiError(400, "stopped", "the run was stopped");
    throw new DifyApiError(500, "completion_request_error", finished.data.error);
  }
  const answer = finished.data.outputs.answer;
  return {
    event: "message",
    task_id: finished.message_id,
    id: finished.message_id,
    message_id: finished.message_id,
    conversation_id: turn.sessionId,
    mode: "advanced-chat",
    answer: typeof answer === "string" ? answer : transcript.content,
    metadata: { usage: difyUsage(finished.data.usage), retriever_resources: [] },
    created_at: finished.created_at,
  };
}
