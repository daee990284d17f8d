/**
 * What one completion turn costs the server in CPU, per store: the server-completions bench's
 * request (a new session per turn on the echo agent Begin → Message "{sys.query}"), sent N times
 * through `app.inject` in this one process (no sockets, no client), one at a time, timed by
 * `process.cpuUsage()` — CPU time is what a turn costs and, unlike the wall clock, barely moves
 * with the other work on a busy machine. Not a bench workload (bench/run.mjs does not run it):
 * a tool for finding where a turn's time goes, e.g. under `node --cpu-prof`.
 *
 *   node bench/server/turn-profile.mjs [--turns 2000] [--stores memory,sqlite,redis]
 *
 * Prints, per store: CPU µs per turn (user + system), wall µs per turn, and the bare Fastify
 * route's CPU µs per request (the same request parsed, the same answer sent) for the ratio.
 */
import Fastify from "fastify";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { canvasflow } from "../lib.mjs";
import { echoDsl, UNLIMITED } from "./echo-agent.mjs";
import { deleteRedisKeys } from "./process.mjs";

const { values } = parseArgs({ options: { turns: { type: "string", default: "2000" }, stores: { type: "string", default: "memory,sqlite,redis" } } });
const TURNS = Number(values.turns);
const REDIS_URL = "redis://127.0.0.1:6379/0";

const api = await canvasflow();

/** CPU and wall µs per call of `once`, after a warm-up of a tenth of the turns. */
async function measure(once) {
  for (let i = 0; i < Math.max(50, TURNS / 10); i++) await once();
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < TURNS; i++) await once();
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / TURNS, systemUs: used.system / TURNS, wallUs: ((performance.now() - wall) * 1000) / TURNS };
}

async function turnCost(store) {
  const { key } = await api.createApiKey(store, { tenant: "bench", name: "bench" });
  const app = api.createServer({ store, rateLimits: UNLIMITED });
  try {
    await app.ready();
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const created = await app.inject({ method: "POST", url: "/api/v1/agents", headers, payload: { title: "echo", dsl: echoDsl() } });
    const agentId = created.json().data.id;
    const payload = JSON.stringify({ agent_id: agentId, query: "hello" });
    let sample = "";
    const once = async () => {
      const answer = await app.inject({ method: "POST", url: "/api/v1/agents/chat/completions", headers, payload });
      if (answer.statusCode !== 200 || !answer.body.includes('"content":"hello"')) throw new Error(`the echo agent did not answer: ${answer.body}`);
      sample = answer.body;
    };
    return { ...(await measure(once)), sample };
  } finally {
    await app.close();
  }
}

async function bareCost(sample) {
  const body = JSON.parse(sample);
  const bare = Fastify({ logger: false });
  bare.post("/bare", async () => body);
  await bare.ready();
  const payload = JSON.stringify({ agent_id: "0".repeat(32), query: "hello" });
  try {
    return await measure(() => bare.inject({ method: "POST", url: "/bare", headers: { "content-type": "application/json" }, payload }));
  } finally {
    await bare.close();
  }
}

const rows = [];
let sample;
for (const name of values.stores.split(",")) {
  let store;
  let cleanup = async () => undefined;
  if (name === "memory") store = new api.InProcessServerStore();
  else if (name === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "canvasflow-turn-profile-"));
    store = new api.SqliteServerStore({ file: join(dir, "canvasflow.db") });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else if (name === "redis") {
    const prefix = `canvasflow-turn-profile:${process.pid}:`;
    store = new api.RedisServerStore({ url: REDIS_URL, prefix });
    cleanup = () => deleteRedisKeys(REDIS_URL, prefix);
  } else throw new Error(`--stores: unknown store ${JSON.stringify(name)} (memory, sqlite or redis)`);
  try {
    const cost = await turnCost(store);
    sample = cost.sample;
    rows.push({ name, ...cost });
  } finally {
    await store.close();
    await cleanup();
  }
}
const bare = await bareCost(sample);
const fmt = (n) => n.toFixed(0).padStart(7);
console.log(`turns per store: ${TURNS}`);
console.log(`bare route        cpu ${fmt(bare.cpuUs)} µs (sys ${fmt(bare.systemUs)})  wall ${fmt(bare.wallUs)} µs`);
for (const row of rows) {
  console.log(`${row.name.padEnd(17)} cpu ${fmt(row.cpuUs)} µs (sys ${fmt(row.systemUs)})  wall ${fmt(row.wallUs)} µs  bare/turn cpu ${((100 * bare.cpuUs) / row.cpuUs).toFixed(1)}%`);
}
