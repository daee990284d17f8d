/**
 * The server-completions benchmark's server process (see process.mjs for why it is one): in one
 * Node process, a server per store on loopback, each on its own port, and a bare route:
 * - `bare`: a bare Fastify route, `POST /bare`, that parses the same JSON request and returns a
 *   fixed JSON body of the same size as canvasflow's answer (the ceiling: Fastify alone);
 * - `memory`: canvasflow's `createServer` over the in-process store;
 * - `sqlite`: the same over a SQLite database in a temp folder (`canvasflow serve`'s default);
 * - `redis`: the same over Redis (127.0.0.1:6379, a prefix of its own, deleted at the end);
 * - `data`: the same over a data folder, while the build still has DataFolderServerStore (the
 *   default before SQLite, measured beside it once before it was removed).
 * Every canvasflow server serves a minimal echo agent (Begin → Message "{sys.query}") to one key.
 * The `library` command runs the same turn through the library on a store (library-turn.mjs).
 */
import Fastify from "fastify";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canvasflow } from "../lib.mjs";
import { echoDsl, UNLIMITED } from "./echo-agent.mjs";
import { libraryTurn, turnsPerSecond } from "./library-turn.mjs";
import { deleteRedisKeys, serveCommands } from "./process.mjs";

/** The load comes through one key: the per-key limits (60 completions a minute, 4 runs at once by default) would measure the limiter, not the server. */

const REDIS_URL = "redis://127.0.0.1:6379/0";
export const QUERY = "hello";

const api = await canvasflow();
const closers = [];
const scratch = mkdtempSync(join(tmpdir(), "canvasflow-bench-completions-"));
closers.push(() => rmSync(scratch, { recursive: true, force: true }));

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
  return { app, store, key, agentId, url: `http://127.0.0.1:${app.server.address().port}`, sample: answer.body };
}

const redisPrefix = `canvasflow-bench:${process.pid}:`;
closers.push(() => deleteRedisKeys(REDIS_URL, redisPrefix));
const STORES = {
  memory: () => new api.InProcessServerStore(),
  sqlite: () => new api.SqliteServerStore({ file: join(scratch, "canvasflow.db") }),
  redis: () => new api.RedisServerStore({ url: REDIS_URL, prefix: redisPrefix }),
  ...(api.DataFolderServerStore ? { data: () => new api.DataFolderServerStore({ directory: join(scratch, "data") }) } : {}),
};
const servers = {};
for (const [name, open] of Object.entries(STORES)) servers[name] = await canvasflowServer(open());

// The bare route answers canvasflow's own answer: a body of exactly the same size.
const bareBody = JSON.parse(servers.memory.sample);
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
    stores: Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, target(server)])),
    bodyBytes: Buffer.byteLength(servers.memory.sample),
    bareBodyBytes: Buffer.byteLength(JSON.stringify(bareBody)),
  },
  {
    /** Sessions per canvasflow server: one per answered completion (each starts a new session). */
    sessions: async () => Object.fromEntries(await Promise.all(Object.entries(servers).map(async ([name, server]) => [name, await sessionCount(server)]))),
    /** The same turn through the library on a server's store, `concurrency` at a time. */
    library: async ({ store, seconds, concurrency }) => {
      const server = servers[store];
      return turnsPerSecond(libraryTurn(api, server.store, { tenant: "bench", agentId: server.agentId, query: QUERY }), { seconds, concurrency });
    },
    rss: () => process.memoryUsage().rss,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  },
);
