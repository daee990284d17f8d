/**
 * server-completions: non-streaming completions of a minimal echo agent (Begin → Message
 * "{sys.query}"), `POST /api/v1/agents/chat/completions {agent_id, query, stream:false}` with no
 * session id, so each request is a whole turn: a new session, the run, its checkpoint and the
 * session's messages. canvasflow over the in-process store, SQLite, Redis (and the data folder
 * while the build has it), beside a bare Fastify route in the same server process that parses
 * the same request and returns a JSON body of the same size. autocannon (10 connections, 2 s
 * warm-up then 10 s) from this process; the servers in a child (../server/process.mjs says why).
 * Then, in that child with no load on it, the same turn through the library on each store (10 at
 * a time for 10 s, ../server/library-turn.mjs): the server's own cost is its time per turn over
 * the library's (both runs are CPU-bound in one process, so time per turn is 1 / turns a second).
 *
 * Targets: SQLite serves ≥ 5× the data folder's req/s (151–165 req/s when it was the default)
 * and ≥ 50% of the in-memory store's; on every store a server turn costs ≤ 1.5× the library turn.
 *
 * Checked, not assumed: no errors, no timeouts, only 2xx, and one new session in each store per
 * answered request (an application error would be a 200 without a session).
 */
import autocannon from "autocannon";
import { fileURLToPath } from "node:url";
import { round, startServerProcess } from "../server/process.mjs";

export const kind = "server";

const SERVER = fileURLToPath(new URL("../server/completions-server.mjs", import.meta.url));
const CONNECTIONS = 10;
const WARMUP_S = 2;
const DURATION_S = 10;
const QUERY = "hello";
/** The data folder's req/s in the runs recorded while it was the default (docs/performance.md). */
const DATA_FOLDER_RECORDED = { low: 151, high: 165 };

function load(url, { key, agentId } = {}, duration) {
  const headers = { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const body = JSON.stringify({ agent_id: agentId ?? "bare", query: QUERY, stream: false });
  return autocannon({ url, method: "POST", headers, body, connections: CONNECTIONS, duration, pipelining: 1 });
}

function checked(name, result) {
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(`${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  }
  return result;
}

export async function measure() {
  const server = await startServerProcess(SERVER);
  try {
    const { info } = server;
    const stores = Object.keys(info.stores);
    const targets = [["bare", info.bare.url, {}], ...stores.map((name) => [name, `${info.stores[name].url}/api/v1/agents/chat/completions`, info.stores[name]])];
    const figures = {};
    const answered = Object.fromEntries(stores.map((name) => [name, 0]));
    const before = await server.call("sessions");
    for (const [name, url, target] of targets) {
      const warm = checked(`${name} warm-up`, await load(url, target, WARMUP_S));
      const result = checked(name, await load(url, target, DURATION_S));
      if (name !== "bare") answered[name] += warm["2xx"] + result["2xx"];
      figures[name] = { req_per_s: round(result.requests.average, 1), p50_ms: result.latency.p50, p99_ms: result.latency.p99, requests: result["2xx"] };
    }
    const after = await server.call("sessions");
    for (const name of stores) {
      const made = after[name] - before[name];
      // autocannon stops at its deadline with up to CONNECTIONS requests in flight per run: their
      // sessions exist, their answers were not counted.
      if (made < answered[name] || made > answered[name] + 2 * CONNECTIONS) {
        throw new Error(`${name}: ${answered[name]} answers but ${made} new sessions: some requests did not run a turn`);
      }
    }
    for (const name of stores) {
      const library = await server.call("library", { store: name, seconds: DURATION_S, concurrency: CONNECTIONS });
      figures[name].library_turns_per_s = round(library.turns_per_s, 1);
      // Time per server turn over time per library turn.
      figures[name].server_cost = round(library.turns_per_s / figures[name].req_per_s, 2);
    }
    return {
      connections: CONNECTIONS,
      duration_s: DURATION_S,
      body_bytes: info.bodyBytes,
      bare_body_bytes: info.bareBodyBytes,
      ...figures,
      sqlite_vs_memory: round(figures.sqlite.req_per_s / figures.memory.req_per_s, 3),
      sqlite_vs_data: round(figures.sqlite.req_per_s / (figures.data?.req_per_s ?? DATA_FOLDER_RECORDED.high), 2),
      data_measured: figures.data !== undefined,
      server_rss_mb: round((await server.call("rss")) / 1024 / 1024, 1),
    };
  } finally {
    await server.stop();
  }
}

export function target(figures) {
  const stores = ["memory", "sqlite", "redis", ...(figures.data_measured ? ["data"] : [])];
  const worstCost = Math.max(...stores.map((name) => figures[name].server_cost));
  const against = figures.data_measured ? `the data folder's ${figures.data.req_per_s} req/s in this run` : `the data folder's recorded ${DATA_FOLDER_RECORDED.high} req/s`;
  return [
    `SQLite ${figures.sqlite_vs_data}× ${against} ≥ 5 · ${Math.round(figures.sqlite_vs_memory * 100)}% of the in-memory store ≥ 50% · server turn ≤ 1.5× the library turn (worst ${worstCost}×)`,
    figures.sqlite_vs_data >= 5 && figures.sqlite_vs_memory >= 0.5 && worstCost <= 1.5,
  ];
}

export function describe(figures) {
  const stores = ["memory", "sqlite", "redis", ...(figures.data_measured ? ["data"] : [])];
  const side = (name) => `${name} ${figures[name].req_per_s} req/s p99 ${figures[name].p99_ms} ms`;
  const library = (name) => `${name} ${figures[name].library_turns_per_s}/s (server ${figures[name].server_cost}×)`;
  return `${[side("bare"), ...stores.map(side)].join(" · ")} · library turns: ${stores.map(library).join(", ")} · ${figures.body_bytes} B answers`;
}
