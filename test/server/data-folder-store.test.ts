/**
 * The data folder ServerStore: the conformance suite, two processes on one folder, and what a
 * damaged folder reads as.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataFolderServerStore } from "../../src/backends/files/server-store.js";
import { openServerStore } from "../../src/backends/open-server.js";
import { DamagedRecordError, DuplicateTitleError, ServerStoreError } from "../../src/backends/errors.js";
import type { AgentRecord, ApiKeyRecord, ServerStore } from "../../src/backends/contracts.js";
import { spawnDistChild } from "../helpers/dist-child.js";
import { scratchDir } from "../helpers/scratch.js";
import { describeServerStore } from "./store-conformance.js";

const shared = scratchDir("cf-data-store-");
describeServerStore("DataFolderServerStore", { open: () => new DataFolderServerStore({ directory: shared.dir }), shared: true });
describeServerStore("DataFolderServerStore (sync)", { open: () => new DataFolderServerStore({ directory: scratchDir("cf-data-sync-").dir, sync: true }), shared: false });

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
function open(directory: string, options: { lockTimeoutMs?: number } = {}): DataFolderServerStore {
  const store = new DataFolderServerStore({ directory, ...options });
  opened.push(store);
  return store;
}

describe("DataFolderServerStore: layout and sharing", () => {
  it("keeps records as JSON files named by id (keys by hash), runs and cancel flags beside them", async () => {
    const { dir } = scratchDir("cf-data-layout-");
    const store = open(dir);
    const a = await store.agents.create(agent("acme", "Layout"));
    await store.sessions.create({ id: "s1", tenant: "acme", agent_id: a.id, user_id: "u", name: "", message: [], source: "agent", create_time: 1, update_time: 1 });
    await store.keys.create({ id: "k1", tenant: "acme", name: "ci", hash: "e".repeat(64), last4: "abcd", create_time: 1, revoked: false });
    await store.runs.save("s1", { components: {}, globals: {} } as unknown as AgentRecord["dsl"]);
    await store.cancel.request("s1");
    // The write lock is gone once the write is done.
    expect(readdirSync(join(dir, "agents"))).toEqual([`${a.id}.json`]);
    expect(readdirSync(join(dir, "session-records"))).toEqual(["s1.json"]);
    expect(readdirSync(join(dir, "keys"))).toEqual([`${"e".repeat(64)}.json`]);
    expect(readdirSync(join(dir, "sessions"))).toContain("s1.json");
    expect(readdirSync(join(dir, "cancel"))).toEqual(["s1-cancel"]);
    expect(store.location).toBe(`data folder ${dir}`);
  });

  it("openServerStore opens a data folder, ./.canvasflow by default, and refuses a data folder with a database", async () => {
    const { dir } = scratchDir("cf-data-open-");
    const store = await openServerStore({ data: dir });
    opened.push(store);
    expect(store.location).toBe(`data folder ${dir}`);
    const fallback = await openServerStore();
    opened.push(fallback);
    expect(fallback.location).toBe(`data folder ${join(process.cwd(), ".canvasflow")}`);
    await expect(openServerStore({ data: dir, redis: "redis://127.0.0.1:6379" })).rejects.toThrow(/data folder .* and Redis were both given/);
  });

  it("two stores on one folder creating the same titles at once: exactly one wins each", async () => {
    const { dir } = scratchDir("cf-data-race-");
    const [a, b] = [open(dir), open(dir)];
    const titles = Array.from({ length: 10 }, (_, i) => `Race ${i}`);
    const results = await Promise.allSettled(titles.flatMap((title) => [a.agents.create(agent("t", title)), b.agents.create(agent("t", title.toUpperCase()))]));
    for (let i = 0; i < titles.length; i++) {
      const pair = [results[2 * i], results[2 * i + 1]];
      expect(pair.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const lost = pair.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(lost.reason).toBeInstanceOf(DuplicateTitleError);
    }
    expect((await a.agents.list("t", LIST)).total).toBe(10);
  });

  it("two processes on one folder creating the same titles at once: exactly one wins each, nothing is left half-written", async () => {
    const { dir } = scratchDir("cf-data-procs-");
    const code = `
      const store = new lib.DataFolderServerStore({ directory: ${JSON.stringify(dir)} });
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
    const store = open(dir);
    const listed = await store.agents.list("shared", { ...LIST, page_size: 100 });
    expect(listed.total).toBe(15);
    expect(new Set(listed.items.map((a) => a.title.toLowerCase())).size).toBe(15);
    expect(readdirSync(join(dir, "agents")).filter((f) => !f.endsWith(".json"))).toEqual([]);
  });

  it("many writes at once in one process queue for the folder's lock in order: none times out waiting for its own process", async () => {
    const { dir } = scratchDir("cf-data-queue-");
    // A lock wait far shorter than 300 writes take one after another.
    const store = open(dir, { lockTimeoutMs: 100 });
    const session = (i: number) => ({ id: `s${i}`, tenant: "t", agent_id: "a", user_id: "u", name: "", message: [], source: "agent" as const, create_time: i, update_time: i });
    const created = await Promise.allSettled(Array.from({ length: 300 }, (_, i) => store.sessions.create(session(i))));
    expect(created.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason)).slice(0, 3)).toEqual([]);
    expect((await store.sessions.list("t", "a", { ...LIST, page_size: 1 })).total).toBe(300);
    // Updates take the folder's lock.
    const updated = await Promise.allSettled(Array.from({ length: 300 }, (_, i) => store.sessions.update("t", `s${i}`, { name: `n${i}` }, 1000 + i)));
    expect(updated.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason)).slice(0, 3)).toEqual([]);
    expect((await store.sessions.get("t", "s299"))?.name).toBe("n299");
    expect(readdirSync(join(dir, "session-records")).filter((f) => !f.endsWith(".json"))).toEqual([]);
  });

  it("sees another store's writes in its lists (its summaries are checked against the files)", async () => {
    const { dir } = scratchDir("cf-data-cache-");
    const [a, b] = [open(dir), open(dir)];
    const made = await a.agents.create(agent("t", "Before"));
    expect((await b.agents.list("t", LIST)).items.map((x) => x.title)).toEqual(["Before"]);
    await a.agents.update("t", made.id, { title: "After" }, 99);
    expect((await b.agents.list("t", { ...LIST, keywords: "after" })).items.map((x) => x.title)).toEqual(["After"]);
    await a.agents.delete("t", made.id);
    expect((await b.agents.list("t", LIST)).total).toBe(0);
  });
});

describe("DataFolderServerStore: damaged data", () => {
  function damaged(): { dir: string; store: DataFolderServerStore; write(path: string, content: string): void } {
    const { dir } = scratchDir("cf-data-bad-");
    const store = open(dir, { lockTimeoutMs: 200 });
    return {
      dir,
      store,
      write(path, content) {
        mkdirSync(join(dir, path, ".."), { recursive: true });
        writeFileSync(join(dir, path), content);
      },
    };
  }

  it("an agent file that is not JSON, lacks a field, or names another id: skipped, reported naming the file and the fault", async () => {
    const { dir, store, write } = damaged();
    const reported: string[] = [];
    store.onDamaged((d) => reported.push(d.detail));
    write("agents/broken.json", "{ not json");
    // Whose it is cannot be told: nobody's request sees it; the report names the file.
    expect(await store.agents.get("t", "broken")).toBeUndefined();
    expect(reported.at(-1)).toMatch(new RegExp(`^data folder ${dir}: agents/broken.json: the stored agent is not valid JSON \\(`));
    expect(await store.agents.list("t", LIST)).toEqual({ items: [], total: 0 });
    write("agents/broken.json", JSON.stringify({ ...agent("t", "x"), id: "broken", title: 42 }));
    // Its owner's requests are told what is wrong, without the path; its owner's lists skip it and say so.
    await expect(store.agents.get("t", "broken")).rejects.toThrow(new DamagedRecordError("agent broken is damaged in the store: the stored agent is damaged: title must be a non-empty string, got 42"));
    expect(reported.at(-1)).toBe(`data folder ${dir}: agents/broken.json: the stored agent is damaged: title must be a non-empty string, got 42`);
    expect(await store.agents.list("t", LIST)).toEqual({ items: [], total: 0, damaged: [expect.objectContaining({ kind: "agent", id: "broken", tenant: "t", problem: "the stored agent is damaged: title must be a non-empty string, got 42" })] });
    expect(await store.agents.list("other", LIST)).toEqual({ items: [], total: 0 });
    write("agents/broken.json", JSON.stringify({ ...agent("t", "x"), id: "other" }));
    await expect(store.agents.get("t", "broken")).rejects.toBeInstanceOf(DamagedRecordError);
    expect(reported.at(-1)).toBe(`data folder ${dir}: agents/broken.json: the stored agent says its id is "other", but it is stored as "broken"`);
    expect((await store.agents.list("t", LIST)).damaged?.[0].detail).toContain(`agents/broken.json: the stored agent says its id is "other", but its file is named broken.json`);
    // A create goes on past it.
    const created = await store.agents.create(agent("t", "New"));
    expect(readdirSync(join(dir, "agents")).filter((f) => !f.startsWith(".")).sort()).toEqual(["broken.json", `${created.id}.json`].sort());
  });

  it("a session record or key file that is damaged: skipped, its owner told, reported naming it", async () => {
    const { dir, store, write } = damaged();
    const reported: string[] = [];
    store.onDamaged((d) => reported.push(d.detail));
    write("session-records/s1.json", JSON.stringify({ id: "s1", tenant: "t", agent_id: "a", user_id: "u", name: "", message: [{ role: "bot", content: "" }], source: "agent", create_time: 1, update_time: 1 }));
    await expect(store.sessions.get("t", "s1")).rejects.toBeInstanceOf(DamagedRecordError);
    expect(reported.at(-1)).toBe(`data folder ${dir}: session-records/s1.json: the stored session record is damaged: message[0].role must be "user" or "assistant", got "bot"`);
    expect((await store.sessions.list("t", "a", LIST)).damaged).toEqual([expect.objectContaining({ id: "s1", agent_id: "a", problem: 'the stored session record is damaged: message[0].role must be "user" or "assistant", got "bot"' })]);
    expect((await store.sessions.list("t", "b", LIST)).damaged).toBeUndefined();
    const key: ApiKeyRecord = { id: "k1", tenant: "t", name: "n", hash: "f".repeat(64), last4: "abcd", create_time: 1, revoked: false };
    write(`keys/${"1".repeat(64)}.json`, JSON.stringify(key));
    expect(await store.keys.findByHash("1".repeat(64))).toBeUndefined();
    expect(reported.at(-1)).toBe(`data folder ${dir}: keys/${"1".repeat(64)}.json: the stored API key says its hash is "${"f".repeat(64)}", but its file is named ${"1".repeat(64)}.json`);
    write(`keys/${"1".repeat(64)}.json`, "[]");
    expect(await store.keys.list()).toEqual([]);
    expect(reported.at(-1)).toContain("the stored API key is damaged: an API key must be a JSON object, got an array");
  });

  it("a folder that cannot be used, and a write lock another process keeps: errors naming the path", async () => {
    const { dir, store, write } = damaged();
    write("agents", "a file where the folder should be");
    await expect(store.agents.create(agent("t", "x"))).rejects.toThrow(new RegExp(`^data folder ${dir}: cannot create agents: `));
    await expect(store.agents.list("t", LIST)).rejects.toThrow(new RegExp(`^data folder ${dir}: cannot list agents: `));
    // A live process (ours' parent) holds the session records' lock for a save.
    const s1 = { id: "s1", tenant: "t", agent_id: "a", user_id: "u", name: "", message: [], source: "agent" as const, create_time: 1, update_time: 1 };
    await store.sessions.create(s1);
    write("session-records/.lock", `${process.ppid} ${hostname()} abc save`);
    const error = await store.sessions.update("t", "s1", { name: "renamed" }, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStoreError);
    expect((error as Error).message).toMatch(`the session records of data folder ${dir} is locked by another writer (process ${process.ppid}`);
    expect((error as Error).message).toContain(join(dir, "session-records/.lock"));
    expect(await store.sessions.get("t", "s1")).toEqual(s1);
    // A new record takes no lock (an exclusive link): created meanwhile; its id a second time is refused.
    const s2 = { ...s1, id: "s2" };
    await store.sessions.create(s2);
    await expect(store.sessions.create({ ...s2, name: "again" })).rejects.toThrow(`data folder ${dir}: session record s2 already exists`);
    expect(await store.sessions.get("t", "s2")).toEqual(s2);
    expect(readdirSync(join(dir, "session-records")).sort()).toEqual([".lock", "s1.json", "s2.json"]);
  });

  it("a failed update leaves the record as it was", async () => {
    const { store } = damaged();
    const a = await store.agents.create(agent("t", "One"));
    await store.agents.create(agent("t", "Two"));
    await expect(store.agents.update("t", a.id, { title: "two", description: "changed" }, 5)).rejects.toBeInstanceOf(DuplicateTitleError);
    expect(await store.agents.get("t", a.id)).toMatchObject({ title: "One", description: "", update_time: 1 });
  });
});
