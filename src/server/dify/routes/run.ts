/**
 * Dify's run routes: POST /v1/workflows/run (workflow apps), POST /v1/chat-messages (chatflows),
 * each blocking or streaming, their stop endpoints, and GET /v1/workflows/run/{id}. A task id is
 * the run's id (run-records.ts), which names its session; stopping goes through the store's cancel
 * signals, so whichever process runs it stops it.
 */
import type { FastifyInstance } from "fastify";
import { cancelRun } from "../../../durable/cancel.js";
import { cancelQueuedRun } from "../../../worker/cancel.js";
import type { ServerContext } from "../../context.js";
import { difyAppOf, requireMode } from "../app.js";
import { DifyApiError, invalidParam, notFound } from "../errors.js";
import { findRun } from "../run-records.js";
import type { UploadedFiles } from "../uploads.js";
import { answerChat, answerWorkflow, runFields, startDifyTurn, streamDify, userOf, type RunBody } from "../turns.js";

/** Route paths that count as completions for the per-key rate limits. */
export const DIFY_RUN_ROUTES: readonly string[] = ["/v1/workflows/run", "/v1/chat-messages"];

/** The longest query accepted (characters). */
const MAX_QUERY_CHARS = 100_000;

export function difyRunRoutes(api: FastifyInstance, ctx: ServerContext, appId: string, uploads: UploadedFiles): void {
  api.post("/v1/workflows/run", async (request, reply) => {
    const app = await difyAppOf(ctx, request.tenant, appId);
    requireMode(app, "workflow");
    const fields = runFields(request.body as RunBody);
    if (fields.files) fields.files = await uploads.resolve(request.tenant, fields.files);
    // A workflow run is a conversation of its own: nothing carries over between runs.
    const turn = await startDifyTurn(ctx, request, app, fields, "", undefined);
    if (fields.streaming) return streamDify(ctx, reply, turn, "workflow");
    return answerWorkflow(ctx, reply, turn);
  });

  api.post("/v1/chat-messages", async (request, reply) => {
    const body = request.body as RunBody;
    const app = await difyAppOf(ctx, request.tenant, appId);
    requireMode(app, "advanced-chat");
    const fields = runFields(body);
    if (fields.files) fields.files = await uploads.resolve(request.tenant, fields.files);
    if (typeof body.query !== "string" || body.query.trim() === "") throw invalidParam("query is required: the user's message, a non-empty string");
    if (body.query.length > MAX_QUERY_CHARS) throw invalidParam(`query is ${body.query.length} characters; at most ${MAX_QUERY_CHARS}`);
    const conversation = body.conversation_id;
    if (conversation !== undefined && conversation !== null && conversation !== "" && typeof conversation !== "string") throw invalidParam("conversation_id must be a string");
    const turn = await startDifyTurn(ctx, request, app, fields, body.query, typeof conversation === "string" && conversation !== "" ? conversation : undefined);
    if (fields.streaming) return streamDify(ctx, reply, turn, "advanced-chat");
    return answerChat(ctx, reply, turn);
  });

  const stop = async (tenant: string, taskId: string, user: unknown) => {
    const endUser = userOf(user);
    // Only the user whose run it is may stop it, as in Dify.
    // Only a run the session really made: the cancel goes to the session, so a made-up id would stop its real run.
    const run = await findRun(ctx, tenant, appId, taskId, endUser);
    if (!run) throw notFound(`Task ${taskId} not found.`);
    // A run that has ended has nothing to stop (Dify answers success too); a cancel request now
    // would stop the conversation's next run instead.
    if (run.summary) return { result: "success" };
    if (ctx.queue) {
      // Taken off the queue if it waits; the durable cancel if a worker runs it.
      await cancelQueuedRun({ jobId: taskId }, { queue: ctx.queue, store: ctx.store.runs, cancel: ctx.store.cancel, registry: ctx.registry, canvas: ctx.canvas });
      return { result: "success" };
    }
    ctx.runs.abort(run.record.id, "cancelled");
    await cancelRun(run.record.id, { signals: ctx.store.cancel });
    return { result: "success" };
  };
  api.post("/v1/workflows/tasks/:task_id/stop", async (request) => {
    const { task_id } = request.params as { task_id: string };
    return stop(request.tenant, task_id, (request.body as { user?: unknown }).user);
  });
  api.post("/v1/chat-messages/:task_id/stop", async (request) => {
    const { task_id } = request.params as { task_id: string };
    return stop(request.tenant, task_id, (request.body as { user?: unknown }).user);
  });

  // The run's status and results, from the summary kept with its turn; a run under way (findRun) is running; an id the session never made is not found.
  api.get("/v1/workflows/run/:workflow_run_id", async (request) => {
    const { workflow_run_id: runId } = request.params as { workflow_run_id: string };
    const app = await difyAppOf(ctx, request.tenant, appId);
    requireMode(app, "workflow");
    const run = await findRun(ctx, request.tenant, appId, runId);
    if (!run) throw new DifyApiError(404, "not_found", `Workflow run ${runId} not found.`);
    const s = run.summary;
    if (!s) return { id: runId, workflow_id: appId, status: "running", inputs: null, outputs: null, error: null, total_steps: 0, total_tokens: 0, created_at: null, finished_at: null, elapsed_time: null };
    return { id: runId, workflow_id: appId, status: s.status, inputs: s.inputs, outputs: s.outputs, error: s.error, total_steps: s.total_steps, total_tokens: s.total_tokens, created_at: s.created_at, finished_at: s.finished_at, elapsed_time: s.elapsed_time };
  });
}
