/**
 * The SSE streams read by real clients and checked byte for byte:
 * - `eventsource-parser` over `fetch` on the native stream, the way RAGFlow's web UI reads it
 *   (web/src/hooks/use-send-message.ts: `body.pipeThrough(new TextDecoderStream())
 *   .pipeThrough(new EventSourceParserStream())`, then `JSON.parse(data)` per message);
 * - the raw body bytes of both framings rebuilt from the events they carry: native
 *   `data:{json}\n\n` … `data:[DONE]\n\n`, OpenAI `data: {json}\n\n` … `data: [DONE]\n\n`. Equal
 *   bytes leave no room for a stray space, `\r`, comment, `event:`/`id:`/`retry:` line or blank line.
 * The reply is not ASCII and arrives in several model chunks, so UTF-8 is exercised across frames.
 */
import type { EventSourceMessage } from "eventsource-parser";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { describe, expect, it } from "vitest";
import { startMockLlm } from "../helpers/mock-llm.js";
import { createAgent, send, startTestServer, type TestServer } from "../helpers/server.js";
import { llmCanvas, userFillUp } from "../server/canvases.js";

const REPLY = "Grüße aus Zürich, 世界 🚀 — done.";
const SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8";

interface ParsedStream {
  response: Response;
  messages: EventSourceMessage[];
  comments: string[];
  retries: number[];
  errors: string[];
}

/** What the web UI does: fetch, decode, parse; every message and anything else the parser saw. */
async function readWithEventSourceParser(server: TestServer, path: string, body: unknown): Promise<ParsedStream> {
  const response = await send(server, path, { body });
  const parsed: ParsedStream = { response, messages: [], comments: [], retries: [], errors: [] };
  const reader = response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(
      new EventSourceParserStream({
        onError: (error) => void parsed.errors.push(error.message),
        onComment: (comment) => void parsed.comments.push(comment),
        onRetry: (retry) => void parsed.retries.push(retry),
      }),
    )
    .getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) parsed.messages.push(next.value);
  return parsed;
}

/** The body exactly as it came off the socket (after HTTP's chunked coding). */
async function rawBody(response: Response): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const reader = response.body!.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(Buffer.from(next.value));
  return Buffer.concat(chunks);
}

async function serverWithLlm() {
  const mock = await startMockLlm({ rules: [{ match: ".", reply: REPLY }] });
  const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
  const agentId = await createAgent(server, llmCanvas());
  return { server, agentId };
}

describe("eventsource-parser over fetch, as RAGFlow's web UI reads the native stream", () => {
  it("every event is a message with JSON data and no event type or id; the last is [DONE]; no comments, retries or parse errors", async () => {
    const { server, agentId } = await serverWithLlm();
    const stream = await readWithEventSourceParser(server, "/api/v1/agents/chat/completions", { agent_id: agentId, query: "hi", stream: true });
    expect(stream.response.headers.get("content-type")).toBe(SSE_CONTENT_TYPE);
    expect(stream.errors).toEqual([]);
    expect(stream.comments).toEqual([]);
    expect(stream.retries).toEqual([]);
    expect(stream.messages.at(-1)).toEqual({ data: "[DONE]", event: undefined, id: undefined });
    for (const message of stream.messages) {
      expect(message.event).toBeUndefined();
      expect(message.id).toBeUndefined();
    }
    const events = stream.messages.slice(0, -1).map((m) => JSON.parse(m.data));
    expect(events[0].event).toBe("workflow_started");
    expect(events.at(-1).event).toBe("workflow_finished");
    expect(events.at(-1).data.error).toBeUndefined();
    const deltas = events.filter((e) => e.event === "message").map((e) => e.data.content);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(REPLY);
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
  });

  it("a paused run (the web UI's form) ends with user_inputs and [DONE]; the answers resume it in the same session", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, userFillUp());
    const paused = await readWithEventSourceParser(server, "/api/v1/agents/chat/completions", { agent_id: agentId, query: "a badge", stream: true });
    const pausedEvents = paused.messages.slice(0, -1).map((m) => JSON.parse(m.data));
    expect(paused.messages.at(-1)!.data).toBe("[DONE]");
    expect(pausedEvents.map((e) => e.event).slice(-3)).toEqual(["message", "message_end", "user_inputs"]);
    expect(pausedEvents.some((e) => e.event === "workflow_finished")).toBe(false);
    expect(Object.keys(pausedEvents.at(-1).data.inputs)).toEqual(["name", "colour", "note"]);

    const sessionId = pausedEvents[0].session_id;
    const resumed = await readWithEventSourceParser(server, "/api/v1/agents/chat/completions", {
      agent_id: agentId,
      session_id: sessionId,
      stream: true,
      inputs: { name: { type: "line", value: "Zoë" }, colour: { type: "options", value: "blue" } },
    });
    const resumedEvents = resumed.messages.slice(0, -1).map((m) => JSON.parse(m.data));
    expect(resumedEvents.every((e) => e.session_id === sessionId)).toBe(true);
    expect(resumedEvents.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe("[blue] Zoë ");
    expect(resumedEvents.at(-1).event).toBe("workflow_finished");
  });
});

/** The payloads of `prefix`-framed frames, checked to rebuild `raw` exactly. */
function payloadsRebuilding(raw: Buffer, prefix: string): string[] {
  const text = raw.toString("utf8");
  // Valid UTF-8 throughout: decoding and encoding again gives the same bytes.
  expect(Buffer.from(text, "utf8").equals(raw)).toBe(true);
  expect(text.endsWith(`${prefix}[DONE]\n\n`)).toBe(true);
  const frames = text.slice(0, -`${prefix}[DONE]\n\n`.length).split("\n\n");
  expect(frames.pop()).toBe("");
  const payloads = frames.map((frame) => {
    expect(frame.startsWith(prefix)).toBe(true);
    return frame.slice(prefix.length);
  });
  // Each payload re-serialized compactly, framed again: byte for byte the body.
  const rebuilt = payloads.map((p) => `${prefix}${JSON.stringify(JSON.parse(p))}\n\n`).join("") + `${prefix}[DONE]\n\n`;
  expect(Buffer.from(rebuilt, "utf8").equals(raw)).toBe(true);
  return payloads;
}

describe("the raw bytes of both framings", () => {
  it("native: data:{json}\\n\\n … data:[DONE]\\n\\n and nothing else; RAGFlow's headers; no content-length or compression", async () => {
    const { server, agentId } = await serverWithLlm();
    const response = await send(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "hi", stream: true }, headers: { "accept-encoding": "gzip, br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(SSE_CONTENT_TYPE);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("content-encoding")).toBeNull();
    const raw = await rawBody(response);
    expect(raw.subarray(0, 6).toString()).toBe('data:{');
    const events = payloadsRebuilding(raw, "data:").map((p) => JSON.parse(p));
    for (const event of events) expect(Object.keys(event)).toEqual(["event", "message_id", "created_at", "task_id", "data", "session_id"]);
    expect(events.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe(REPLY);
  });

  for (const [route, request] of [
    ["/api/v1/agents_openai/{id}/chat/completions", (id: string) => ({ path: `/api/v1/agents_openai/${id}/chat/completions`, body: { model: "m", messages: [{ role: "user", content: "hi" }], stream: true } })],
    ["/api/v1/agents/chat/completions with openai-compatible", (id: string) => ({ path: "/api/v1/agents/chat/completions", body: { agent_id: id, "openai-compatible": true, messages: [{ role: "user", content: "hi" }], stream: true } })],
  ] as const) {
    it(`OpenAI (${route}): data: {json}\\n\\n … data: [DONE]\\n\\n and nothing else`, async () => {
      const { server, agentId } = await serverWithLlm();
      const { path, body } = request(agentId);
      const response = await send(server, path, { body });
      expect(response.headers.get("content-type")).toBe(SSE_CONTENT_TYPE);
      const raw = await rawBody(response);
      expect(raw.subarray(0, 7).toString()).toBe("data: {");
      const chunks = payloadsRebuilding(raw, "data: ").map((p) => JSON.parse(p));
      expect(chunks.map((c) => c.choices[0].delta.content).join("")).toBe(REPLY);
      expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
      expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    });
  }
});
