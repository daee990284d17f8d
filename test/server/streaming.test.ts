/**
 * The SSE streams, byte by byte (research/ragflow-api.md §1): native frames `data:{json}\n\n`
 * ending `data:[DONE]\n\n`, OpenAI frames `data: {json}\n\n` ending `data: [DONE]\n\n`, RAGFlow's
 * headers (with CORS kept), the event envelope with `task_id === session_id`, backpressure, and
 * what a client that goes away does to its run.
 */
import { EventEmitter } from "node:events";
import type { FastifyReply } from "fastify";
import { describe, expect, it } from "vitest";
import { SseStream } from "../../src/server/sse.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { call, createAgent, frames, send, startTestServer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas } from "./canvases.js";

const NATIVE_FRAME = /^data:\{[^\n]*\}$/;
const OPENAI_FRAME = /^data: \{[^\n]*\}$/;

async function streamText(server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await send(server, path, { body, headers });
  return { response, text: await response.text() };
}

describe("the native stream", () => {
  it("is data:{json} frames without a space, then data:[DONE]; RAGFlow's headers; every event carries session_id, equal to task_id", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const { response, text } = await streamText(server, "/api/v1/agents/chat/completions", { agent_id: agentId, query: "Ada", stream: true }, { origin: "http://example.test" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(response.headers.get("connection")).toBe("keep-alive");
    // CORS headers set before the response was taken over survive it.
    expect(response.headers.get("access-control-allow-origin")).toBe("*");

    expect(text.endsWith("data:[DONE]\n\n")).toBe(true);
    const parts = frames(text);
    expect(parts.at(-1)).toBe("data:[DONE]");
    for (const frame of parts.slice(0, -1)) expect(frame).toMatch(NATIVE_FRAME);
    expect(text).not.toMatch(/^(event|id|retry):/m);

    const events = parts.slice(0, -1).map((frame) => JSON.parse(frame.slice("data:".length)));
    // The full event stream (consecutive messages counted once: the Message streams its template piece by piece).
    const names = events.map((e) => e.event).filter((name, i, all) => name !== "message" || all[i - 1] !== "message");
    expect(names).toEqual(["workflow_started", "node_started", "node_finished", "node_started", "message", "message_end", "node_finished", "workflow_finished"]);
    const sessionId = events[0].session_id;
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    for (const event of events) {
      expect(Object.keys(event)).toEqual(["event", "message_id", "created_at", "task_id", "data", "session_id"]);
      expect(event.task_id).toBe(event.session_id);
      expect(event.session_id).toBe(sessionId);
    }
    expect(events.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe("Hello, Ada! This is turn 1.");

    // The legacy alias streams the next turn of the same session the same way.
    const next = await streamText(server, `/api/v1/agents/${agentId}/completions`, { question: "Bob", stream: true, session_id: sessionId });
    const nextEvents = frames(next.text).slice(0, -1).map((frame) => JSON.parse(frame.slice(5)));
    expect(nextEvents.every((e) => e.session_id === sessionId && e.task_id === sessionId)).toBe(true);
    expect(nextEvents.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe("Hello, Bob! This is turn 2.");
  });

  it("return_trace adds the cumulative trace to node_finished and to the non-stream answer", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const { text } = await streamText(server, "/api/v1/agents/chat/completions", { agent_id: agentId, query: "Ada", stream: true, return_trace: true });
    const finished = frames(text).slice(0, -1).map((f) => JSON.parse(f.slice(5))).filter((e) => e.event === "node_finished");
    expect(finished.map((e) => e.data.trace.map((t: { component_id: string }) => t.component_id))).toEqual([["begin"], ["begin", "Message:Greet"]]);
    const answer = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", return_trace: true } });
    expect(answer.json.data.data.trace.map((t: { component_id: string }) => t.component_id)).toEqual(["begin", "Message:Greet"]);
  });
});

describe("CORS", () => {
  it("a preflight needs no key and allows the Authorization header", async () => {
    const server = await startTestServer();
    const response = await send(server, "/api/v1/agents/chat/completions", {
      method: "OPTIONS",
      key: null,
      headers: { origin: "http://example.test", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
});

/** A store whose cancel signals fail: a run cannot start listening for cancels. */
function storeWithBrokenCancel(): InProcessServerStore {
  const store = new InProcessServerStore();
  const broken = async () => {
    throw new Error("the cancel backend is down");
  };
  Object.assign(store.cancel, { clear: broken, watch: broken });
  return store;
}

describe("a failure outside the run", () => {
  it("native stream: a code 500 frame, then data:[DONE]; non-stream: code 100; the session is free again", async () => {
    const server = await startTestServer({ store: storeWithBrokenCancel() });
    const agentId = await createAgent(server, hello());
    const { text } = await streamText(server, "/api/v1/agents/chat/completions", { agent_id: agentId, query: "Ada", stream: true });
    expect(frames(text)).toEqual(['data:{"code":500,"message":"the cancel backend is down","data":false}', "data:[DONE]"]);
    const answer = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada" } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ code: 100, message: "the cancel backend is down", data: null });
    const openAi = await streamText(server, `/api/v1/agents_openai/${agentId}/chat/completions`, { messages: [{ role: "user", content: "hi" }], stream: true });
    const parts = frames(openAi.text);
    expect(parts.at(-1)).toBe("data: [DONE]");
    expect(JSON.parse(parts.at(-2)!.slice(6)).choices[0]).toMatchObject({ finish_reason: "stop", delta: { content: "**ERROR**: the cancel backend is down" } });
    // The sessions' leases were let go: another turn on one is not refused as running.
    const sessionId = (await call(server, `/api/v1/agents/${agentId}/sessions`)).json.data[0].id;
    const again = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", session_id: sessionId } });
    expect(again.json.message).toBe("the cancel backend is down");
  });
});

describe("the OpenAI stream", () => {
  for (const [route, body] of [
    ["/api/v1/agents_openai/{id}/chat/completions", (id: string) => ({ messages: [{ role: "user", content: "Ada" }], stream: true, model: id })],
    ["/api/v1/agents/chat/completions with openai-compatible", (id: string) => ({ agent_id: id, "openai-compatible": true, messages: [{ role: "user", content: "Ada" }], stream: true })],
  ] as const) {
    it(`${route}: data: {json} frames with a space, a finish_reason stop chunk with usage, then data: [DONE]`, async () => {
      const server = await startTestServer();
      const agentId = await createAgent(server, hello());
      const path = route.startsWith("/api/v1/agents_openai") ? `/api/v1/agents_openai/${agentId}/chat/completions` : "/api/v1/agents/chat/completions";
      const { response, text } = await streamText(server, path, body(agentId));
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
      const parts = frames(text);
      expect(parts.at(-1)).toBe("data: [DONE]");
      for (const frame of parts.slice(0, -1)) expect(frame).toMatch(OPENAI_FRAME);
      const chunks = parts.slice(0, -1).map((frame) => JSON.parse(frame.slice("data: ".length)));
      const sessions = (await call(server, `/api/v1/agents/${agentId}/sessions`)).json.data;
      expect(chunks.every((c) => c.id === sessions[0].id && c.object === "chat.completion.chunk" && c.model === agentId)).toBe(true);
      expect(chunks.map((c) => c.choices[0].delta.content).join("")).toBe("Hello, Ada! This is turn 1.");
      const last = chunks.at(-1);
      expect(last.choices[0]).toMatchObject({ finish_reason: "stop", delta: { content: "", role: "assistant" } });
      expect(last.usage).toMatchObject({ prompt_tokens: 1, completion_tokens: 6, total_tokens: 7 });
      expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null && c.usage === null)).toBe(true);
    });
  }

  it("a run that fails ends with an **ERROR** chunk that finishes the answer, then [DONE]", async () => {
    const mock = await startMockLlm({ rules: [{ match: ".", status: 500, message: "the model is down" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const agentId = await createAgent(server, llmCanvas());
    const { text } = await streamText(server, `/api/v1/agents_openai/${agentId}/chat/completions`, { messages: [{ role: "user", content: "hi" }], stream: true });
    const parts = frames(text);
    expect(parts.at(-1)).toBe("data: [DONE]");
    const last = JSON.parse(parts.at(-2)!.slice(6));
    expect(last.choices[0].finish_reason).toBe("stop");
    expect(last.choices[0].delta.content).toMatch(/^\*\*ERROR\*\*: .*the model is down/);
  });
});

/** A reply whose socket says "full" until drained. */
function fullSocketReply() {
  const raw = Object.assign(new EventEmitter(), {
    written: [] as string[],
    writableEnded: false,
    writeHead: () => raw,
    write: (chunk: string) => {
      raw.written.push(chunk);
      return false;
    },
    end: () => {
      raw.writableEnded = true;
    },
  });
  const reply = { raw, hijack: () => undefined, getHeaders: () => ({ "access-control-allow-origin": "*" }) };
  return { raw, reply: reply as unknown as FastifyReply };
}

describe("backpressure", () => {
  it("a frame written to a full socket resolves only once the socket drains", async () => {
    const { raw, reply } = fullSocketReply();
    const sse = new SseStream(reply, "native");
    let sent = false;
    const sending = sse.send({ a: 1 }).then(() => (sent = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(raw.written).toEqual(['data:{"a":1}\n\n']);
    expect(sent).toBe(false);
    raw.emit("drain");
    await sending;
    expect(sent).toBe(true);
  });

  it("a client that goes away while the socket is full releases the writer", async () => {
    const { raw, reply } = fullSocketReply();
    const sse = new SseStream(reply, "openai");
    let gone = false;
    sse.onClientGone(() => (gone = true));
    const sending = sse.send({ a: 1 });
    raw.emit("close");
    await sending;
    expect(gone).toBe(true);
    expect(sse.clientGone).toBe(true);
    // Later frames are dropped.
    await sse.done();
    expect(raw.written).toEqual(['data: {"a":1}\n\n']);
  });
});

async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Start a streaming turn and read until the LLM has been called; resolves to the session id and the aborter. */
async function streamUntilLlmCalled(server: TestServer, agentId: string, mock: Awaited<ReturnType<typeof startMockLlm>>) {
  const controller = new AbortController();
  const response = await send(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "slow", stream: true }, signal: controller.signal });
  const reader = response.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  const sessionId = JSON.parse(first.split("\n\n")[0].slice(5)).session_id as string;
  await waitFor("the LLM call", async () => (mock.chatRequests().length > 0 ? true : undefined));
  return { sessionId, abort: () => controller.abort() };
}

async function lastLogged(server: TestServer, sessionId: string, event: string) {
  return waitFor(`${event} in the session's log`, async () => {
    const logged = await server.store.runs.events(sessionId);
    return logged.map((e) => e.event).find((e) => e.event === event);
  });
}

describe("a client that goes away", () => {
  it("cancels its run: the run ends with workflow_finished error cancelled; the session goes on from before the turn", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "late" }, { match: ".", reply: "quick" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const agentId = await createAgent(server, llmCanvas());
    const { sessionId, abort } = await streamUntilLlmCalled(server, agentId, mock);
    abort();
    const finished = (await lastLogged(server, sessionId, "workflow_finished")) as { data: { error?: string } };
    expect(finished.data.error).toBe("cancelled");
    const next = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "again", session_id: sessionId } });
    expect(next.json.code).toBe(0);
    expect(next.json.data.data.content).toBe("quick");
    // The cancelled turn is not in the session's messages.
    const session = await call(server, `/api/v1/agents/${agentId}/sessions/${sessionId}`);
    expect(session.json.data.message.map((m: { content: string }) => m.content)).toEqual(["Ask me.", "again", "quick"]);
  });

  it("with keepRunningOnDisconnect, the run goes on to its end and the turn is kept", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 300, reply: "done anyway" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } }, keepRunningOnDisconnect: true });
    const agentId = await createAgent(server, llmCanvas());
    const { sessionId, abort } = await streamUntilLlmCalled(server, agentId, mock);
    abort();
    const finished = (await lastLogged(server, sessionId, "workflow_finished")) as { data: { error?: string } };
    expect(finished.data.error).toBeUndefined();
    const session = await waitFor("the turn in the session's messages", async () => {
      const answer = await call(server, `/api/v1/agents/${agentId}/sessions/${sessionId}`);
      return answer.json.data.message.length === 3 ? answer.json.data : undefined;
    });
    expect(session.message.at(-1).content).toBe("done anyway");
  });
});
