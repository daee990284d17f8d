/**
 * The server-completions benchmark's server process (see process.mjs for why it is one): in one
 * Node process, three servers on loopback, each on its own port:
 * - `bare`: a bare Fastify route, `POST /bare`, that parses the same JSON request and returns a
 *   fixed JSON body of the same size as canvasflow's answer (the ceiling: Fastify alone);
 * - `data`: canvasflow's `createServer` over a data-folder store (`canvasflow serve`'s default);
 * - `redis`: the same over Redis (127.0.0.1:6379, a prefix of its own, deleted at the end).
 * Both canvasflow servers serve a minimal echo agent (Begin → Message "{sys.query}") to one key.
 */
import Fastify from "fastify";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canvasflow } from "../lib.mjs";
import { echoDsl, UNLIMITED } from "./echo-agent.mjs";
import { deleteRedisKeys, serveCommands } from "./process.mjs";

/** The load comes through one key: the per-key limits (60 completions a minute, 4 runs at once by default) would measure the limiter, not the server. */

const REDIS_URL = "redis://127.0.0.1:6379/0";
export const QUERY = "hello";


const api = await canvasflow();
const closers = [];

async function canvasflowServer(store) {
  const { key } = await api.createApiKey(store, { tenant: "bench", name: "bench" });
  const app = api.createServer({ store, rateLimits: UNLIMITED });
  closers.push(async () => {
    await app.close();
    await store.close();
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const created = await app.inject({ method: "POST", url: "/api/v1/agents", headers: { authorization: `Bearer ${key}` }, payload: { title: "echo", dsl: echoDsl() } });
  const agentId = created.json().data.id;
  const answer = await app.inject({ method: "POST", url: "/api/v1/agents/chat/completions", headers: { authorization: `Bearer ${key}` }, payload: { agent_id: agentId, query: QUERY } });
  const body = answer.json();
  if (body.code !== 0 || body.data.data.content !== QUERY) throw new Error(`the echo agent did not answer: ${answer.body}`);
  return { app, key, agentId, url: `http://127.0.0.1:${app.server.address().port}`, sample: answer.body };
}

const dataDir = mkdtempSync(join(tmpdir(), "canvasflow-bench-data-"));
closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
const data = await canvasflowServer(new api.DataFolderServerStore({ directory: dataDir }));

const redisPrefix = `canvasflow-bench:${process.pid}:`;
closers.push(() => deleteRedisKeys(REDIS_URL, redisPrefix));
const redis = await canvasflowServer(new api.RedisServerStore({ url: REDIS_URL, prefix: redisPrefix }));

// The bare route answers canvasflow's own answer: a body of exactly the same size.
const bareBody = JSON.parse(data.sample);
const bare = Fastify({ logger: false });
bare.post("/bare", async () => bareBody);
closers.push(() => bare.close());
await bare.listen({ port: 0, host: "127.0.0.1" });

async function sessionCount(server) {
  const answer = await server.app.inject({ method: "GET", url: `/api/v1/agents/${server.agentId}/sessions?page_size=1`, headers: { authorization: `Bearer ${server.key}` } });
  return answer.json().total;
}

const target = (server) => ({ url: server.url, key: server.key, agentId: server.agentId });
serveCommands(
  {
    bare: { url: `${`http://127.0.0.1:${bare.server.address().port}`}/bare` },
    data: target(data),
    redis: target(redis),
    bodyBytes: Buffer.byteLength(data.sample),
    bareBodyBytes: Buffer.byteLength(JSON.stringify(bareBody)),
    redisBodyBytes: Buffer.byteLength(redis.sample),
  },
  {
    /** Sessions per canvasflow server: one per answered completion (each starts a new session). */
    sessions: async () => ({ data: await sessionCount(data), redis: await sessionCount(redis) }),
    rss: () => process.memoryUsage().rss,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  },
);
