/**
 * How long a client may take to send a request (docs/server.md, Request timeouts), over real
 * sockets with short limits: a body that stalls, headers trickled a line at a time (slowloris) and
 * a connection that sends nothing are answered HTTP 408 with the envelope naming the settings, and
 * closed; a body sent in pieces within the limit is served; an answer that streams longer than the
 * limits (SSE, a WebSocket) is not cut.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { requestTimeoutMessage } from "../../src/server/http-timeouts.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { createAgent, frames, send, startTestServer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas } from "./canvases.js";

const LIMITS = { requestMs: 600, headersMs: 300 };
/** Longer than any limit here with its check (a tenth of the shortest limit at most). */
const GIVE_UP_MS = 5000;
const COMPLETIONS = "/api/v1/agents/chat/completions";

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

interface Ending {
  /** What the server sent. */
  text: string;
  /** Milliseconds from the connection to its end. */
  after: number;
}

/** Open a connection, let `talk` write to it, and resolve with what the server sent once it ends it (or reject after GIVE_UP_MS). */
function connection(server: TestServer, talk: (socket: Socket) => void): Promise<Ending> {
  const port = Number(new URL(server.base).port);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    const started = Date.now();
    let text = "";
    const giveUp = setTimeout(() => reject(new Error(`the connection was still open after ${GIVE_UP_MS} ms (received ${JSON.stringify(text)})`)), GIVE_UP_MS);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolve({ text, after: Date.now() - started });
    });
    socket.on("connect", () => talk(socket));
  });
}

/** Write `piece` every `everyMs` while the socket is open. */
function trickle(socket: Socket, piece: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write(piece);
  }, everyMs);
  socket.on("close", () => clearInterval(timer));
}

function expectTimedOut(ending: Ending, limitMs: number): void {
  const [head, body] = ending.text.split("\r\n\r\n");
  expect(head.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
  expect(head).toContain("Content-Type: application/json");
  expect(JSON.parse(body)).toEqual({ code: 408, message: requestTimeoutMessage(LIMITS), data: null });
  expect(ending.after).toBeGreaterThanOrEqual(limitMs - 20);
  expect(ending.after).toBeLessThan(limitMs + 1000);
}

describe("request timeouts", () => {
  it("an authenticated request whose body stalls is answered 408 naming limits.requestMs, and closed", async () => {
    const lines: string[] = [];
    const server = await startTestServer({ limits: LIMITS, logger: { level: "info", stream: { write: (line: string) => void lines.push(line) } } });
    const ending = await connection(server, (socket) => {
      socket.write(`POST ${COMPLETIONS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":`);
      // A byte now and then: the connection is never idle, the body never whole.
      trickle(socket, " ", 50);
    });
    expectTimedOut(ending, LIMITS.requestMs);
    expect(JSON.parse(ending.text.split("\r\n\r\n")[1]).message).toBe(
      "Request Timeout: the request was not received in time: this server waits for its headers within 300 ms (server.limits.headersMs), and for all of it within 600 ms (server.limits.requestMs)",
    );
    // The server goes on serving.
    expect((await send(server, "/api/v1/agents")).status).toBe(200);
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(logged.filter((entry) => entry.msg === "a request timed out before it was received whole (HTTP 408)")).toHaveLength(1);
    expect(logged.filter((entry) => entry.level >= 50)).toEqual([]);
  });

  it("headers trickled a line at a time (slowloris) are answered 408 after limits.headersMs", async () => {
    const server = await startTestServer({ limits: LIMITS });
    const ending = await connection(server, (socket) => {
      socket.write(`GET /api/v1/agents HTTP/1.1\r\nHost: x\r\n`);
      trickle(socket, "X-Slow: a\r\n", 30);
    });
    expectTimedOut(ending, LIMITS.headersMs);
  });

  it("a connection that sends nothing is closed with 408 after limits.headersMs", async () => {
    const server = await startTestServer({ limits: LIMITS });
    expectTimedOut(await connection(server, () => undefined), LIMITS.headersMs);
  });

  it("a kept-alive connection idle for longer than the limits serves its next request (the limits count from a request's first byte)", async () => {
    const server = await startTestServer({ limits: LIMITS });
    const request = `GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\n\r\n`;
    const ending = await connection(server, (socket) => {
      socket.write(request);
      setTimeout(() => socket.write(request.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")), LIMITS.requestMs + 400);
    });
    expect(ending.text.match(/HTTP\/1\.1 \d+ [A-Z]+/g)).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"]);
  });

  it("a body sent in pieces within limits.requestMs is served", async () => {
    const server = await startTestServer({ limits: LIMITS });
    const agentId = await createAgent(server, hello());
    const body = JSON.stringify({ agent_id: agentId, query: "Ada" });
    const ending = await connection(server, (socket) => {
      socket.write(`POST ${COMPLETIONS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`);
      const pieces = [body.slice(0, 10), body.slice(10, 20), body.slice(20)];
      pieces.forEach((piece, i) => setTimeout(() => socket.write(piece), 150 * (i + 1)));
    });
    expect(ending.text.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(JSON.parse(ending.text.split("\r\n\r\n")[1]).data.data.content).toBe("Hello, Ada! This is turn 1.");
  });

  it("answers that stream longer than the limits are not cut: an SSE stream, a WebSocket connection", async () => {
    const mock = await startMockLlm({ rules: [{ match: ".", reply: "one two three four five six seven", chunk_delay_ms: 200 }] });
    const server = await startTestServer({ limits: LIMITS, canvas: { services: { llm: mock.provider } } });
    const agentId = await createAgent(server, llmCanvas());
    const started = Date.now();
    const stream = await (await send(server, COMPLETIONS, { body: { agent_id: agentId, query: "count", stream: true } })).text();
    expect(Date.now() - started).toBeGreaterThan(LIMITS.requestMs * 2);
    expect(frames(stream).at(-1)).toBe("data:[DONE]");
    expect(stream).toContain('"event":"workflow_finished"');

    const socket = new WebSocket(`${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`, { headers: { authorization: `Bearer ${server.key}` } });
    await new Promise((resolve) => socket.once("open", resolve));
    await new Promise((resolve) => setTimeout(resolve, LIMITS.requestMs + 200));
    const done = new Promise<string>((resolve) => {
      let text = "";
      socket.on("message", (data) => {
        const frame = JSON.parse(String(data)) as { event?: string; type?: string; data?: { content?: string } };
        if (frame.event === "message") text += frame.data?.content ?? "";
        if (frame.type === "done") resolve(text);
      });
    });
    socket.send(JSON.stringify({ type: "run", query: "count" }));
    expect(await done).toBe("one two three four five six seven");
    socket.close();
  });
});
