/**
 * Dify's app and conversation routes: GET /v1/parameters, GET /v1/conversations (newest first,
 * paged by `last_id`, or the old client's `first_id`), POST /v1/conversations/{id}/name,
 * DELETE /v1/conversations/{id}, GET /v1/messages. A conversation is a session of the app's
 * agent; only the `user` who had it sees it.
 */
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../../context.js";
import { deleteSessions } from "../../sessions.js";
import type { SessionMessage, SessionRecord } from "../../../backends/contracts.js";
import { difyAppOf, parametersOf } from "../app.js";
import { DifyApiError, invalidParam } from "../errors.js";
import { userConversation, userOf } from "../turns.js";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** Sessions of one user read at most for a conversation list. */
const MAX_LISTED = 10_000;
/** A name made from the first question is at most this long (Dify cuts it too). */
const AUTO_NAME_CHARS = 50;
const MAX_NAME_CHARS = 255;

function limitOf(value: unknown): number {
  if (value === undefined || value === null || value === "") return DEFAULT_LIMIT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw invalidParam(`limit must be a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(value)}`);
  return n;
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function conversationView(record: SessionRecord): Record<string, unknown> {
  return { id: record.id, name: record.name, inputs: {}, status: "normal", introduction: "", created_at: seconds(record.create_time), updated_at: seconds(record.update_time) };
}

/** Every session of the agent that belongs to `user`, newest first. */
async function userSessions(ctx: ServerContext, tenant: string, agentId: string, user: string): Promise<SessionRecord[]> {
  const out: SessionRecord[] = [];
  for (let page = 1; out.length < MAX_LISTED; page++) {
    const found = await ctx.store.sessions.list(tenant, agentId, { page, page_size: 1000, orderby: "update_time", desc: true, user_id: user });
    out.push(...found.items);
    if (found.items.length < 1000) break;
  }
  return out;
}

/** The items after the one with id `after` (the cursor), `limit` of them, and whether more follow. */
function pageAfter<T extends { id: string }>(items: T[], after: unknown, limit: number, what: string): { data: T[]; has_more: boolean } {
  let start = 0;
  if (typeof after === "string" && after !== "") {
    const at = items.findIndex((item) => item.id === after);
    if (at < 0) throw new DifyApiError(404, "not_found", `${what} ${after} does not exist`);
    start = at + 1;
  }
  return { data: items.slice(start, start + limit), has_more: start + limit < items.length };
}

/** The turns of a session as Dify's messages: each user message with the reply after it. */
function messagesOf(record: SessionRecord): Array<Record<string, unknown> & { id: string }> {
  const out: Array<Record<string, unknown> & { id: string }> = [];
  const list: SessionMessage[] = record.message;
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (m.role !== "user") continue;
    const reply = list[i + 1]?.role === "assistant" ? list[i + 1] : undefined;
    const id = m.id ?? `${record.id}-${i}`;
    out.push({ id, conversation_id: record.id, inputs: {}, query: m.content, answer: reply?.content ?? "", message_files: [], feedback: reply?.feedback ? { rating: reply.feedback.rating } : null, retriever_resources: [], created_at: seconds(record.create_time) });
  }
  return out;
}

export function difyConversationRoutes(api: FastifyInstance, ctx: ServerContext, appId: string, uploadBytes: number): void {
  api.get("/v1/parameters", async (request) => {
    const app = await difyAppOf(ctx, request.tenant, appId);
    return parametersOf(app, uploadBytes);
  });

  api.get("/v1/conversations", async (request) => {
    const query = request.query as Record<string, unknown>;
    const user = userOf(query.user);
    const limit = limitOf(query.limit);
    const app = await difyAppOf(ctx, request.tenant, appId);
    const sessions = await userSessions(ctx, request.tenant, app.agent.id, user);
    const page = pageAfter(sessions, query.last_id ?? query.first_id, limit, "Last conversation");
    return { limit, has_more: page.has_more, data: page.data.map(conversationView) };
  });

  api.post("/v1/conversations/:id/name", async (request) => {
    const { id } = request.params as { id: string };
    const body = request.body as { name?: unknown; user?: unknown; auto_generate?: unknown };
    const user = userOf(body.user);
    const record = await userConversation(ctx, request.tenant, appId, id, user);
    let name: string;
    if (body.auto_generate === true) {
      // Dify asks a model for a title; the first question, cut short, says what it is about.
      const first = record.message.find((m) => m.role === "user")?.content ?? "";
      name = [...first.trim()].slice(0, AUTO_NAME_CHARS).join("") || "New conversation";
    } else {
      if (typeof body.name !== "string" || body.name.trim() === "") throw invalidParam("name is required (or auto_generate: true)");
      if (body.name.length > MAX_NAME_CHARS) throw invalidParam(`name is ${body.name.length} characters; at most ${MAX_NAME_CHARS}`);
      name = body.name;
    }
    const updated = await ctx.store.sessions.update(request.tenant, id, { name }, ctx.now());
    if (!updated) throw new DifyApiError(404, "not_found", "Conversation Not Exists.");
    return conversationView(updated);
  });

  api.delete("/v1/conversations/:id", async (request) => {
    const { id } = request.params as { id: string };
    const user = userOf((request.body as { user?: unknown }).user ?? (request.query as { user?: unknown }).user);
    await userConversation(ctx, request.tenant, appId, id, user);
    const { errors } = await deleteSessions(ctx, request.tenant, appId, [id]);
    if (errors.length > 0) throw new DifyApiError(409, "conversation_busy", errors.join("; "));
    return { result: "success" };
  });

  api.get("/v1/messages", async (request) => {
    const query = request.query as Record<string, unknown>;
    const user = userOf(query.user);
    const limit = limitOf(query.limit);
    if (typeof query.conversation_id !== "string" || query.conversation_id === "") throw invalidParam("conversation_id is required");
    const record = await userConversation(ctx, request.tenant, appId, query.conversation_id, user);
    // Dify pages messages backwards from first_id (the oldest one shown), newest last.
    const all = messagesOf(record);
    let end = all.length;
    if (typeof query.first_id === "string" && query.first_id !== "") {
      end = all.findIndex((m) => m.id === query.first_id);
      if (end < 0) throw new DifyApiError(404, "not_found", `First message ${query.first_id} does not exist`);
    }
    const start = Math.max(0, end - limit);
    return { limit, has_more: start > 0, data: all.slice(start, end) };
  });
}
