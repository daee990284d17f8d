/**
 * Cancel (research/ragflow-api.md §3): `POST /api/v1/tasks/{task_id}/cancel`, and
 * `PATCH /api/v1/tasks/{task_id}` with `{"action":"stop"}`. A task is a session's run (its id is
 * the session id). The request goes through the store's cancel signals, so whichever process runs
 * the session stops it; its stream ends with workflow_finished error "cancelled", then [DONE].
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { cancelRun } from "../../index.js";
import type { ServerContext } from "../context.js";
import { ApiError, argumentError, success, RET } from "../envelope.js";
import { findTenantSession, SESSION_NOT_FOUND } from "../sessions.js";
import { serverSchema } from "../validation.js";

async function cancelTask(ctx: ServerContext, request: FastifyRequest, taskId: string) {
  try {
    await findTenantSession(ctx, request.tenant, taskId);
  } catch (error) {
    // RAGFlow's answer for a task it does not know.
    if (error instanceof ApiError && error.message === SESSION_NOT_FOUND) throw new ApiError(RET.notFound, `Task '${taskId}' not found.`, null);
    throw error;
  }
  // This process stops its own run at once; the signal reaches the others (and is what RAGFlow tools set).
  ctx.runs.abort(taskId, "cancelled");
  await cancelRun(taskId, { signals: ctx.store.cancel });
  return success(true);
}

export function taskRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post("/api/v1/tasks/:task_id/cancel", async (request) => {
    const { task_id } = request.params as { task_id: string };
    return cancelTask(ctx, request, task_id);
  });

  app.patch("/api/v1/tasks/:task_id", { schema: { body: serverSchema("task-action.schema.json") } }, async (request) => {
    const { task_id } = request.params as { task_id: string };
    const { action } = request.body as { action: string };
    if (action !== "stop") throw argumentError(`Invalid action '${action}'. Only 'stop' is supported.`);
    return cancelTask(ctx, request, task_id);
  });
}
