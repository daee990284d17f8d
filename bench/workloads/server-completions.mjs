/**
 * server-completions: non-streaming completions of a minimal echo agent (Begin → Message
 * "{sys.query}"), `POST /api/v1/agents/chat/completions {agent_id, query, stream:false}` with no
 * session id, so each request is a whole turn: a new session, the run, its checkpoint and the
 * session's messages. canvasflow over a data-folder store and over Redis, beside a bare Fastify
 * route in the same server process that parses the same request and returns a JSON body of the
 * same size. autocannon (10 connections, 2 s warm-up then 10 s) from this process; the servers
 * in a child (../server/process.mjs says why). Target: canvasflow ≥ 40% of the bare route's req/s.
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
    const targets = [
      ["bare", info.bare.url, {}],
      ["data", `${info.data.url}/api/v1/agents/chat/completions`, info.data],
      ["redis", `${info.redis.url}/api/v1/agents/chat/completions`, info.redis],
    ];
    const figures = {};
    const answered = { data: 0, redis: 0 };
    const before = await server.call("sessions");
    for (const [name, url, target] of targets) {
      const warm = checked(`${name} warm-up`, await load(url, target, WARMUP_S));
      const result = checked(name, await load(url, target, DURATION_S));
      if (name !== "bare") answered[name] += warm["2xx"] + result["2xx"];
      figures[name] = {
        req_per_s: round(result.requests.average, 1),
        p50_ms: result.latency.p50,
        p99_ms: result.latency.p99,
        requests: result["2xx"],
      };
    }
    const after = await server.call("sessions");
    for (const name of ["data", "redis"]) {
      const made = after[name] - before[name];
      // autocannon stops at its deadline with up to CONNECTIONS requests in flight per run: their
      // sessions exist, their answers were not counted.
      if (made < answered[name] || made > answered[name] + 2 * CONNECTIONS) {
        throw new Error(`${name}: ${answered[name]} answers but ${made} new sessions: some requests did not run a turn`);
      }
    }
    return {
      connections: CONNECTIONS,
      duration_s: DURATION_S,
      body_bytes: info.bodyBytes,
      bare_body_bytes: info.bareBodyBytes,
      ...figures,
      data_ratio: round(figures.data.req_per_s / figures.bare.req_per_s, 3),
      redis_ratio: round(figures.redis.req_per_s / figures.bare.req_per_s, 3),
      server_rss_mb: round((await server.call("rss")) / 1024 / 1024, 1),
    };
  } finally {
    await server.stop();
  }
}

export function target(figures) {
  const worst = Math.min(figures.data_ratio, figures.redis_ratio);
  return [`data folder ${Math.round(figures.data_ratio * 100)}%, Redis ${Math.round(figures.redis_ratio * 100)}% of the bare route's req/s ≥ 40%`, worst >= 0.4];
}

export function describe(figures) {
  const side = (name) => `${name} ${figures[name].req_per_s} req/s p99 ${figures[name].p99_ms} ms`;
  return `${side("bare")} · ${side("data")} · ${side("redis")} · ${figures.body_bytes} B answers`;
}
