/**
 * Conversation memories on a multi-tenant server, tried as an attacker would: tenant A's agent
 * saves its chats to the memory "support-notes"; tenant B, with its own key, makes an agent whose
 * Retrieval searches "support-notes" and one whose Message writes to it. B finds nothing of A's,
 * and what B writes never reaches A. In-process runs (Fastify inject) and runs on queue workers
 * (the job carries the tenant).
 */
import { afterAll, describe, expect, it } from "vitest";
import { createWorker, type RunWorker } from "../../src/worker/worker.js";
import { FileMemoryStore } from "../../src/backends/files/memories.js";
import { InProcessMemoryStore } from "../../src/backends/process/memories.js";
import { RedisMemoryStore } from "../../src/backends/redis/memories.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import type { MemoryStore } from "../../src/backends/contracts.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";
import { addKey, startTestServer, type TestServer } from "../helpers/server.js";

const MEMORY = "support-notes";
const SECRET = "my card is 4111 1111 1111 1111";

/** Begin → Message showing the query, saved to the memory (RAGFlow Message memory_ids). */
const writer = () => canvasDsl({ begin: node("Begin", {}, ["Message:M"]), "Message:M": node("Message", { content: ["noted: {sys.query}"], memory_ids: [MEMORY] }) });

/** Begin → Retrieval from the memory → Message showing what was found. */
const reader = () =>
  canvasDsl({
    begin: node("Begin", {}, ["Retrieval:R"]),
    "Retrieval:R": node("Retrieval", { query: "sys.query", retrieval_from: "memory", memory_ids: [MEMORY], similarity_threshold: 0 }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{Retrieval:R@formalized_content}"] }),
  });

const NOTHING = (query: string) => `Nothing relevant to "${query}" was found in the memories.`;

async function inject(server: TestServer, key: string, method: "GET" | "POST", url: string, payload?: unknown): Promise<{ code: number; data: Record<string, unknown> }> {
  const response = await server.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function agent(server: TestServer, key: string, dsl: unknown, title: string): Promise<string> {
  const created = await inject(server, key, "POST", "/api/v1/agents", { title, dsl });
  expect(created.code, JSON.stringify(created)).toBe(0);
  return created.data.id as string;
}

/** One turn (a new session); its answer and session id. */
async function ask(server: TestServer, key: string, agentId: string, query: string): Promise<{ content: string; sessionId: string }> {
  const answer = await inject(server, key, "POST", "/api/v1/agents/chat/completions", { agent_id: agentId, query });
  expect(answer.code, JSON.stringify(answer)).toBe(0);
  return { content: (answer.data.data as { content: string }).content, sessionId: answer.data.session_id as string };
}

/** A's agent saves; B reads and writes the same memory id; each sees only its own. */
async function attack(server: TestServer, memories: MemoryStore): Promise<void> {
  const a = server.key;
  const b = await addKey(server.store, "t2");
  const aWriter = await agent(server, a, writer(), "notes");
  const aReader = await agent(server, a, reader(), "search");
  const written = await ask(server, a, aWriter, SECRET);
  expect(written.content).toBe(`noted: ${SECRET}`);
  expect((await ask(server, a, aReader, "card")).content).toContain(SECRET);

  // B, with the same memory id, finds nothing of A's.
  const bReader = await agent(server, b, reader(), "search");
  expect((await ask(server, b, bReader, "card")).content).toBe(NOTHING("card"));
  expect((await ask(server, b, bReader, "4111")).content).toBe(NOTHING("4111"));
  // B writes to "support-notes": its own memory; A's does not get it.
  const bWriter = await agent(server, b, writer(), "notes");
  await ask(server, b, bWriter, "card stolen: none");
  expect((await ask(server, b, bReader, "card")).content).toContain("card stolen: none");
  const aSees = (await ask(server, a, aReader, "card")).content;
  expect(aSees).toContain(SECRET);
  expect(aSees).not.toContain("stolen");

  // In the store: each tenant's memory holds its own, each message the server session that wrote it.
  const aMessages = await memories.messages({ tenant: "t1", id: MEMORY });
  expect(aMessages.map((m) => [m.content, m.session_id])).toEqual([[`User Input: ${SECRET}\nAgent Response: noted: ${SECRET}`, written.sessionId]]);
  expect((await memories.messages({ tenant: "t2", id: MEMORY })).map((m) => m.content)).toEqual(["User Input: card stolen: none\nAgent Response: noted: card stolen: none"]);
  expect(await memories.messages({ tenant: "default", id: MEMORY })).toEqual([]);
}

describe("memories on a multi-tenant server", () => {
  it("the tenant of runs without one (CLI, library) is the tenant of a server with one key or none", async () => {
    const { DEFAULT_MEMORY_TENANT } = await import("../../src/index.js");
    const { DEFAULT_TENANT } = await import("../../src/server/auth.js");
    expect(DEFAULT_MEMORY_TENANT).toBe(DEFAULT_TENANT);
  });

  it("in-process runs: a tenant neither reads nor writes another tenant's memory of the same id", async () => {
    const memories = new InProcessMemoryStore();
    const server = await startTestServer({ canvas: { services: { memories } } });
    await attack(server, memories);
  });

  it("a data folder's memories too, and a server given one tenant's memories is refused", async () => {
    const memories = new FileMemoryStore({ directory: scratchDir("cf-server-memories-").dir });
    const server = await startTestServer({ canvas: { services: { memories } } });
    await attack(server, memories);
    const { TenantMemories } = await import("../../src/index.js");
    const { createServer, InProcessServerStore } = await import("../../src/server/index.js");
    expect(() => createServer({ store: new InProcessServerStore(), canvas: { services: { memories: new TenantMemories(memories, "t1") } } })).toThrow(
      'canvas.services.memories is one tenant\'s memories (tenant "t1"); give the MemoryStore itself',
    );
  });

  describe("runs on queue workers", () => {
    const prefix = uniqueTestPrefix();
    const queues: RunQueue[] = [];
    const workers: RunWorker[] = [];
    const stores: MemoryStore[] = [];
    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.close({ graceMs: 0 })));
      for (const queue of queues) {
        await queue.queue.obliterate({ force: true }).catch(() => undefined);
        await queue.close();
      }
      await Promise.all(stores.map((store) => store.close()));
      const admin = await connectTestRedis();
      await deleteKeys(admin, prefix);
      admin.disconnect();
    }, 60_000);

    it("each job's run gets the memories of the tenant the job names", async () => {
      const memories = new RedisMemoryStore({ url: TEST_REDIS_URL, keyPrefix: `${prefix}tenant-memory:`, legacyKeyPrefix: `${prefix}memory:` });
      stores.push(memories);
      const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: "memories" });
      queues.push(queue);
      // The server's runs never happen here: it is given no memories, only the worker is.
      const server = await startTestServer({ store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), queue });
      workers.push(await createWorker({ redis: TEST_REDIS_URL, prefix, queue: "memories", canvas: { services: { memories } }, lockDurationMs: 10_000 }));
      await attack(server, memories);
      const jobs = await queue.queue.getJobs(["completed"]);
      expect(new Set(jobs.map((job) => job.data.tenant))).toEqual(new Set(["t1", "t2"]));
      // A worker given one tenant's memories would give them to every job: refused.
      const { TenantMemories } = await import("../../src/index.js");
      await expect(createWorker({ redis: TEST_REDIS_URL, prefix, queue: "memories", canvas: { services: { memories: new TenantMemories(memories, "t1") } } })).rejects.toThrow(
        'canvas.services.memories is one tenant\'s memories (tenant "t1")',
      );
    }, 60_000);
  });
});
