/**
 * Pictures of agents and runs (ours, not RAGFlow's; read-only, under the key like the rest of the
 * API), made by src/render: what the playground shows, and what a script may save.
 *
 * - `GET /api/v1/agents/{agent_id}/graph[?direction=RIGHT|DOWN]`: the agent's diagram as an SVG
 *   document (flowing right by default), with the list of its components (id, name, type), in
 *   the envelope.
 * - `GET /api/v1/sessions/{session_id}/trace[?message_id=…]`: one run of a session as the trace
 *   page of `renderTrace` (text/html), made from the session's event log: the run whose events
 *   carry that message id, else the session's latest run.
 * - `GET /api/v1/sessions/{session_id}/pending`: the form a paused session waits on
 *   (`{components, inputs, tips}`), or `null` when it waits on nothing: `user_inputs` does not name
 *   its components, and the session view shows the state before the pause.
 */
import type { FastifyInstance } from "fastify";
import { canvasFromSource, CanvasValidationError, readSource } from "../../api.js";
import type { CanvasEvent } from "../../engine/events.js";
import { canvasGraphModel, renderGraphSvg, renderTrace, type GraphModel } from "../../render/index.js";
import type { StoredEvent, AgentRecord } from "../../backends/contracts.js";
import type { ServerContext } from "../context.js";
import { argumentError, dataError, success } from "../envelope.js";
import { findTenantSession } from "../sessions.js";
import { pendingInput } from "../session-state.js";
import { AGENT_NOT_FOUND } from "../turn.js";

/** What a message id looks like (the engine's nanoid-style ids); anything else is refused before the log is read. */
const MESSAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A component of the diagram, as the graph route lists it (the SVG's nodes carry the same ids). */
interface DiagramComponent {
  id: string;
  name: string;
  type: string;
}

/** The agent's graph model, from its DSL as a session would load it (any origin: RAGFlow, legacy, Dify). */
async function agentGraph(ctx: ServerContext, agent: AgentRecord): Promise<GraphModel> {
  try {
    return canvasGraphModel(canvasFromSource(await readSource(agent.dsl as object), ctx.registry, ctx.canvas));
  } catch (error) {
    // Stored DSLs were checked on write; a registry that changed since may still refuse one.
    if (error instanceof CanvasValidationError) throw dataError(`Agent ${agent.id} cannot be drawn: ${error.message}`);
    throw error;
  }
}

/** The run number of a logged event id (`<run>-<n>`). */
function runOf(id: string): number {
  return Number(id.slice(0, id.indexOf("-")));
}

/** The events of one run (the one with this message id, else the latest), and whether it is the latest. */
function runEvents(logged: readonly StoredEvent[], messageId: string | undefined): { events: CanvasEvent[]; latest: boolean } {
  const latest = logged.reduce((max, e) => Math.max(max, runOf(e.id)), -1);
  const chosen = messageId !== undefined ? logged.filter((e) => e.event.message_id === messageId) : logged.filter((e) => runOf(e.id) === latest);
  return { events: chosen.map((e) => e.event as unknown as CanvasEvent), latest: chosen.length > 0 && runOf(chosen[0].id) === latest };
}

function checkedDirection(value: unknown): "RIGHT" | "DOWN" {
  if (value === undefined || value === "") return "RIGHT";
  if (value === "RIGHT" || value === "DOWN") return value;
  throw argumentError(`The query parameter \`direction\` must be RIGHT or DOWN, got ${JSON.stringify(String(value).slice(0, 40))}.`, null);
}

function checkedMessageId(value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string" || !MESSAGE_ID.test(value)) {
    throw argumentError("The query parameter `message_id` must be one run's message id (letters, digits, _ and -, at most 64), as the stream's events give it.", null);
  }
  return value;
}

export function pictureRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get("/api/v1/agents/:agent_id/graph", async (request) => {
    const { agent_id } = request.params as { agent_id: string };
    const direction = checkedDirection((request.query as Record<string, unknown>).direction);
    const agent = await ctx.agents.get(request.tenant, agent_id);
    if (!agent) throw dataError(AGENT_NOT_FOUND);
    const model = await agentGraph(ctx, agent);
    const components: DiagramComponent[] = model.nodes.map((n) => ({ id: n.id, name: n.name, type: n.type }));
    return success({ svg: await renderGraphSvg(model, { direction }), components });
  });

  app.get("/api/v1/sessions/:session_id/trace", async (request, reply) => {
    const { session_id: sessionId } = request.params as { session_id: string };
    const messageId = checkedMessageId((request.query as Record<string, unknown>).message_id);
    const record = await findTenantSession(ctx, request.tenant, sessionId);
    const { events, latest } = runEvents(await ctx.store.runs.events(sessionId), messageId);
    if (events.length === 0) {
      throw dataError(messageId === undefined ? `Session ${sessionId} has no run in its event log yet.` : `Session ${sessionId} has no run with message_id ${messageId} in its event log (it keeps the latest events only).`);
    }
    // The diagram comes from the session's agent; an agent deleted since leaves the trace without one.
    const agent = await ctx.agents.get(request.tenant, record.agent_id);
    const graph = agent ? await agentGraph(ctx, agent).catch(() => undefined) : undefined;
    // The session's pending form is this run's only while no later run has answered it.
    const pausedAt = latest && events.at(-1)?.event === "user_inputs" ? (await pendingInput(ctx, sessionId).catch(() => undefined))?.components : undefined;
    const html = await renderTrace(events, { ...(graph ? { graph } : {}), ...(pausedAt ? { pausedAt } : {}), title: agent ? `${agent.title} · run` : `session ${sessionId}` });
    reply.type("text/html; charset=utf-8");
    return html;
  });

  app.get("/api/v1/sessions/:session_id/pending", async (request) => {
    const { session_id: sessionId } = request.params as { session_id: string };
    await findTenantSession(ctx, request.tenant, sessionId);
    return success((await pendingInput(ctx, sessionId)) ?? null);
  });
}
