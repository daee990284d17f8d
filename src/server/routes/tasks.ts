/**
 * Cancel (research/ragflow-api.md §3): `POST /api/v1/tasks/{task_id}/cancel`, and
 * `PATCH /api/v1/tasks/{task_id}` with `{"action":"stop"}`. A task is a session's run (its id is
 * the session id). The request goes through the store's cancel signals, so whichever process runs
 * the session stops it; its stream ends with workflow_finished error "cancelled", then [DONE].
 * With a run queue (`serve --queue`), the session's latest job is cancelled: taken off the queue
 * while it waits (its end is logged, so its stream ends too), the durable cancel once a worker has it.
 *
 * A task the caller has no session for (unknown, or another tenant's) answers as RAGFlow answers an
 * unknown task, code 0 with `data: true`, and nothing is cancelled or stored: RAGFlow sets its flag
 * for any id, canvasflow stops only the caller's own runs and keeps no flag for ids it never made.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { cancelRun } from "../../durable/cancel.js";
import { cancelQueuedRun } from "../../worker/cancel.js";
import type { ServerContext } from "../context.js";
import { argumentError, success } from "../envelope.js";
import { ownSessionRecord } from "../sessions.js";
import { serverSchema } from "../validation.js";

async function cancelTask(ctx: ServerContext, request: FastifyRequest, taskId: string) {
  // RAGFlow's answer for a task it does not know (test_cancel_missing_task_sets_cancel_contract).
  if (!(await ownSessionRecord(ctx, request.tenant, taskId))) return success(true);
  if (ctx.queue) {
    await cancelQueuedRun({ session: taskId }, { queue: ctx.queue, store: ctx.store.runs, cancel: ctx.store.cancel, registry: ctx.registry, canvas: ctx.canvas });
    return success(true);
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
