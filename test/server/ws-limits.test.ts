/**
 * The WebSocket connection's limits (docs/server.md, WebSocket limits), over real sockets, the
 * client written on a bare TCP socket so that it can do what an attacker does: write frames and
 * never read. Past limits.wsHighWaterBytes queued the server stops reading (and reads on, answering
 * every frame, once the client reads); a queue past wsMaxQueuedBytes, or one stalled past the mark
 * for wsStallMs, closes the connection with 1008; so do more than wsBadFrames bad frames within
 * wsBadFramesMs; a key keeps at most wsConnectionsPerKey connections open.
 */
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { SlidingWindowLimit } from "../../src/util/sliding-window.js";
import { WsOutgoing, type WsFlowLimits } from "../../src/server/ws-flow.js";
import { addKey, createAgent, startTestServer, type TestServer } from "../helpers/server.js";
import { clientFrame, closeCode, OPCODE, openRawWebSocket, type RawWebSocket, type ServerFrame } from "../helpers/ws-raw.js";
import { hello } from "./canvases.js";

const KIB = 1024;
const MIB = 1024 * KIB;
/** A frame of 100 bytes that is not JSON: it is answered with an error of about as many. */
const BAD_FRAME = clientFrame(OPCODE.text, "x".padEnd(94));
const BAD_BURST = Buffer.concat(Array.from({ length: 1024 }, () => BAD_FRAME));

const opened: Array<{ socket: Socket }> = [];
afterEach(() => {
  for (const client of opened.splice(0)) client.socket.destroy();
});

async function until<T>(what: string, read: () => T | undefined | false, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function wsUrl(server: TestServer, agentId: string): string {
  return `${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`;
}

async function rawClient(server: TestServer, agentId: string, key = server.key): Promise<RawWebSocket> {
  const client = await openRawWebSocket(wsUrl(server, agentId), { authorization: `Bearer ${key}` });
  opened.push(client);
  return client;
}

/** The server side of the only WebSocket connection open on `server`. */
function serverSide(server: TestServer): WebSocket {
  const clients = [...server.app.websocketServer.clients];
  expect(clients).toHaveLength(1);
  return clients[0];
}

/** Write bad frames without reading until the server has paused the connection; the count of frames written. */
async function floodUntilPaused(server: TestServer, client: RawWebSocket): Promise<number> {
  let frames = 0;
  let stop = false;
  const writing = (async () => {
    while (!stop) {
      frames += BAD_BURST.length / BAD_FRAME.length;
      await client.write(BAD_BURST);
    }
  })().catch(() => undefined);
  await until("the server to stop reading", () => server.app.websocketServer.clients.size === 1 && serverSide(server).isPaused);
  stop = true;
  void writing;
  return frames;
}

const errorsIn = (frames: ServerFrame[]) => frames.filter((f) => f.opcode === OPCODE.text && JSON.parse(f.payload.toString()).code === 101).length;

describe("a WebSocket client that does not read", () => {
  it("past limits.wsHighWaterBytes the server stops reading its frames; once it reads, every frame is answered", async () => {
    const server = await startTestServer({ limits: { wsHighWaterBytes: 64 * KIB, wsMaxQueuedBytes: 256 * MIB, wsStallMs: 0, wsBadFrames: 0 } });
    const agentId = await createAgent(server, hello());
    const client = await rawClient(server, agentId);
    const written = await floodUntilPaused(server, client);
    // What is queued is the mark and the answers to the frames read with the one that passed it
    // (one read of the socket at most: 64 KiB of frames), not what the client keeps sending.
    const queued = serverSide(server).bufferedAmount;
    expect(queued).toBeGreaterThanOrEqual(64 * KIB);
    expect(queued).toBeLessThan(64 * KIB + 2 * MIB);
    // Still paused a moment later: the client's writes wait on TCP, not in the server.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(serverSide(server).isPaused).toBe(true);
    expect(serverSide(server).bufferedAmount).toBe(queued);

    client.read();
    await client.until((frames) => frames.length >= written);
    expect(errorsIn(client.received)).toBe(written);
    expect(serverSide(server).isPaused).toBe(false);
    expect(serverSide(server).readyState).toBe(WebSocket.OPEN);
  });

  it("more than limits.wsBadFrames bad frames within wsBadFramesMs close the connection with 1008; the answers before it went out", async () => {
    const server = await startTestServer({ limits: { wsBadFrames: 3, wsBadFramesMs: 60_000 } });
    const agentId = await createAgent(server, hello());
    const socket = new WebSocket(wsUrl(server, agentId), { headers: { authorization: `Bearer ${server.key}` } });
    const got: unknown[] = [];
    socket.on("message", (data) => got.push(JSON.parse(String(data))));
    const closed = new Promise<[number, string]>((resolve) => socket.on("close", (code, reason) => resolve([code, String(reason)])));
    await new Promise((resolve) => socket.once("open", resolve));
    // A refused run frame (its error and done), a cancel with nothing running, a frame that is not JSON: three.
    socket.send(JSON.stringify({ type: "run", query: 5 }));
    socket.send(JSON.stringify({ type: "cancel" }));
    socket.send("not json");
    socket.send("[]");
    socket.send("{}");
    expect(await closed).toEqual([1008, "too many bad frames: over 3 in 60000 ms (server.limits.wsBadFrames)"]);
    expect(got).toEqual([
      expect.objectContaining({ code: 101 }),
      { type: "done" },
      { code: 103, message: "nothing is running on this connection", data: null },
      expect.objectContaining({ code: 101 }),
    ]);
  });

  it("good frames do not count: a client that only runs turns is never closed", async () => {
    const server = await startTestServer({ limits: { wsBadFrames: 1, wsBadFramesMs: 60_000 } });
    const agentId = await createAgent(server, hello());
    const socket = new WebSocket(wsUrl(server, agentId), { headers: { authorization: `Bearer ${server.key}` } });
    const frames: Array<{ type?: string; session_id?: string }> = [];
    socket.on("message", (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once("open", resolve));
    for (let turn = 1; turn <= 3; turn++) {
      socket.send(JSON.stringify({ type: "run", query: "Ada", ...(turn > 1 ? { session_id: frames[0].session_id } : {}) }));
      await until("the turn's done", () => frames.filter((f) => f.type === "done").length === turn);
    }
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it("a key keeps at most limits.wsConnectionsPerKey connections open: the next upgrade is HTTP 429 naming the setting; other keys are not counted", async () => {
    const server = await startTestServer({ limits: { wsConnectionsPerKey: 2 } });
    const agentId = await createAgent(server, hello());
    const first = await rawClient(server, agentId);
    await rawClient(server, agentId);
    await expect(rawClient(server, agentId)).rejects.toThrow(
      'the upgrade was refused: HTTP/1.1 429 Too Many Requests: {"code":429,"message":"Too many WebSocket connections: this API key may keep 2 open at once (server.limits.wsConnectionsPerKey); close one first","data":null}',
    );
    const otherKey = await addKey(server.store, "t2");
    await rawClient(server, agentId, otherKey);
    first.socket.destroy();
    await until("the first connection to be gone", () => server.app.websocketServer.clients.size === 2);
    await rawClient(server, agentId);
  });
});

describe("WsOutgoing (ws-flow.ts) on a real socket", () => {
  const servers: WebSocketServer[] = [];
  afterEach(() => {
    for (const wss of servers.splice(0)) wss.close();
  });

  /** A ws server whose one connection's frames go through a WsOutgoing with these limits, and a client that does not read. */
  async function outgoing(limits: Partial<WsFlowLimits>): Promise<{ socket: WebSocket; out: WsOutgoing; client: RawWebSocket; closes: string[] }> {
    const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    servers.push(wss);
    await new Promise((resolve) => wss.once("listening", resolve));
    const closes: string[] = [];
    const accepted = new Promise<{ socket: WebSocket; out: WsOutgoing }>((resolve) =>
      wss.once("connection", (socket, request) =>
        resolve({ socket, out: new WsOutgoing(socket, request.socket, { wsHighWaterBytes: 64 * KIB, wsMaxQueuedBytes: 64 * MIB, wsStallMs: 0, ...limits }, (reason) => closes.push(reason)) }),
      ),
    );
    const client = await openRawWebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}/`, {});
    opened.push(client);
    return { ...(await accepted), client, closes };
  }

  /** Frames of `size` sent until the connection stops reading; how many. */
  function sendUntilPaused(socket: WebSocket, out: WsOutgoing, size: number): number {
    let sent = 0;
    while (!socket.isPaused) {
      out.send("z".repeat(size));
      sent++;
    }
    return sent;
  }

  it("past limits.wsMaxQueuedBytes the next frame closes the connection with 1008 instead of being queued", async () => {
    const { socket, out, client, closes } = await outgoing({ wsMaxQueuedBytes: 1 * MIB });
    const frame = "y".repeat(100 * KIB);
    let sent = 0;
    // The kernel takes the first frames; past that, the queue grows in the process.
    while (out.open) {
      out.send(frame);
      if (out.open) sent++;
      expect(sent).toBeLessThan(10_000);
    }
    expect(socket.bufferedAmount).toBeGreaterThanOrEqual(1 * MIB);
    expect(socket.bufferedAmount).toBeLessThan(1 * MIB + 100 * KIB + 100);
    expect(closes).toEqual(["client not reading: over 1048576 bytes queued (server.limits.wsMaxQueuedBytes)"]);
    await out.ready();
    client.read();
    const frames = await client.until((received) => received.some((f) => f.opcode === OPCODE.close));
    expect(frames.filter((f) => f.opcode === OPCODE.text)).toHaveLength(sent);
    expect(closeCode(frames.at(-1)!)).toBe(1008);
  });

  it("ready() waits while the queue is past the high-water mark; once the client has read it, it resolves and the socket reads again", async () => {
    const { socket, out, client } = await outgoing({});
    const sent = sendUntilPaused(socket, out, 10 * KIB);
    let ready = false;
    const waiting = out.ready().then(() => (ready = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ready).toBe(false);
    client.read();
    await waiting;
    expect(socket.isPaused).toBe(false);
    await client.until((received) => received.length === sent);
  });

  it("a queue past the high-water mark for limits.wsStallMs closes the connection with 1008; ready() resolves", async () => {
    const { socket, out, client, closes } = await outgoing({ wsStallMs: 200 });
    sendUntilPaused(socket, out, 10 * KIB);
    const paused = Date.now();
    await out.ready();
    expect(Date.now() - paused).toBeGreaterThanOrEqual(190);
    expect(closes).toEqual(["client not reading: queue over 65536 bytes for 200 ms (server.limits.wsStallMs)"]);
    client.read();
    const frames = await client.until((received) => received.some((f) => f.opcode === OPCODE.close));
    expect(closeCode(frames.at(-1)!)).toBe(1008);
    expect(frames.at(-1)!.payload.subarray(2).toString()).toBe(closes[0]);
  });
});

describe("SlidingWindowLimit", () => {
  it("takes at most max events within any window, on its clock; 0 is no limit", () => {
    let now = 0;
    const limit = new SlidingWindowLimit(3, 1000, () => now);
    const at = (time: number) => {
      now = time;
      return limit.take();
    };
    expect([at(0), at(400), at(800), at(900), at(999)]).toEqual([true, true, true, false, false]);
    // The one of 0 is out of the window at 1000: one more fits, then none until the one of 400 is out.
    expect([at(1000), at(1001), at(1400)]).toEqual([true, false, true]);
    expect([at(5000), at(5000), at(5000), at(5000)]).toEqual([true, true, true, false]);
    const off = new SlidingWindowLimit(0, 1000, () => 0);
    expect(Array.from({ length: 1000 }, () => off.take()).every(Boolean)).toBe(true);
  });
});
