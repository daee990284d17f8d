/**
 * Re-attach: `GET /api/v1/sessions/{id}/events` replays a session's durable event log after the
 * `Last-Event-ID` (or `?after=`) and follows the live run to its last event, as SSE frames
 * `id:<event id>\ndata:{json}\n\n` ending `data:[DONE]\n\n`; read here as RAGFlow's web UI reads
 * streams (eventsource-parser over fetch), with a reconnection that resumes from the last id.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { startMockLlm } from "../helpers/mock-llm.js";
import { addKey, call, createAgent, frames, send, startTestServer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas } from "./canvases.js";

const ID_FRAME = /^id:\d+-\d+\ndata:\{[^\n]*\}$/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = any;

/** The frames of a stream read whole: [id, event] pairs, and whether it ended with [DONE]. */
function parsed(text: string): { ids: string[]; events: Event[]; done: boolean } {
  const parts = frames(text);
  const done = parts.at(-1) === "data:[DONE]";
  const body = done ? parts.slice(0, -1) : parts;
  for (const frame of body) expect(frame).toMatch(ID_FRAME);
  return {
    ids: body.map((f) => f.slice(3, f.indexOf("\n"))),
    events: body.map((f) => JSON.parse(f.slice(f.indexOf("\ndata:") + 6))),
    done,
  };
}

async function streamedTurn(server: TestServer, body: Record<string, unknown>): Promise<Event[]> {
  const text = await (await send(server, "/api/v1/agents/chat/completions", { body: { ...body, stream: true } })).text();
  return frames(text)
    .slice(0, -1)
    .map((f) => JSON.parse(f.slice(5)));
}

const eventsPath = (sessionId: string, query = "") => `/api/v1/sessions/${sessionId}/events${query}`;

describe("re-attach to a session's events", () => {
  it("replays the latest run with id: lines, from an id (Last-Event-ID wins over ?after=), and ends with [DONE] when nothing runs", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const first = await streamedTurn(server, { agent_id: agentId, query: "Ada" });
    const sessionId = first[0].session_id as string;
    const second = await streamedTurn(server, { agent_id: agentId, query: "Bob", session_id: sessionId });

    // No id: the latest run, from its start, exactly the events its stream sent.
    const latest = await call(server, eventsPath(sessionId));
    expect(latest.status).toBe(200);
    expect(latest.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(latest.text.endsWith("data:[DONE]\n\n")).toBe(true);
    const replay = parsed(latest.text);
    expect(replay.done).toBe(true);
    expect(replay.events).toEqual(second);
    expect(new Set(replay.ids.map((id) => id.split("-")[0])).size).toBe(1);

    // After an id: the rest of that run only.
    const fromThird = await call(server, eventsPath(sessionId), { headers: { "last-event-id": replay.ids[2] } });
    expect(parsed(fromThird.text)).toEqual({ ids: replay.ids.slice(3), events: second.slice(3), done: true });
    // From the first run's middle: the rest of the first run, up to its workflow_finished.
    const all = await call(server, eventsPath(sessionId, "?after=0-0"));
    const firstRun = parsed(all.text);
    expect(firstRun.events).toEqual(first);
    const mid = firstRun.ids[4];
    expect(parsed((await call(server, eventsPath(sessionId, `?after=${mid}`))).text).events).toEqual(first.slice(5));
    // The header wins: it is what an EventSource sends when it reconnects to the same URL.
    const both = await call(server, eventsPath(sessionId, `?after=${mid}`), { headers: { "last-event-id": replay.ids[2] } });
    expect(parsed(both.text).events).toEqual(second.slice(3));

    // Nothing after the id and no run going: [DONE] at once.
    const nothing = await call(server, eventsPath(sessionId), { headers: { "last-event-id": replay.ids.at(-1)! } });
    expect(nothing.text).toBe("data:[DONE]\n\n");
    // A session that never ran: the same.
    const fresh = (await call(server, `/api/v1/agents/${agentId}/sessions`, { body: {} })).json.data.id;
    expect((await call(server, eventsPath(fresh))).text).toBe("data:[DONE]\n\n");
  });

  it("follows a live run to its end; a reader that loses the connection resumes from its last id (eventsource-parser)", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", reply: "one two three four five six seven eight", chunk_delay_ms: 60 }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const agentId = await createAgent(server, llmCanvas());
    const sessionId = (await call(server, `/api/v1/agents/${agentId}/sessions`, { body: {} })).json.data.id as string;
    const turn = streamedTurn(server, { agent_id: agentId, session_id: sessionId, query: "slow" });
    while (mock.chatRequests().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    // A reader that attaches mid-run, reads three events, and loses its connection.
    const seen: EventSourceMessage[] = [];
    const lost = new AbortController();
    const response = await send(server, eventsPath(sessionId), { signal: lost.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const parser = createParser({ onEvent: (message) => seen.push(message) });
    while (seen.length < 3) parser.feed((await reader.read()).value!);
    lost.abort();
    const kept = seen.slice(0, 3);
    // It comes back with the last id it saw, as an EventSource does, and reads to the end.
    const resumed: EventSourceMessage[] = [];
    const rest = await send(server, eventsPath(sessionId), { headers: { "last-event-id": kept.at(-1)!.id! } });
    const restParser = createParser({ onEvent: (message) => resumed.push(message) });
    restParser.feed(await rest.text());
    const live = await turn;

    expect(resumed.at(-1)!.data).toBe("[DONE]");
    const messages = [...kept, ...resumed.slice(0, -1)];
    expect(messages.map((m) => JSON.parse(m.data))).toEqual(live);
    expect(live.at(-1)).toMatchObject({ event: "workflow_finished", session_id: sessionId });
    expect(live.filter((e: Event) => e.event === "message").length).toBeGreaterThan(3);
  });

  it("bad ids name the header or parameter (101); another tenant's session is 103, an unknown one 102; no key is 401", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const sessionId = (await streamedTurn(server, { agent_id: agentId, query: "Ada" }))[0].session_id as string;
    // (HTTP trims a header's surrounding spaces; a query parameter keeps them.)
    for (const bad of ["x", "1", "1-", "-1", "01-2", "1-2-3", "1.5-2", "1 -2", "9999999999999999-1"]) {
      const byHeader = await call(server, eventsPath(sessionId), { headers: { "last-event-id": bad } });
      expect(byHeader.status).toBe(200);
      expect(byHeader.json).toMatchObject({ code: 101, data: null });
      expect(byHeader.json.message).toContain("header `Last-Event-ID` must be an event id <run>-<n>");
      const byQuery = await call(server, eventsPath(sessionId, `?after=${encodeURIComponent(bad)}`));
      expect(byQuery.json).toMatchObject({ code: 101 });
      expect(byQuery.json.message).toContain("query parameter `after` must be an event id");
    }
    expect((await call(server, eventsPath(sessionId, "?after=%201-2"))).json).toMatchObject({ code: 101 });
    expect((await call(server, eventsPath(sessionId, "?after=1-1&after=1-2"))).json.message).toContain("query parameter `after` must be one event id");
    expect((await call(server, eventsPath("f".repeat(32)))).json).toMatchObject({ code: 102, message: "Session not found!" });
    const other = await addKey(server.store, "t2");
    expect((await call(server, eventsPath(sessionId), { key: other })).json).toMatchObject({ code: 103, message: "Only authorized users can access this agent session." });
    const unauthenticated = await call(server, eventsPath(sessionId), { key: null });
    expect(unauthenticated.status).toBe(401);
  });
});
