/**
 * Agents (research/ragflow-api.md §2.1): list, create, get, update, delete. A write's DSL is
 * checked before anything is stored (valid, within the limits, and nothing the component policy
 * denies the tenant); agents of `--agents DIR` are read-only.
 */
import type { FastifyInstance } from "fastify";
import { noAgentAccess, ownerOnly } from "../agent-access.js";
import { checkAgentDsl, type MigrationView } from "../agent-dsl.js";
import { refuseDeniedDsl } from "../component-policy.js";
import { isPipelineAgent } from "../pipeline-files.js";
import type { ComponentRegistry } from "../../components/registry.js";
import { newId, type ServerContext } from "../context.js";
import { argumentError, dataError, operatingError, success, withDamaged } from "../envelope.js";
import { listQuery, type RawListQuery } from "../list-query.js";
import { allSessionIds } from "../sessions.js";
import { DEFAULT_LIMITS } from "../settings.js";
import { DuplicateTitleError } from "../../backends/errors.js";
import type { AgentPatch, AgentRecord } from "../../backends/contracts.js";
import { serverSchema } from "../validation.js";
import { removeRunStates } from "../agent-removal.js";

/** DSLs are large: agent writes may carry up to this many bytes by default (server.limits.agentBodyBytes; other requests: bodyBytes). */
export const AGENT_BODY_LIMIT = DEFAULT_LIMITS.agentBodyBytes;

interface AgentWrite {
  title?: string | null;
  /** RAGFlow's category of the canvas: `dataflow_canvas` reads a bare DSL as an ingestion pipeline. */
  canvas_category?: string | null;
  description?: string | null;
  dsl?: unknown;
  canvas_type?: string | null;
  avatar?: string | null;
}

const CANVAS_NOT_FOUND = "canvas not found.";

/** An agent as RAGFlow's API shows it (its owner is `user_id`; an ingestion pipeline's category is `dataflow_canvas`). */
function agentView(agent: AgentRecord, registry: ComponentRegistry): Record<string, unknown> {
  return {
    id: agent.id,
    title: agent.title,
    description: agent.description,
    dsl: agent.dsl,
    canvas_type: agent.canvas_type,
    canvas_category: isPipelineAgent(registry, agent) ? "dataflow_canvas" : "agent_canvas",
    avatar: agent.avatar,
    user_id: agent.tenant,
    create_time: agent.create_time,
    update_time: agent.update_time,
  };
}

function readOnly(id: string) {
  return operatingError(`The agent ${id} is served read-only from the server's agents folder (--agents); change its file instead.`);
}

export function agentRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const write = { body: serverSchema("agent-write.schema.json") };

  app.get("/api/v1/agents", { schema: { querystring: serverSchema("list-query.schema.json") } }, async (request) => {
    const raw = request.query as RawListQuery;
    const page = await ctx.agents.list(request.tenant, listQuery(raw, "create_time"));
    const canvas = page.items.map((agent) => agentView(agent, ctx.registry));
    // Scripts written for RAGFlow v0.24 iterate `data` itself.
    return withDamaged(success(raw.format === "list" ? canvas : { canvas, total: page.total }), page.damaged);
  });

  app.post("/api/v1/agents", { schema: write, bodyLimit: ctx.limits.agentBodyBytes }, async (request) => {
    const body = request.body as AgentWrite;
    if (body.dsl === undefined || body.dsl === null) throw argumentError("No DSL data in request.");
    if (body.title === undefined || body.title === null) throw argumentError("No title in request.");
    const title = body.title.trim();
    if (title === "") throw argumentError("`title` must not be empty.");
    const { dsl, migration } = await checkAgentDsl(body.dsl, ctx.registry, ctx.limits, body.canvas_category);
    refuseDeniedDsl(ctx.policy, ctx.registry, dsl, request.tenant);
    const now = ctx.now();
    try {
      const agent = await ctx.store.agents.create({
        id: newId(),
        tenant: request.tenant,
        title,
        description: body.description ?? "",
        dsl,
        canvas_type: body.canvas_type ?? "",
        avatar: body.avatar ?? null,
        create_time: now,
        update_time: now,
      });
      if (migration) request.log.info({ agent: agent.id, migration: migration.applied }, "agent DSL migrated on write");
      return success(migration ? { ...agentView(agent, ctx.registry), migration } : agentView(agent, ctx.registry));
    } catch (error) {
      if (error instanceof DuplicateTitleError) throw dataError(error.message);
      throw error;
    }
  });

  app.get("/api/v1/agents/:agent_id", async (request) => {
    const { agent_id } = request.params as { agent_id: string };
    const agent = await ctx.agents.get(request.tenant, agent_id);
    if (!agent) throw dataError(CANVAS_NOT_FOUND);
    return success(agentView(agent, ctx.registry));
  });

  app.put("/api/v1/agents/:agent_id", { schema: write, bodyLimit: ctx.limits.agentBodyBytes }, async (request) => {
    const { agent_id } = request.params as { agent_id: string };
    if (ctx.agents.isReadOnly(agent_id)) throw readOnly(agent_id);
    const body = request.body as AgentWrite;
    // RAGFlow's answer for an agent that is not the caller's, unknown or another tenant's.
    if (!(await ctx.store.agents.get(request.tenant, agent_id))) throw noAgentAccess();
    // Null or absent fields are left alone, as in RAGFlow.
    const patch: AgentPatch = {};
    let migration: MigrationView | undefined;
    if (body.title !== undefined && body.title !== null) {
      patch.title = body.title.trim();
      if (patch.title === "") throw argumentError("`title` must not be empty.");
    }
    if (body.description !== undefined && body.description !== null) patch.description = body.description;
    if (body.canvas_type !== undefined && body.canvas_type !== null) patch.canvas_type = body.canvas_type;
    if (body.avatar !== undefined && body.avatar !== null) patch.avatar = body.avatar;
    if (body.dsl !== undefined && body.dsl !== null) {
      ({ dsl: patch.dsl, migration } = await checkAgentDsl(body.dsl, ctx.registry, ctx.limits, body.canvas_category));
      refuseDeniedDsl(ctx.policy, ctx.registry, patch.dsl, request.tenant);
    }
    try {
      const updated = await ctx.store.agents.update(request.tenant, agent_id, patch, ctx.now());
      if (!updated) throw noAgentAccess();
      if (migration) request.log.info({ agent: agent_id, migration: migration.applied }, "agent DSL migrated on write");
      // RAGFlow's update_agent answers the new update time.
      return success(migration ? { update_time: updated.update_time, migration } : { update_time: updated.update_time });
    } catch (error) {
      if (error instanceof DuplicateTitleError) throw dataError(error.message);
      throw error;
    }
  });

  app.delete("/api/v1/agents/:agent_id", async (request) => {
    const { agent_id } = request.params as { agent_id: string };
    if (ctx.agents.isReadOnly(agent_id)) throw readOnly(agent_id);
    if (!(await ctx.store.agents.get(request.tenant, agent_id))) throw ownerOnly();
    const sessions = await allSessionIds(ctx, request.tenant, agent_id);
    if (!(await ctx.store.agents.delete(request.tenant, agent_id))) throw ownerOnly();
    // The records went with the agent; their run state goes too (a run going on is cancelled, and cleans up as it ends).
    await removeRunStates(ctx, sessions);
    return success(true);
  });
}
