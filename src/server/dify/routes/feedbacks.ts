/**
 * Message feedback: POST /v1/messages/{message_id}/feedbacks rates an answer (like, dislike, or
 * null to take the rating back) with an optional comment, kept on the answer in the session's
 * messages; GET /v1/app/feedbacks lists the app's ratings, newest first. A message id is its run's
 * id (run-records.ts): only the user whose message it is may rate it.
 */
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../../context.js";
import type { MessageFeedback, SessionRecord } from "../../../backends/contracts.js";
import { invalidParam, notFound } from "../errors.js";
import { sessionOfRun } from "../../run-ids.js";
import { userOf } from "../turns.js";

const MAX_CONTENT_CHARS = 10_000;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 101;
/** Sessions read at most to list the app's feedback. */
const MAX_SCANNED = 10_000;

function feedbackOf(body: { rating?: unknown; content?: unknown }): Omit<MessageFeedback, "time"> | null {
  const rating = body.rating ?? null;
  if (rating !== null && rating !== "like" && rating !== "dislike") throw invalidParam(`rating must be "like", "dislike" or null, got ${JSON.stringify(rating)}`);
  const content = body.content ?? null;
  if (content !== null && typeof content !== "string") throw invalidParam("content must be a string");
  if (typeof content === "string" && content.length > MAX_CONTENT_CHARS) throw invalidParam(`content is ${content.length} characters; at most ${MAX_CONTENT_CHARS}`);
  return rating === null ? null : { rating, content };
}

function wholeNumber(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalidParam(`${name} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

/** Every session of the app, newest first, up to the scan bound. */
async function appSessions(ctx: ServerContext, tenant: string, agentId: string): Promise<SessionRecord[]> {
  const out: SessionRecord[] = [];
  for (let page = 1; out.length < MAX_SCANNED; page++) {
    const found = await ctx.store.sessions.list(tenant, agentId, { page, page_size: 1000, orderby: "update_time", desc: true });
    out.push(...found.items);
    if (found.items.length < 1000) break;
  }
  return out;
}

export function difyFeedbackRoutes(api: FastifyInstance, ctx: ServerContext, appId: string): void {
  api.post("/v1/messages/:message_id/feedbacks", async (request) => {
    const { message_id: messageId } = request.params as { message_id: string };
    const body = (request.body ?? {}) as { rating?: unknown; content?: unknown; user?: unknown };
    const user = userOf(body.user);
    const feedback = feedbackOf(body);
    const sessionId = sessionOfRun(messageId);
    const record = sessionId ? await ctx.store.sessions.get(request.tenant, sessionId) : undefined;
    const at = record && record.agent_id === appId && record.user_id === user ? record.message.findIndex((m) => m.id === messageId && m.role === "assistant") : -1;
    if (!record || at < 0) throw notFound("Message Not Exists.");
    const messages = record.message.map((m, i) => {
      if (i !== at) return m;
      const { feedback: _old, ...rest } = m;
      return feedback ? { ...rest, feedback: { ...feedback, time: ctx.now() } } : rest;
    });
    await ctx.store.sessions.update(request.tenant, record.id, { message: messages }, ctx.now());
    return { result: "success" };
  });

  api.get("/v1/app/feedbacks", async (request) => {
    const query = request.query as Record<string, unknown>;
    const page = wholeNumber(query.page, "page", 1, 1_000_000);
    const limit = wholeNumber(query.limit, "limit", DEFAULT_LIMIT, MAX_LIMIT);
    const all: Array<Record<string, unknown> & { time: number }> = [];
    for (const record of await appSessions(ctx, request.tenant, appId)) {
      for (const m of record.message) {
        if (m.role !== "assistant" || !m.feedback || m.id === undefined) continue;
        const seconds = Math.floor(m.feedback.time / 1000);
        all.push({
          id: `${m.id}-feedback`,
          app_id: appId,
          conversation_id: record.id,
          message_id: m.id,
          rating: m.feedback.rating,
          content: m.feedback.content,
          from_source: "api",
          from_end_user_id: record.user_id,
          from_account_id: null,
          created_at: seconds,
          updated_at: seconds,
          time: m.feedback.time,
        });
      }
    }
    all.sort((a, b) => b.time - a.time);
    return { data: all.slice((page - 1) * limit, page * limit).map(({ time: _time, ...item }) => item) };
  });
}
