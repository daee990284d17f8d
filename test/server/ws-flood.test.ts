/**
 * Acceptance (issue 23): a WebSocket client that sends malformed frames as fast as it can for 30 s
 * and never reads, against `canvasflow serve` in a child process with its default limits. The
 * attacker reconnects whenever its connection ends. The server's heap, read from its /metrics,
 * stays under 100 MB above its idle level, and another tenant's turns (HTTP and WebSocket) are
 * served meanwhile. The figures are printed.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { scratchDir } from "../helpers/scratch.js";
import { clientFrame, OPCODE, openRawWebSocket } from "../helpers/ws-raw.js";
import { newKey, SERVING } from "../helpers/serve-banner.js";
import { hello } from "./canvases.js";

const ATTACK_MS = 30_000;
const HEAP_BOUND_MB = 100;
const MB = 1024 * 1024;

const children: CliProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.child.kill("SIGKILL");
    await child.exited;
  }
});

async function startServe(data: string): Promise<string> {
  const serve = spawnCli(["serve", "--port", "0", "--data", data, "--log-level", "warn"]);
  children.push(serve);
  for (let i = 0; i < 1000; i++) {
    const base = SERVING.exec(serve.stderr())?.[1];
    if (base) return base;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`canvasflow serve did not start: ${serve.stderr()}`);
}

interface Memory {
  heapMb: number;
  externalMb: number;
  rssMb: number;
}

async function memoryOf(base: string): Promise<Memory> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)![1]) / MB;
  return { heapMb: read("nodejs_heap_size_used_bytes"), externalMb: read("nodejs_external_memory_bytes"), rssMb: read("process_resident_memory_bytes") };
}

/** One turn over HTTP and one over a WebSocket, for the victim; resolves to each one's time. */
async function victimTurns(base: string, key: string, agentId: string): Promise<number[]> {
  const times: number[] = [];
  let started = Date.now();
  const answer = await fetch(`${base}/api/v1/agents/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ agent_id: agentId, query: "Ada" }),
  });
  const json = (await answer.json()) as { code: number; data: { data: { content: string } } };
  if (json.data?.data?.content !== "Hello, Ada! This is turn 1.") throw new Error(`the HTTP turn was not served: ${JSON.stringify(json)}`);
  times.push(Date.now() - started);

  started = Date.now();
  const socket = new WebSocket(`${base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`, { headers: { authorization: `Bearer ${key}` } });
  const content = await new Promise<string>((resolve, reject) => {
    let text = "";
    socket.on("open", () => socket.send(JSON.stringify({ type: "run", query: "Bob" })));
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data)) as { event?: string; type?: string; data?: { content?: string } };
      if (frame.event === "message") text += frame.data?.content ?? "";
      if (frame.type === "done") resolve(text);
    });
    socket.on("error", reject);
  });
  socket.close();
  if (content !== "Hello, Bob! This is turn 1.") throw new Error(`the WebSocket turn was not served: ${content}`);
  times.push(Date.now() - started);
  return times;
}

/** Connect, write malformed frames as fast as the socket takes them, never read; again when the server ends the connection. */
async function attack(url: string, key: string, until: number, stats: { connections: number; refused: number; bytes: number }): Promise<void> {
  // 8192 frames of one byte that is not JSON, written in one go.
  const burst = Buffer.concat(Array.from({ length: 8192 }, () => clientFrame(OPCODE.text, "x")));
  while (Date.now() < until) {
    let client;
    try {
      client = await openRawWebSocket(url, { authorization: `Bearer ${key}` });
    } catch {
      // Refused (rate limited): straight back.
      stats.refused++;
      continue;
    }
    stats.connections++;
    const timer = setTimeout(() => client.socket.destroy(), Math.max(0, until - Date.now()));
    try {
      while (!client.socket.destroyed) {
        await client.write(burst);
        stats.bytes += burst.length;
      }
    } catch {
      // The server ended the connection.
    }
    clearTimeout(timer);
    client.socket.destroy();
  }
}

describe("a WebSocket client that floods malformed frames and never reads", () => {
  it(`for ${ATTACK_MS / 1000} s: the server's heap stays under ${HEAP_BOUND_MB} MB above idle, and another tenant is served meanwhile`, { timeout: ATTACK_MS + 60_000 }, async () => {
    const scratch = scratchDir("cf-ws-flood-");
    const attackerKey = await newKey(scratch.dir, "attacker");
    const victimKey = await newKey(scratch.dir, "victim");
    const base = await startServe(scratch.dir);
    const created = await fetch(`${base}/api/v1/agents`, {
      method: "POST",
      headers: { authorization: `Bearer ${victimKey}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "hello", dsl: hello() }),
    });
    const agentId = ((await created.json()) as { data: { id: string } }).data.id;
    // Warm up (the code paths compiled, the caches filled), then the idle level.
    for (let i = 0; i < 5; i++) await victimTurns(base, victimKey, agentId);
    const idle = await memoryOf(base);

    const until = Date.now() + ATTACK_MS;
    const stats = { connections: 0, refused: 0, bytes: 0 };
    const attacking = attack(`${base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`, attackerKey, until, stats);
    const samples: Memory[] = [];
    const served: number[] = [];
    const failures: string[] = [];
    let overBound = false;
    const sampling = (async () => {
      while (Date.now() < until && !overBound) {
        const memory = await memoryOf(base);
        samples.push(memory);
        // Without bounds the heap grows about 30 MB/s: stop there rather than exhaust the machine.
        if (memory.heapMb - idle.heapMb >= HEAP_BOUND_MB) overBound = true;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    // A turn over HTTP and one over a WebSocket every second (the victim's own rate limit allows 60 completions a minute).
    const victim = (async () => {
      while (Date.now() < until && !overBound) {
        const next = Date.now() + 1000;
        try {
          served.push(...(await victimTurns(base, victimKey, agentId)));
        } catch (error) {
          failures.push((error as Error).message);
        }
        await new Promise((resolve) => setTimeout(resolve, next - Date.now()));
      }
    })();
    await Promise.all([sampling, victim]);
    await attacking;

    const peak = samples.reduce((max, sample) => (sample.heapMb > max.heapMb ? sample : max), idle);
    const after = await memoryOf(base);
    const figures = {
      "attack (s)": ATTACK_MS / 1000,
      "attacker connections": stats.connections,
      "attacker upgrades refused": stats.refused,
      "attacker bytes written (MB)": +(stats.bytes / MB).toFixed(1),
      "heap idle (MB)": +idle.heapMb.toFixed(1),
      "heap peak (MB)": +peak.heapMb.toFixed(1),
      "heap peak above idle (MB)": +(peak.heapMb - idle.heapMb).toFixed(1),
      "heap after (MB)": +after.heapMb.toFixed(1),
      "external peak (MB)": +Math.max(...samples.map((s) => s.externalMb)).toFixed(1),
      "rss idle / peak (MB)": `${idle.rssMb.toFixed(0)} / ${Math.max(...samples.map((s) => s.rssMb)).toFixed(0)}`,
      "heap samples": samples.length,
      "victim turns served": served.length,
      "victim turn ms (median / max)": `${[...served].sort((a, b) => a - b)[served.length >> 1]} / ${Math.max(...served)}`,
    };
    console.log(`WebSocket flood against canvasflow serve:\n${Object.entries(figures).map(([name, value]) => `  ${name}: ${value}`).join("\n")}`);

    expect(overBound, `the heap grew ${HEAP_BOUND_MB} MB above idle`).toBe(false);
    expect(peak.heapMb - idle.heapMb).toBeLessThan(HEAP_BOUND_MB);
    expect(samples.length).toBeGreaterThan(ATTACK_MS / 2000);
    expect(failures).toEqual([]);
    // Served throughout: two turns a second, or nearly, none slower than 5 s.
    expect(served.length).toBeGreaterThanOrEqual(ATTACK_MS / 1000);
    expect(Math.max(...served)).toBeLessThan(5000);
    expect(stats.bytes).toBeGreaterThan(0);
  });
});
