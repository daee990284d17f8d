/**
 * Closing a server gracefully (`createServer({ shutdownGraceMs })`, then `app.close()`): no new
 * requests (a request still arriving is answered 503 with the envelope), the runs going on get the
 * grace period to finish, the rest are cancelled (a cancelled workflow_finished and [DONE]) and
 * their sessions stay resumable; WebSocket connections get their turn's last frames, then close
 * 1001; re-attach readers of this server's runs get the run's end.
 */
import { join } from "node:path";
import { connect as connectTcp } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createApiKey } from "../../src/server/store/api-keys.js";
import { createServer, type CreateServerOptions } from "../../src/server/app.js";
import { SqliteServerStore } from "../../src/backends/sqlite/server-store.js";
import type { ServerStore } from "../../src/backends/contracts.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { scratchDir } from "../helpers/scratch.js";
import { call, createAgent, frames, holdAgentReads, send, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas } from "./canvases.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = any;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server on 127.0.0.1 over a data folder store; the test closes it (afterEach closes what is left). */
async function serve(store: ServerStore, key: string, options: Partial<CreateServerOptions>): Promise<TestServer> {
  const app = createServer({ ...options, store });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const server: TestServer = { base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, app, store, key, close: () => app.close() };
  cleanups.push(async () => {
    if (app.server.listening) {
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    }
  });
  return server;
}

async function dataFolderStore(): Promise<{ store: ServerStore; key: string; reopen(): ServerStore }> {
  const dir = scratchDir("cf-shutdown-").dir;
  const store = new SqliteServerStore({ file: join(dir, "canvasflow.db") });
  cleanups.push(() => store.close());
  const { key } = await createApiKey(store, { tenant: "t1", name: "test" });
  return {
    store,
    key,
    reopen: () => {
      const again = new SqliteServerStore({ file: join(dir, "canvasflow.db") });
      cleanups.push(() => again.close());
      return again;
    },
  };
}

/** A streaming turn: resolves once the model was asked, with the stream's events to come. */
async function streamingTurn(server: TestServer, body: Record<string, unknown>, asked: () => boolean) {
  const response = await send(server, "/api/v1/agents/chat/completions", { body: { ...body, stream: true } });
  const text = response.text();
  while (!asked()) await new Promise((resolve) => setTimeout(resolve, 5));
  return {
    ended: text.then((whole) => {
      const parts = frames(whole);
      return { done: parts.at(-1) === "data:[DONE]", events: parts.filter((p) => p !== "data:[DONE]").map((p) => JSON.parse(p.slice(5))) as Event[] };
    }),
  };
}

describe("closing the server", () => {
  it("lets a run finish within the grace period; the stream ends normally; a request arriving meanwhile is answered 503", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", reply: "one two three four five six seven eight", chunk_delay_ms: 150 }] });
    const { store, key } = await dataFolderStore();
    const server = await serve(store, key, { canvas: { services: { llm: mock.provider } }, shutdownGraceMs: 60_000 });
    const agentId = await createAgent(server, llmCanvas());
    const { ended } = await streamingTurn(server, { agent_id: agentId, query: "slow" }, () => mock.chatRequests().length > 0);

    // A request whose headers are still coming in when the server starts closing.
    const socket = connectTcp({ host: "127.0.0.1", port: Number(new URL(server.base).port) });
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    socket.write(`GET /api/v1/agents HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const closed = server.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(`Authorization: Bearer ${key}\r\n\r\n`);
    await new Promise((resolve) => socket.once("close", resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ code: 503, message: expect.stringMatching(/^The server is shutting down/), data: null });
    // No new connections either.
    await expect(fetch(`${server.base}/api/v1/system/ping`)).rejects.toThrow();

    const { done, events } = await ended;
    await closed;
    expect(done).toBe(true);
    expect(events.at(-1).event).toBe("workflow_finished");
    expect(events.at(-1).data.error).toBeUndefined();
    expect(events.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe("one two three four five six seven eight");
  });

  it("a turn still waiting for a place to set up (limits.setupsAtOnce) when closing starts is answered 503 and starts nothing", async () => {
    const { store, key } = await dataFolderStore();
    const server = await serve(store, key, { limits: { setupsAtOnce: 1 }, shutdownGraceMs: 60_000 });
    const agentId = await createAgent(server, hello());
    // The first turn's setup is held at its agent read, so the second waits for its place.
    const held = holdAgentReads(store);
    const first = call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "first" } });
    await held.started();
    const second = call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "second" } });
    const waiting = async () => /^canvasflow_setups_waiting (\d+)$/m.exec((await call(server, "/metrics", { key: null })).text)?.[1];
    while ((await waiting()) !== "1") await new Promise((resolve) => setTimeout(resolve, 5));
    const closed = server.app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    held.open();
    expect((await first).json.code).toBe(0);
    const refused = await second;
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({ code: 503, message: expect.stringMatching(/^The server is shutting down/), data: null });
    await closed;
    expect(held.reads()).toBe(1);
    expect((await store.sessions.list("t1", agentId, { page: 1, page_size: 10, orderby: "create_time", desc: true })).total).toBe(1);
  });

  it("cancels the runs still going after the grace period: a cancelled workflow_finished and [DONE]; the session goes on on the next server", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "after the restart" }] });
    const { store, key, reopen } = await dataFolderStore();
    const server = await serve(store, key, { canvas: { services: { llm: mock.provider } }, shutdownGraceMs: 300 });
    const agentId = await createAgent(server, llmCanvas());
    const { ended } = await streamingTurn(server, { agent_id: agentId, query: "slow" }, () => mock.chatRequests().length > 0);
    await server.app.close();
    const { done, events } = await ended;
    expect(done).toBe(true);
    const sessionId = events[0].session_id;
    expect(events.at(-1)).toMatchObject({ event: "workflow_finished", session_id: sessionId, data: { error: "cancelled" } });

    const next = await serve(reopen(), key, { canvas: { services: { llm: mock.provider } } });
    const answer = await call(next, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: sessionId, query: "again" } });
    expect(answer.json.code).toBe(0);
    expect(answer.json.data.data.content).toBe("after the restart");
  });

  it("a WebSocket connection gets its turn's end and done, then closes 1001; a run frame meanwhile is refused with 503; a re-attach reader gets the run's end", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", reply: "one two three four five six", chunk_delay_ms: 150 }] });
    const { store, key } = await dataFolderStore();
    const server = await serve(store, key, { canvas: { services: { llm: mock.provider } }, shutdownGraceMs: 60_000 });
    const agentId = await createAgent(server, llmCanvas());
    const socket = new WebSocket(`${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`, { headers: { authorization: `Bearer ${key}` } });
    const received: Event[] = [];
    socket.on("message", (data) => received.push(JSON.parse(String(data))));
    const closedWith = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ type: "run", query: "slow" }));
    while (mock.chatRequests().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const sessionId = received[0].session_id;
    const reader = send(server, `/api/v1/sessions/${sessionId}/events`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 100));

    const closing = server.app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.send(JSON.stringify({ type: "run", query: "more" }));
    expect(await closedWith).toBe(1001);
    await closing;

    const refused = received.findIndex((f) => f.code === 503);
    expect(received[refused]).toMatchObject({ code: 503, data: null });
    expect(received[refused + 1]).toEqual({ type: "done" });
    const turn = received.filter((f, i) => i !== refused && i !== refused + 1);
    expect(turn.at(-2)).toMatchObject({ event: "workflow_finished", session_id: sessionId });
    expect(turn.at(-2).data.error).toBeUndefined();
    expect(turn.at(-1)).toEqual({ type: "done", session_id: sessionId });

    const log = frames(await reader);
    expect(log.at(-1)).toBe("data:[DONE]");
    expect(JSON.parse(log.at(-2)!.split("\ndata:")[1])).toMatchObject({ event: "workflow_finished", session_id: sessionId });
  });

  it("refuses a bad grace period, naming the option", async () => {
    const { store } = await dataFolderStore();
    for (const bad of [-1, Number.NaN, Infinity, 2 ** 31]) {
      expect(() => createServer({ store, shutdownGraceMs: bad })).toThrow(/^createServer: shutdownGraceMs must be a number of milliseconds from 0 to 2147483647, got /);
    }
  });
});
