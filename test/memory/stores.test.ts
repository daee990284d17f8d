/**
 * The memory stores, each against its real backend (a temp folder, Redis and PostgreSQL on
 * loopback): order, duplicates, forgetting past the size limit, concurrent writers, bad ids.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FileMemoryStore,
  MemoryStoreError,
  memoriesForRun,
  memoriesForServer,
  openMemoryStore,
  PostgresMemoryStore,
  ProcessMemoryStore,
  RedisMemoryStore,
  type MemoryStore,
  type NewMemoryMessage,
} from "../../src/memory/index.js";
import { deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { scratchDir } from "../helpers/scratch.js";

const redis = sharedTestRedis();
const postgres = sharedTestPostgres();
const prefix = uniqueTestPrefix();
const schema = uniqueTestSchema();
const opened: MemoryStore[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  const r = await redis.get().catch(() => undefined);
  if (r) await deleteKeys(r, prefix);
  await redis.close();
  const p = await postgres.get().catch(() => undefined);
  if (p) await dropSchema(p, schema);
  await postgres.close();
});

function message(n: number, extra: Partial<NewMemoryMessage> = {}): NewMemoryMessage {
  return { user_id: "u1", agent_id: "", session_id: "s1", content: `User Input: question ${n}\nAgent Response: answer ${n}`, source_key: `task:1:Message:M:${n}`, ...extra };
}

type Backend = { name: string; open(options?: { maxBytes?: number }): Promise<MemoryStore> };

let counter = 0;
const backends: Backend[] = [
  { name: "process", open: async (o) => new ProcessMemoryStore(o) },
  { name: "folder", open: async (o) => new FileMemoryStore({ directory: scratchDir("cf-memories-").dir, ...o }) },
  {
    name: "Redis",
    open: async (o) => {
      await redis.get();
      return new RedisMemoryStore({ url: TEST_REDIS_URL, keyPrefix: `${prefix}${++counter}:`, ...o });
    },
  },
  {
    name: "PostgreSQL",
    open: async (o) => {
      await postgres.get();
      // One schema for the file; each store its own memory ids.
      return new PostgresMemoryStore({ url: TEST_POSTGRES_URL, schema, ...o });
    },
  },
];

describe.each(backends)("memory store: $name", (backend) => {
  let store: MemoryStore;
  let id: string;
  beforeEach(async () => {
    store = await backend.open({ maxBytes: 200 });
    opened.push(store);
    id = `mem-${process.pid}-${++counter}`;
  });

  it("keeps messages in the order written, with what they were written with; a memory never written is empty", async () => {
    expect(await store.messages(id)).toEqual([]);
    expect(await store.add(id, message(1))).toBe(true);
    expect(await store.add(id, message(2, { user_id: "u2" }))).toBe(true);
    const messages = await store.messages(id);
    expect(messages.map((m) => m.content)).toEqual([message(1).content, message(2).content]);
    expect(messages[1]).toMatchObject({ memory_id: id, message_type: "raw", user_id: "u2", session_id: "s1", source_key: "task:1:Message:M:2" });
    expect(new Date(messages[1].valid_at).getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect(messages[0].message_id < messages[1].message_id).toBe(true);
  });

  it("a message with a source key already there adds nothing (a step run again after a crash)", async () => {
    expect(await store.add(id, message(1))).toBe(true);
    expect(await store.add(id, message(1, { content: "again" }))).toBe(false);
    expect((await store.messages(id)).map((m) => m.content)).toEqual([message(1).content]);
  });

  it("forgets the oldest messages past maxBytes, and keeps the newest even when it alone is larger", async () => {
    // Each message is 49 bytes: 4 fit in 200.
    for (let n = 1; n <= 6; n++) await store.add(id, message(n));
    expect((await store.messages(id)).map((m) => m.content)).toEqual([3, 4, 5, 6].map((n) => message(n).content));
    await store.add(id, message(7, { content: "x".repeat(500) }));
    expect((await store.messages(id)).map((m) => m.content.length)).toEqual([500]);
    // A forgotten message's source key may be written again.
    expect(await store.add(id, message(3))).toBe(true);
  });

  it("concurrent writers lose nothing", async () => {
    const wide = await backend.open({ maxBytes: 1_000_000 });
    opened.push(wide);
    const results = await Promise.all(Array.from({ length: 20 }, (_, n) => wide.add(id, message(n))));
    expect(results.every(Boolean)).toBe(true);
    const contents = (await wide.messages(id)).map((m) => m.content).sort();
    expect(contents).toEqual(Array.from({ length: 20 }, (_, n) => message(n).content).sort());
  });

  it("refuses bad memory ids with the reason", async () => {
    await expect(store.add("", message(1))).rejects.toThrow("memory id must be a non-empty string");
    await expect(store.messages("a\nb")).rejects.toThrow("contains a control character");
    await expect(store.add("m".repeat(129), message(1))).rejects.toThrow("the limit is 128");
    await expect(store.add("m".repeat(129), message(1))).rejects.toBeInstanceOf(MemoryStoreError);
  });
});

describe("where memories live", () => {
  it("a folder keeps one JSON-lines file per memory, ids percent-encoded", async () => {
    const { dir } = scratchDir("cf-memories-");
    const store = new FileMemoryStore({ directory: dir });
    await store.add("team/a b", message(1));
    await store.add("..", message(2));
    const lines = readFileSync(path.join(dir, "team%2Fa%20b.jsonl"), "utf8").trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).content)).toEqual([message(1).content]);
    expect(JSON.parse(readFileSync(path.join(dir, "%2E%2E.jsonl"), "utf8")).content).toBe(message(2).content);
  });

  it("a run's memories: the configured location, else beside its session, else in the process", async () => {
    const { dir } = scratchDir("cf-memories-");
    const beside = memoriesForRun(undefined, path.join(dir, "session.json"));
    expect(beside.location).toBe(path.join(dir, "canvasflow-memories"));
    expect(memoriesForRun({ location: path.join(dir, "elsewhere") }, path.join(dir, "session.json")).location).toBe(path.join(dir, "elsewhere"));
    expect(memoriesForRun(undefined, undefined)).toBeInstanceOf(ProcessMemoryStore);
    const onRedis = memoriesForRun(undefined, `${TEST_REDIS_URL}#my-session`);
    opened.push(onRedis);
    expect(onRedis.location).toBe("Redis at 127.0.0.1:6379/0 (canvasflow:memory:*)");
    const onPostgres = memoriesForRun(undefined, `${TEST_POSTGRES_URL}?schema=${schema}#my-session`);
    opened.push(onPostgres);
    expect(onPostgres.location).toContain(`(${schema}.memory_messages)`);
    expect(() => openMemoryStore("ftp://host/x")).toThrow('unsupported memories location "ftp://host/x"');
    expect(() => openMemoryStore("")).toThrow("memories need a folder");
  });

  it("a server's and a worker's memories: beside the data folder, under the Redis prefix, in the PostgreSQL schema", () => {
    const { dir } = scratchDir("cf-memories-");
    expect(memoriesForServer(undefined, { data: dir }, ".canvasflow").location).toBe(path.join(dir, "memories"));
    expect(memoriesForServer(undefined, {}, path.join(dir, "default")).location).toBe(path.join(dir, "default", "memories"));
    const onRedis = memoriesForServer(undefined, { redis: TEST_REDIS_URL, redisPrefix: "team1:" }, ".canvasflow");
    opened.push(onRedis);
    expect(onRedis.location).toBe("Redis at 127.0.0.1:6379/0 (team1:memory:*)");
    const onPostgres = memoriesForServer({ maxBytes: 10 }, { postgres: TEST_POSTGRES_URL, schema }, ".canvasflow");
    opened.push(onPostgres);
    expect(onPostgres.location).toContain(`(${schema}.memory_messages)`);
    expect(memoriesForServer({ location: path.join(dir, "x") }, { redis: TEST_REDIS_URL }, ".canvasflow").location).toBe(path.join(dir, "x"));
  });

  it("an unreachable Redis fails with a message naming it", async () => {
    const store = new RedisMemoryStore({ url: "redis://127.0.0.1:1/0", keyPrefix: prefix });
    opened.push(store);
    await expect(store.messages("m")).rejects.toThrow(/memory "m": cannot reach Redis at 127\.0\.0\.1:1\/0/);
  });
});
