/**
 * Sessions of an agent (research/ragflow-api.md §2.2): create, list, get, delete.
 */
import type { FastifyInstance } from "fastify";
import { accessibleAgent } from "../agent-access.js";
import type { ServerContext } from "../context.js";
import { dataError, operatingError, success, RET, withDamaged } from "../envelope.js";
import { listQuery, queryFlag, type RawListQuery } from "../list-query.js";
import { allSessionIds, deleteSessions, findAgentSession, openNewSession, sessionDsl, sessionView } from "../sessions.js";
import { serverSchema } from "../validation.js";

interface SessionCreate {
  user_id?: string | null;
  name?: string | null;
}

interface SessionsDelete {
  ids?: string[] | null;
  delete_all?: boolean | null;
}

/** RAGFlow's check_duplicate_ids: each id once, in order, and one message per id given more than once. */
function duplicateIds(ids: readonly string[]): { unique: string[]; duplicates: string[] } {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const duplicates = [...counts].filter(([, count]) => count > 1).map(([id]) => `Duplicate session ids: ${id}`);
  return { unique: [...counts.keys()], duplicates };
}

function partiallyDeleted(successCount: number, errors: string[]) {
  return { code: RET.success, message: `Partially deleted ${successCount} sessions with ${errors.length} errors`, data: { success_count: successCount, errors } };
}

export function sessionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  // An agent the caller cannot reach is code 103 on every session route, as in RAGFlow.
  const agentOf = (tenant: string, agentId: string) => accessibleAgent(ctx, tenant, agentId);

  app.post("/api/v1/agents/:agent_id/sessions", { schema: { body: serverSchema("session-create.schema.json") } }, async (request) => {
    const { agent_id } = request.params as { agent_id: string };
    const body = request.body as SessionCreate;
    const query = request.query as { user_id?: string };
    const agent = await agentOf(request.tenant, agent_id);
    const userId = body.user_id || query.user_id || request.tenant;
    const { record, session } = await openNewSession(ctx, request.tenant, agent, { userId, name: body.name ?? "" });
    const dsl = session.canvas.toJSON();
    await session.close();
    // RAGFlow's SDK tells an agent session from a chat one by `agent_id` in this answer.
    return { code: RET.success, data: { ...sessionView(record), exp_user_id: record.user_id, dsl, version_title: null } };
  });

  app.get("/api/v1/agents/:agent_id/sessions", { schema: { querystring: serverSchema("list-query.schema.json") } }, async (request) => {
    const { agent_id } = request.params as { agent_id: string };
    const raw = request.query as RawListQuery;
    await agentOf(request.tenant, agent_id);
    const page = await ctx.store.sessions.list(request.tenant, agent_id, listQuery(raw, "update_time"));
    // A session's DSL is its stored state: loaded only when asked for (`dsl=true`).
    const withDsl = queryFlag(raw.dsl, false);
    const data = await Promise.all(page.items.map(async (record) => sessionView(record, withDsl ? await sessionDsl(ctx, record.id) : undefined)));
    return withDamaged({ code: RET.success, message: "success", data, total: page.total }, page.damaged);
  });

  app.get("/api/v1/agents/:agent_id/sessions/:session_id", async (request) => {
    const { agent_id, session_id } = request.params as { agent_id: string; session_id: string };
    await agentOf(request.tenant, agent_id);
    const record = await findAgentSession(ctx, request.tenant, agent_id, session_id);
    return success(sessionView(record, await sessionDsl(ctx, record.id)));
  });

  app.delete("/api/v1/agents/:agent_id/sessions", { schema: { body: serverSchema("sessions-delete.schema.json") } }, async (request) => {
    const { agent_id } = request.params as { agent_id: string };
    const body = request.body as SessionsDelete;
    await agentOf(request.tenant, agent_id);
    let ids = body.ids ?? [];
    // No ids and no delete_all deletes nothing, as in RAGFlow.
    if (ids.length === 0 && body.delete_all === true) ids = await allSessionIds(ctx, request.tenant, agent_id);
    if (ids.length === 0) return { code: RET.success };
    const { unique, duplicates } = duplicateIds(ids);
    const { deleted, errors } = await deleteSessions(ctx, request.tenant, agent_id, unique);
    // As RAGFlow's delete_agent_session: the sessions not deleted are reported; only when there are none, the duplicates.
    if (errors.length > 0) {
      if (deleted.length === 0) throw dataError(errors.join("; "));
      return partiallyDeleted(deleted.length, errors);
    }
    if (duplicates.length > 0) {
      if (deleted.length === 0) throw dataError(duplicates.join(";"));
      return partiallyDeleted(deleted.length, duplicates);
    }
    return { code: RET.success };
  });

  app.delete("/api/v1/agents/:agent_id/sessions/:session_id", async (request) => {
    const { agent_id, session_id } = request.params as { agent_id: string; session_id: string };
    await agentOf(request.tenant, agent_id);
    await findAgentSession(ctx, request.tenant, agent_id, session_id);
    const { errors } = await deleteSessions(ctx, request.tenant, agent_id, [session_id]);
    if (errors.length > 0) throw operatingError(errors.join("; "));
    return success(true);
  });
}
