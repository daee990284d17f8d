/**
 * The Redis ServerStore against the real Redis (127.0.0.1:6379), under a key prefix of its own:
 * the conformance suite, two stores and two processes racing for titles, and damaged keys.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openServerStore } from "../../src/backends/open-server.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { DuplicateTitleError, ServerStoreError } from "../../src/backends/errors.js";
import type { AgentRecord, DamagedRecord, ServerStore } from "../../src/backends/contracts.js";
import { spawnDistChild } from "../helpers/dist-child.js";
import { closedPort } from "../helpers/http.js";
import { deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { describeServerStore } from "./store-conformance.js";

const admin = sharedTestRedis();
const prefixes: string[] = [];
function prefix(): string {
  const p = uniqueTestPrefix();
  prefixes.push(p);
  return p;
}
afterAll(async () => {
  const client = await admin.get();
  for (const p of prefixes) await deleteKeys(client, p);
  await admin.close();
});

const conformancePrefix = prefix();
describeServerStore("RedisServerStore", {
  open: async () => {
    await admin.get(); // fails with a clear message when Redis is not there
    return new RedisServerStore({ url: TEST_REDIS_URL, prefix: conformancePrefix });
  },
  shared: true,
});

const LIST = { page: 1, page_size: 30, orderby: "update_time", desc: true } as const;
let n = 0;
const id = () => `${Date.now().toString(16)}${(++n).toString(16).padStart(6, "0")}`.padEnd(32, "0");
function agent(tenant: string, title: string): AgentRecord {
  return { id: id(), tenant, title, description: "", dsl: { components: {}, globals: {} } as unknown as AgentRecord["dsl"], canvas_type: "", avatar: null, create_time: 1, update_time: 1 };
}

const opened: ServerStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
beforeEach(async () => {
  await admin.get();
});
function open(p: string): RedisServerStore {
  const store = new RedisServerStore({ url: TEST_REDIS_URL, prefix: p });
  opened.push(store);
  return store;
}

describe("RedisServerStore: layout and sharing", () => {
  it("keeps records under the prefix as the layout says, runs and cancel flags too", async () => {
    const p = prefix();
    const store = open(p);
    const a = await store.agents.create(agent("ac:me", "Layout"));
    await store.sessions.create({ id: "s1", tenant: "ac:me", agent_id: a.id, user_id: "u", name: "Chat", message: [], source: "agent", create_time: 5, update_time: 6 });
    await store.keys.create({ id: "k1", tenant: "ac:me", name: "ci", hash: "e".repeat(64), last4: "abcd", create_time: 1, revoked: false });
    await store.runs.save("s1", { components: {}, globals: {} } as unknown as AgentRecord["dsl"]);
    await store.cancel.request("s1");
    const client = await admin.get();
    const keys = (await client.keys(`${p}*`)).map((k) => k.slice(p.length)).sort();
    expect(keys).toEqual(
      [
        `agent:${a.id}`,
        "agent-titles:ac%3Ame",
        "agents-by-create:ac%3Ame",
        "agents-by-update:ac%3Ame",
        `apikey:${"e".repeat(64)}`,
        "apikeys",
        "s1-cancel",
        "session-record:s1",
        `session-records-by-create:ac%3Ame:${a.id}`,
        `session-records-by-update:ac%3Ame:${a.id}`,
        "session:s1",
      ].sort(),
    );
    expect(await client.hget(`${p}agent-titles:ac%3Ame`, "layout")).toBe(a.id);
    expect(await client.hgetall(`${p}session-record:s1`)).toMatchObject({ tenant: "ac:me", agent_id: a.id, user_id: "u", name_key: "chat" });
    expect(await client.zscore(`${p}session-records-by-update:ac%3Ame:${a.id}`, "s1")).toBe("6");
    expect(store.location).toBe(`Redis at 127.0.0.1:6379/0 (prefix ${p})`);
  });

  it("openServerStore opens Redis from a URL, and refuses a URL that is not one", async () => {
    const p = prefix();
    const store = await openServerStore({ redis: TEST_REDIS_URL, redisPrefix: p });
    opened.push(store);
    expect(store).toBeInstanceOf(RedisServerStore);
    await store.ping();
    await expect(openServerStore({ redis: "http://127.0.0.1:6379" })).rejects.toThrow('redis: expected a redis:// or rediss:// URL, got "http://127.0.0.1:6379"');
    await expect(openServerStore({ redis: "redis://u:secret@127.0.0.1:6379/x" })).rejects.toThrow('redis: the path of "redis://u:***@127.0.0.1:6379/x" must be a database number such as /0, got "/x"');
  });

  it("two stores (two connections) creating the same titles at once: exactly one wins each", async () => {
    const p = prefix();
    const [a, b] = [open(p), open(p)];
    const titles = Array.from({ length: 10 }, (_, i) => `Race ${i}`);
    const results = await Promise.allSettled(titles.flatMap((title) => [a.agents.create(agent("t", title)), b.agents.create(agent("t", title.toLowerCase()))]));
    for (let i = 0; i < titles.length; i++) {
      const pair = [results[2 * i], results[2 * i + 1]];
      expect(pair.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect((pair.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateTitleError);
    }
    expect((await a.agents.list("t", LIST)).total).toBe(10);
    // Concurrent renames to one title: one wins.
    const [x, y] = (await a.agents.list("t", { ...LIST, page_size: 2 })).items;
    const renames = await Promise.allSettled([a.agents.update("t", x.id, { title: "Same" }, 9), b.agents.update("t", y.id, { title: "SAME" }, 9)]);
    expect(renames.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("two processes creating the same titles at once: exactly one wins each", async () => {
    const p = prefix();
    const code = `
      const store = new lib.RedisServerStore({ url: ${JSON.stringify(TEST_REDIS_URL)}, prefix: ${JSON.stringify(p)} });
      await store.ping();
      console.log("ready");
      await lines.next();
      const results = [];
      for (let i = 0; i < 15; i++) {
        const id = process.pid.toString(16).padStart(8, "0") + i.toString(16).padStart(24, "0");
        try {
          await store.agents.create({ id, tenant: "shared", title: "Title " + i, description: "", dsl: { components: {}, globals: {} }, canvas_type: "", avatar: null, create_time: i, update_time: i });
          results.push("won");
        } catch (error) {
          results.push(error.name);
        }
      }
      console.log(JSON.stringify(results));
      await store.close();`;
    const children = [spawnDistChild(code), spawnDistChild(code)];
    for (const child of children) expect(await child.line()).toBe("ready");
    for (const child of children) child.send("go");
    const [first, second] = (await Promise.all(children.map((c) => c.line()))).map((line) => JSON.parse(line) as string[]);
    for (const child of children) child.child.stdin!.end();
    await Promise.all(children.map((c) => c.exited));
    for (let i = 0; i < 15; i++) expect([first[i], second[i]].sort()).toEqual(["DuplicateTitleError", "won"]);
    expect((await open(p).agents.list("shared", { ...LIST, page_size: 100 })).total).toBe(15);
  });
});

describe("RedisServerStore: damaged keys and an unreachable server", () => {
  it("a record that is not JSON, lacks its json field, is of another tenant than its hash says, or is listed but gone", async () => {
    const p = prefix();
    const store = open(p);
    const client = await admin.get();
    await client.hset(`${p}agent:bad1`, "json", "{ nope", "tenant", "t");
    await expect(store.agents.get("t", "bad1")).rejects.toThrow(new RegExp(`^Redis at 127.0.0.1:6379/0 \\(prefix ${p}\\): key ${p}agent:bad1: the stored agent is not valid JSON`));
    await client.hset(`${p}agent:bad2`, "tenant", "t");
    await expect(store.agents.get("t", "bad2")).rejects.toThrow(`key ${p}agent:bad2: the stored agent has no json field`);
    await client.hset(`${p}agent:bad3`, "json", JSON.stringify({ ...agent("t", "x"), id: "bad3" }), "tenant", "u");
    await expect(store.agents.get("t", "bad3")).rejects.toThrow(`key ${p}agent:bad3: the hash's tenant field ("u") is not the stored agent's tenant ("t")`);
    // One damaged value costs its own place in a list, not the list (issue 24, item 14): the
    // tenant's list is the rest, with the damaged one named to that tenant, and the log is told.
    const reported: DamagedRecord[] = [];
    store.onDamaged((damaged) => reported.push(damaged));
    const good = agent("t", "fine");
    await store.agents.create(good);
    await client.zadd(`${p}agents-by-update:t`, 1, "gone");
    const page = await store.agents.list("t", { ...LIST, page_size: 100 });
    expect(page.items.map((a) => a.id)).toEqual([good.id]);
    expect(page.damaged?.map((d) => [d.kind, d.id, d.tenant])).toEqual([["agent", "gone", "t"]]);
    expect(page.damaged?.[0].problem).not.toContain(p);
    expect((await store.agents.list("u", LIST)).items).toEqual([]);
    expect(reported.map((d) => d.id)).toContain("gone");
    // A damaged key opens nothing and does not hide the others (serve lists them at start).
    await client.hset(`${p}apikeys`, "k9", "9".repeat(64));
    await expect(store.keys.list()).resolves.toEqual([]);
    await client.set(`${p}apikey:${"8".repeat(64)}`, JSON.stringify({ id: "k8", tenant: "t", name: "n", hash: "7".repeat(64), last4: "abcd", create_time: 1, revoked: false }));
    await expect(store.keys.findByHash("8".repeat(64))).resolves.toBeUndefined();
    expect(reported.filter((d) => d.kind === "API key").length).toBe(2);
    expect(reported.every((d) => d.detail.length > 0)).toBe(true);
  });

  it("a key of the wrong Redis type: an error naming it, and nothing written", async () => {
    const p = prefix();
    const store = open(p);
    const client = await admin.get();
    await client.set(`${p}agents-by-update:t`, "not a sorted set");
    const made = agent("t", "Blocked");
    await expect(store.agents.create(made)).rejects.toThrow(`creating agent ${made.id}: key ${p}agents-by-update:t holds a string, but the store keeps a zset there`);
    expect(await client.exists(`${p}agent:${made.id}`, `${p}agent-titles:t`, `${p}agents-by-create:t`)).toBe(0);
    await expect(store.agents.list("t", LIST)).rejects.toThrow(`key ${p}agents-by-update:t holds a string, but the store keeps a zset there`);
    await client.set(`${p}agent:${made.id}`, "a string");
    await expect(store.agents.get("t", made.id)).rejects.toThrow(new RegExp(`reading agent ${made.id} \\(${p}agent:${made.id}\\): WRONGTYPE`));
  });

  it("an unreachable Redis: one line naming it", async () => {
    const port = await closedPort();
    const store = new RedisServerStore({ url: `redis://127.0.0.1:${port}/0` });
    opened.push(store);
    const error = await store.agents.get("t", "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStoreError);
    expect((error as Error).message).toBe(`cannot reach Redis at 127.0.0.1:${port}/0: connect ECONNREFUSED 127.0.0.1:${port}`);
    await expect(store.ping()).rejects.toThrow(`cannot reach Redis at 127.0.0.1:${port}/0`);
  });
});
