/**
 * The server-streams benchmark's server process (see process.mjs for why it is one): canvasflow's
 * `createServer` twice, over a SQLite database in a temp folder (`canvasflow serve`'s default) and
 * over Redis (127.0.0.1:6379, a prefix of its own, deleted at the end), each with one key and an agent
 * Begin → LLM → Message whose model is a timed one in this process: it streams TOKENS tokens, one
 * every INTERVAL_MS (5 s in all), each token being the time it was due
 * (`performance.timeOrigin + performance.now()`, comparable across processes) and a space.
 *
 * A token carries its due time, not the time the engine asked for it: when the server falls
 * behind, the delay counts in the latency instead of hiding it. Each stream starts at a random
 * phase within one interval, as independent model streams do.
 *
 * Beside it, `/bare` on a second port: the same tokens in the same frames from a bare Fastify
 * route, the baseline of what this machine and Node do at that load.
 *
 * It samples its RSS every 50 ms; `rss` answers the idle figure and the peak since `resetPeak`,
 * with the CPU time it used (every thread: the file store's I/O runs in libuv's pool).
 */
import Fastify from "fastify";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { canvasflow, node } from "../lib.mjs";
import { deleteRedisKeys, serveCommands } from "./process.mjs";

/** The load comes through one key: the per-key limits (60 completions a minute, 4 runs at once by default) would measure the limiter, not the server. */
const UNLIMITED = { completionsPerMinute: 0, requestsPerMinute: 0, runsPerKey: 0, runsPerServer: 0 };

export const TOKENS = 100;
export const INTERVAL_MS = 50;
const REDIS_URL = "redis://127.0.0.1:6379/0";

const now = () => performance.timeOrigin + performance.now();

/** A chat model that streams due-time tokens on schedule; it stops when the run is cancelled. */
function timedModel(llmId) {
  async function* tokens(signal) {
    const start = now() + Math.random() * INTERVAL_MS;
    let text = "";
    for (let i = 0; i < TOKENS; i++) {
      const due = start + i * INTERVAL_MS;
      const wait = due - now();
      if (wait > 0) await sleep(wait, undefined, { signal });
      const token = `${due.toFixed(3)} `;
      text += token;
      yield { type: "text", text: token };
    }
    const usage = { prompt_tokens: 1, completion_tokens: TOKENS, total_tokens: TOKENS + 1 };
    yield { type: "done", result: { content: text, toolCalls: [], usage, finishReason: "stop" } };
  }
  return {
    llmId,
    model: "timed",
    async complete() {
      throw new Error("the timed model only streams (its LLM feeds a Message)");
    },
    stream: (request) => tokens(request.signal),
  };
}

const canvas = {
  components: {
    begin: node("Begin", { mode: "conversational", prologue: "" }, ["LLM:Timed"]),
    "LLM:Timed": node("LLM", { llm_id: "timed", sys_prompt: "", prompts: [{ role: "user", content: "{sys.query}" }] }, ["Message:Out"]),
    "Message:Out": node("Message", { content: ["{LLM:Timed@content}"] }),
  },
  globals: {},
  history: [],
  path: [],
  retrieval: [],
};

const api = await canvasflow();
const closers = [];
const llm = { chatModel: (llmId) => timedModel(llmId) };

/** canvasflow over `store`, with one key and the agent. */
async function canvasflowServer(store) {
  const { key } = await api.createApiKey(store, { tenant: "bench", name: "bench" });
  const app = api.createServer({ store, canvas: { services: { llm } }, rateLimits: UNLIMITED });
  closers.push(async () => {
    await app.close();
    await store.close();
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const created = await app.inject({ method: "POST", url: "/api/v1/agents", headers: { authorization: `Bearer ${key}` }, payload: { title: "timed", dsl: canvas } });
  if (created.json().code !== 0) throw new Error(`cannot create the agent: ${created.body}`);
  return { url: `http://127.0.0.1:${app.server.address().port}`, key, agentId: created.json().data.id };
}

const dataDir = mkdtempSync(join(tmpdir(), "canvasflow-bench-streams-"));
closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
const sqlite = await canvasflowServer(new api.SqliteServerStore({ file: join(dataDir, "canvasflow.db") }));
const redisPrefix = `canvasflow-bench-streams:${process.pid}:`;
closers.push(() => deleteRedisKeys(REDIS_URL, redisPrefix));
const redis = await canvasflowServer(new api.RedisServerStore({ url: REDIS_URL, prefix: redisPrefix }));

// The baseline, in the same process: a bare Fastify route streaming the same tokens on the same
// schedule in the same frames (a message event each, then workflow_finished and [DONE]), with no
// engine, store or session behind it.
const bare = Fastify({ logger: false });
bare.post("/bare", async (request, reply) => {
  const stop = new AbortController();
  reply.hijack();
  reply.raw.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  reply.raw.on("close", () => stop.abort());
  const frame = (event) => reply.raw.write(`data:${JSON.stringify(event)}\n\n`);
  try {
    for await (const delta of timedModel("bare").stream({ signal: stop.signal })) {
      if (delta.type === "text") frame({ event: "message", data: { content: delta.text } });
    }
    frame({ event: "workflow_finished", data: {} });
    reply.raw.end("data:[DONE]\n\n");
  } catch {
    reply.raw.destroy();
  }
});
await bare.listen({ port: 0, host: "127.0.0.1" });

const idleRss = process.memoryUsage().rss;
let peakRss = idleRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
let cpuAtReset = process.cpuUsage();

serveCommands(
  { sqlite, redis, bareUrl: `http://127.0.0.1:${bare.server.address().port}/bare`, tokens: TOKENS, intervalMs: INTERVAL_MS },
  {
    resetPeak: () => {
      peakRss = process.memoryUsage().rss;
      cpuAtReset = process.cpuUsage();
      loopDelay.reset();
      loopDelay.enable();
    },
    rss: () => {
      loopDelay.disable();
      const cpu = process.cpuUsage(cpuAtReset);
      return { idleRss, peakRss, rss: process.memoryUsage().rss, cpuMs: (cpu.user + cpu.system) / 1000, loopDelayP99Ms: loopDelay.percentile(99) / 1e6, loopDelayMaxMs: loopDelay.max / 1e6 };
    },
    close: async () => {
      clearInterval(sampler);
      await bare.close();
      for (const close of closers.reverse()) await close();
    },
  },
);
