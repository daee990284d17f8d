/**
 * Re-attach (ours, not RAGFlow's): `GET /api/v1/sessions/{session_id}/events` replays a session's
 * durable event log after an event id (the `Last-Event-ID` header, else `?after=`), then follows
 * the live run, in this process or any other sharing the store, to its last event
 * (workflow_finished or user_inputs), then `[DONE]`. Without an id: the session's latest run from
 * its start. With no run going and nothing logged after the id, it answers what there is and ends.
 *
 * Framing: the native stream's (`data:{json}`, no space, `data:[DONE]` last) with an `id:<event
 * id>` line before each event, so an EventSource that loses the connection reconnects where it
 * left off. A stream cut because the server is closing ends without `[DONE]` for the same reason.
 */
import type { FastifyInstance } from "fastify";
import { endsRun, followEvents } from "../../durable/follow.js";
import type { StoredEvent } from "../../backends/contracts.js";
import type { ServerContext } from "../context.js";
import { argumentError } from "../envelope.js";
import { nativeStreamError } from "../formats/native.js";
import { findTenantSession } from "../sessions.js";
import { SseStream } from "../sse.js";

/** `<run>-<n>`, both decimal integers (the session log's ids). */
const EVENT_ID = /^(0|[1-9][0-9]{0,14})-(0|[1-9][0-9]{0,14})$/;
/** How long a re-attach reader gets, when the server closes, to send what is left before it is cut. */
const FINAL_LOOK_MS = 1_000;

/** The id to replay after: `Last-Event-ID` (what an EventSource sends when it reconnects) wins over `?after=`. */
function afterId(headers: Record<string, unknown>, query: Record<string, unknown>): string | undefined {
  const header = headers["last-event-id"];
  // An EventSource that has seen no id sends none; an empty one means the same.
  if (header !== undefined && header !== "") return checkedId(header, "header `Last-Event-ID`");
  if (query.after !== undefined) return checkedId(query.after, "query parameter `after`");
  return undefined;
}

function checkedId(value: unknown, field: string): string {
  if (typeof value !== "string") throw argumentError(`The ${field} must be one event id, such as 3-17, got ${JSON.stringify(value)}`, null);
  if (!EVENT_ID.test(value)) {
    const shown = value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
    throw argumentError(`The ${field} must be an event id <run>-<n> (two decimal integers, such as 3-17, as the stream's id: lines give them), got ${shown}`, null);
  }
  return value;
}

export function eventRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get("/api/v1/sessions/:session_id/events", async (request, reply) => {
    const { session_id: sessionId } = request.params as { session_id: string };
    const after = afterId(request.headers, request.query as Record<string, unknown>);
    await findTenantSession(ctx, request.tenant, sessionId);

    const sse = new SseStream(reply, "native");
    const controller = new AbortController();
    sse.onClientGone(() => controller.abort());
    // When the server closes: one last look (a run of this process has ended by then), then the end.
    let stopping = false;
    let cut = false;
    let finished: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const forget = ctx.shutdown.onClose(async () => {
      stopping = true;
      const timer = setTimeout(() => controller.abort(), FINAL_LOOK_MS);
      await done;
      clearTimeout(timer);
    });
    const running = (last: StoredEvent | undefined) => {
      // This process runs a turn of it, or the log's last event does not end its run (another process runs it).
      const going = ctx.runs.has(sessionId) || (last !== undefined && !endsRun(last.event));
      if (going && stopping) cut = true;
      return going && !stopping;
    };

    let ended = false;
    try {
      for await (const logged of followEvents(ctx.store.runs, sessionId, { after, latestRun: after === undefined, signal: controller.signal, running })) {
        await sse.sendWithId(logged.id, { ...logged.event, session_id: sessionId });
        ended = endsRun(logged.event);
      }
      if (controller.signal.aborted && !sse.clientGone) cut = true;
      if (cut && !ended) sse.end();
      else await sse.done();
    } catch (error) {
      ctx.log.error({ err: error, session: sessionId }, "a re-attach stream failed");
      await sse.send(nativeStreamError(error instanceof Error ? error.message : String(error)));
      await sse.done();
    } finally {
      forget();
      finished();
    }
  });
}
