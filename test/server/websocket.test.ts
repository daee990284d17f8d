/**
 * The WebSocket transport, `/api/v1/agents/{id}/ws`, driven by a real `ws` client over loopback:
 * the key (header or `bearer.<key>` subprotocol), run frames (new session, next turn, pause and
 * resume), one `done` per run frame, errors as envelopes that never end the connection, cancel,
 * and what closing the socket does to its run.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startMockLlm } from "../helpers/mock-llm.js";
import { addKey, call, createAgent, frames, send, startTestServer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas, userFillUp } from "./canvases.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Frame = any;

interface Client {
  socket: WebSocket;
  /** The next frame the server sends (parsed). */
  next(): Promise<Frame>;
  /** Frames up to and including the next `done`. */
  untilDone(): Promise<Frame[]>;
  send(value: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

const open: WebSocket[] = [];

// Sockets a failed test left open.
afterEach(() => {
  for (const socket of open.splice(0)) socket.terminate();
});

async function connect(server: TestServer, agentId: string, how: { key?: string | null; protocols?: string[] } = {}): Promise<Client> {
  const key = how.key === undefined ? server.key : how.key;
  const url = `${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`;
  const socket = how.protocols ? new WebSocket(url, how.protocols) : new WebSocket(url, key === null ? {} : { headers: { authorization: `Bearer ${key}` } });
  open.push(socket);
  const queue: Frame[] = [];
  const waiting: Array<(frame: Frame) => void> = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(String(data));
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else queue.push(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const next = () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise<Frame>((resolve) => waiting.push(resolve)));
  return {
    socket,
    next,
    async untilDone() {
      const got: Frame[] = [];
      for (;;) {
        const frame = await next();
        got.push(frame);
        if (frame.type === "done") return got;
      }
    },
    send: (value) => socket.send(typeof value === "string" ? value : JSON.stringify(value)),
    closed,
  };
}

/** The refused upgrade's HTTP status and body. */
function refusedUpgrade(url: string, options: WebSocket.ClientOptions, protocols?: string[]): Promise<{ status: number; body: Frame }> {
  return new Promise((resolve, reject) => {
    const socket = protocols ? new WebSocket(url, protocols, options) : new WebSocket(url, options);
    socket.on("open", () => reject(new Error("the upgrade was accepted")));
    socket.on("error", () => undefined);
    socket.on("unexpected-response", (_request, response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
  });
}

const events = (frames: Frame[]) => frames.filter((f) => typeof f.event === "string");
const text = (frames: Frame[]) => events(frames).filter((e) => e.event === "message").map((e) => e.data.content).join("");

describe("the WebSocket transport", () => {
  it("runs turns from run frames: the native events with session_id, then one done per run frame; the same events as the SSE stream", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const client = await connect(server, agentId);
    client.send({ type: "run", query: "Ada" });
    const first = await client.untilDone();
    const sessionId = first[0].session_id;
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(first.at(-1)).toEqual({ type: "done", session_id: sessionId });
    expect(events(first).length).toBe(first.length - 1);
    for (const event of events(first)) {
      expect(Object.keys(event)).toEqual(["event", "message_id", "created_at", "task_id", "data", "session_id"]);
      expect(event.task_id).toBe(sessionId);
    }
    expect(events(first).at(-1).event).toBe("workflow_finished");
    expect(text(first)).toBe("Hello, Ada! This is turn 1.");

    // `question` and the next turn of the session, as the native body has them.
    client.send({ type: "run", question: "Bob", session_id: sessionId });
    const second = await client.untilDone();
    expect(text(second)).toBe("Hello, Bob! This is turn 2.");
    expect(second.at(-1)).toEqual({ type: "done", session_id: sessionId });

    // What the native SSE stream sends for the same turn, event for event (ids and times aside).
    const sse = await (await send(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Cy", session_id: sessionId, stream: true } })).text();
    client.send({ type: "run", query: "Cy", session_id: sessionId });
    const shape = (e: Frame) => ({ event: e.event, component: e.data?.component_id, content: e.data?.content?.replace(/\d/g, "N") });
    const viaSse = frames(sse).slice(0, -1).map((f) => shape(JSON.parse(f.slice(5))));
    expect(events(await client.untilDone()).map(shape)).toEqual(viaSse);
    client.socket.close();
  });

  it("pauses and resumes with inputs over one connection", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, userFillUp());
    const client = await connect(server, agentId);
    client.send({ type: "run", query: "hi" });
    const paused = await client.untilDone();
    expect(events(paused).at(-1).event).toBe("user_inputs");
    const sessionId = paused.at(-1).session_id;
    client.send({ type: "run", session_id: sessionId, inputs: { name: { type: "line", value: "Ada" }, colour: "blue" } });
    const resumed = await client.untilDone();
    expect(events(resumed)[0].event).not.toBe("workflow_started");
    expect(text(resumed).trim()).toBe("[blue] Ada");
  });

  it("takes the key from the Authorization header or the bearer.<key> subprotocol (answering canvasflow); refuses the upgrade with 401 otherwise", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const viaProtocol = await connect(server, agentId, { protocols: ["canvasflow", `bearer.${server.key}`] });
    expect(viaProtocol.socket.protocol).toBe("canvasflow");
    viaProtocol.send({ type: "run", query: "Ada" });
    expect(text(await viaProtocol.untilDone())).toBe("Hello, Ada! This is turn 1.");

    const url = `${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`;
    const unauthorized = { status: 401, body: { code: 401, message: "<Unauthorized '401: Unauthorized'>", data: null } };
    expect(await refusedUpgrade(url, {})).toEqual(unauthorized);
    expect(await refusedUpgrade(url, { headers: { authorization: "Bearer cf-wrong" } })).toEqual(unauthorized);
    expect(await refusedUpgrade(url, {}, ["canvasflow", "bearer.cf-wrong"])).toEqual(unauthorized);
    // Another tenant's key reaches only its own agents.
    const other = await connect(server, agentId, { key: await addKey(server.store, "t2") });
    other.send({ type: "run", query: "Eve" });
    expect(await other.untilDone()).toEqual([{ code: 103, message: "Make sure you have permission to access the agent.", data: false }, { type: "done" }]);

    // A plain GET is told to upgrade.
    const plain = await call(server, `/api/v1/agents/${agentId}/ws`);
    expect(plain.status).toBe(426);
    expect(plain.json).toMatchObject({ code: 101, data: null });
    expect(plain.json.message).toContain("is a WebSocket endpoint");
  });

  it("never logs the key, however it came (logs at the most detailed level)", async () => {
    let logged = "";
    const server = await startTestServer({ logger: { level: "trace", stream: { write: (line: string) => void (logged += line) } } });
    const agentId = await createAgent(server, hello());
    const viaProtocol = await connect(server, agentId, { protocols: ["canvasflow", `bearer.${server.key}`] });
    viaProtocol.send({ type: "run", query: "Ada" });
    await viaProtocol.untilDone();
    const viaHeader = await connect(server, agentId);
    viaHeader.send({ type: "run", query: "Bob" });
    await viaHeader.untilDone();
    await refusedUpgrade(`${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`, {}, ["canvasflow", "bearer.cf-a-wrong-key-here"]);
    expect(logged).toContain("/ws");
    expect(logged).not.toContain(server.key);
    expect(logged).not.toContain(server.key.slice(3, 20));
    expect(logged).not.toContain("cf-a-wrong-key-here");
  });

  it("answers every bad frame with an envelope naming what is wrong, and the connection goes on", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const client = await connect(server, agentId);
    const refusals: Array<[unknown, RegExp]> = [
      ["not json", /^The frame is not valid JSON: /],
      ["[1,2]", /^A frame must be a JSON object with a `type` \("run" or "cancel"\), got \[1,2\]$/],
      ["null", /^A frame must be a JSON object/],
      [{ query: "hi" }, /^Field `type` must be "run" or "cancel", got undefined$/],
      [{ type: "walk" }, /^Field `type` must be "run" or "cancel", got "walk"$/],
      ['{"type":"run","__proto__":{"polluted":true}}', /__proto__/],
    ];
    for (const [frame, message] of refusals) {
      client.send(frame);
      const answer = await client.next();
      expect(answer).toMatchObject({ code: 101, data: null });
      expect(answer.message).toMatch(message);
    }
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.next()).toEqual({ code: 101, message: "Frames must be JSON text; got a binary frame.", data: null });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // Run frames that are refused: the error, then their done.
    const refusedRuns: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ type: "run", query: 5 }, 101, /^Field `query` must be string,null$/],
      [{ type: "run", query: "hi", inputs: [] }, 101, /^Field `inputs` must be object,null$/],
      [{ type: "run", query: "hi", "openai-compatible": true }, 101, /^Field `openai-compatible` cannot be true here/],
      [{ type: "run", query: "hi", agent_id: "f".repeat(32) }, 101, /^Field `agent_id` must be left out or be the agent of the connection's path/],
      [{ type: "run", query: "hi", session_id: "f".repeat(32) }, 102, /^Session not found!$/],
    ];
    for (const [frame, code, message] of refusedRuns) {
      client.send(frame);
      const [answer, done] = await client.untilDone();
      expect(answer).toMatchObject({ code });
      expect(answer.message).toMatch(message);
      expect(done).toEqual({ type: "done" });
    }
    client.send({ type: "cancel" });
    expect(await client.next()).toEqual({ code: 103, message: "nothing is running on this connection", data: null });

    // Still open, still serving.
    client.send({ type: "run", query: "Ada" });
    expect(text(await client.untilDone())).toBe("Hello, Ada! This is turn 1.");
  });

  it("a frame over the body limit closes the connection with 1009 (message too big)", async () => {
    const server = await startTestServer({ limits: { bodyBytes: 64 * 1024 } });
    const agentId = await createAgent(server, hello());
    const client = await connect(server, agentId);
    client.send({ type: "run", query: "x".repeat(70 * 1024) });
    expect((await client.closed).code).toBe(1009);
  });

  it("cancel stops the connection's run: a cancelled workflow_finished, then done; a second run frame meanwhile is refused; the next turn works", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "fine" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const agentId = await createAgent(server, llmCanvas());
    const client = await connect(server, agentId);
    client.send({ type: "run", query: "slow" });
    const sessionId = (await client.next()).session_id;
    while (mock.chatRequests().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    client.send({ type: "run", query: "again", session_id: sessionId });
    client.send({ type: "cancel" });
    // The refused frame's error and done, the cancel's answer, the turn's last events and its done.
    const rest: Frame[] = [];
    while (rest.at(-1)?.session_id !== sessionId || rest.at(-1)?.type !== "done") rest.push(await client.next());
    const refused = rest.findIndex((f) => f.code === 103);
    expect(rest[refused].message).toMatch(/^a run is already in progress on this connection/);
    expect(rest[refused + 1]).toEqual({ type: "done" });
    expect(rest).toContainEqual({ code: 0, message: "success", data: true });
    expect(events(rest).at(-1)).toMatchObject({ event: "workflow_finished", session_id: sessionId, data: { error: "cancelled" } });

    client.send({ type: "run", query: "now", session_id: sessionId });
    expect(text(await client.untilDone())).toBe("fine");
  });

  it("closing the socket stops its run; with keepRunningOnDisconnect the run goes on to its end", async () => {
    for (const keepRunningOnDisconnect of [false, true]) {
      const mock = await startMockLlm({ rules: [{ match: "slow", reply: "one two three four five six", chunk_delay_ms: 100 }, { match: ".", reply: "fine" }] });
      const server = await startTestServer({ canvas: { services: { llm: mock.provider } }, keepRunningOnDisconnect });
      const agentId = await createAgent(server, llmCanvas());
      const client = await connect(server, agentId);
      client.send({ type: "run", query: "slow" });
      const sessionId = (await client.next()).session_id;
      while (mock.chatRequests().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      client.socket.close();
      // The run's end, read from the session's log (re-attach follows it until then).
      const log = await (await send(server, `/api/v1/sessions/${sessionId}/events`)).text();
      const last = JSON.parse(frames(log).at(-2)!.split("\ndata:")[1]);
      expect(last.event).toBe("workflow_finished");
      if (keepRunningOnDisconnect) expect(last.data.error).toBeUndefined();
      else expect(last.data.error).toBe("cancelled");
      // The session is free for its next turn.
      const next = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: sessionId, query: "now" } });
      expect(next.json.data.data.content).toBe("fine");
    }
  });
});
