/**
 * The SQLite ServerStore (issue 26): the conformance suite with two stores on one database file (as
 * two server processes share it), a real second process reading and writing the same file, the
 * shared rate-limit counters (directly and through two servers), uploads that expired, damaged
 * rows, and a file that is not a database.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openServerStore } from "../../src/backends/open-server.js";
import { openSqliteDatabase } from "../../src/backends/sqlite/database.js";
import { SqliteServerStore } from "../../src/backends/sqlite/server-store.js";
import { RATE_LIMIT_PRUNE_EVERY_MS } from "../../src/backends/sqlite/rate-limit-counters.js";
import { DamagedRecordError, DatabaseFileError, DuplicateTitleError, ServerStoreError, StoredRecordError } from "../../src/backends/errors.js";
import type { AgentRecord, DamagedRecord, SessionRecord, UploadRecord } from "../../src/backends/contracts.js";
import { spawnDistChild } from "../helpers/dist-child.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { call, injectTestServer } from "../helpers/server.js";
import { describeServerStore } from "./store-conformance.js";

const root = mkdtempSync(join(tmpdir(), "canvasflow-sqlite-server-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(root, `store-${++files}.db`);

const conformanceFile = newFile();
describeServerStore("SqliteServerStore", { open: () => new SqliteServerStore({ file: conformanceFile }), shared: true });

const LIST = { page: 1, page_size: 30, orderby: "update_time", desc: true } as const;
let n = 0;
const id = () => `${Date.now().toString(16)}${(++n).toString(16).padStart(6, "0")}`.padEnd(32, "0");
function agent(tenant: string, title: string): AgentRecord {
  return { id: id(), tenant, title, description: "", dsl: { components: { begin: { downstream: [] } }, globals: {} } as unknown as AgentRecord["dsl"], canvas_type: "", avatar: null, create_time: 1, update_time: 1 };
}
function session(tenant: string, agentId: string): SessionRecord {
  return { id: id(), tenant, agent_id: agentId, user_id: "u", name: "", message: [{ role: "assistant", content: "Hi!" }], source: "agent", create_time: 1, update_time: 1 };
}
function upload(tenant: string, createTime: number, expireTime: number): { record: UploadRecord; data: Buffer } {
  const data = Buffer.from("bytes \u0000 kept whole");
  return { record: { id: randomUUID(), tenant, user: "ada", name: "a.bin", size: data.length, extension: "bin", mime_type: "application/octet-stream", create_time: createTime, expire_time: expireTime }, data };
}
const ROOMY = { maxFiles: 100, maxBytes: 1_000_000 };

const opened: SqliteServerStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
function open(file: string, options: Omit<ConstructorParameters<typeof SqliteServerStore>[0], "file"> = {}): SqliteServerStore {
  const store = new SqliteServerStore({ file, ...options });
  opened.push(store);
  return store;
}
/** The raw rows of a table, read through a connection of its own. */
function rows(file: string, sql: string, ...params: unknown[]): unknown[] {
  const db = openSqliteDatabase(file);
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

describe("SqliteServerStore: one file, one connection", () => {
  it("keeps records, run state and cancel flags in the file it names; location is sqlite: and the absolute path", async () => {
    const file = newFile();
    const store = open(file);
    expect(store.location).toBe(`sqlite:${resolve(file)}`);
    const made = await store.agents.create(agent("t", "Kept"));
    await store.runs.save("s1", { components: {}, globals: {} } as never);
    await store.cancel.request("task-1");
    expect(rows(file, "SELECT id, title_key, dsl FROM agents")).toEqual([{ id: made.id, title_key: "kept", dsl: JSON.stringify(made.dsl) }]);
    expect(rows(file, "SELECT key FROM sessions")).toEqual([{ key: "s1" }]);
    expect(rows(file, "SELECT task_id FROM cancel_flags")).toEqual([{ task_id: "task-1" }]);
    expect(rows(file, "PRAGMA user_version")).toEqual([{ user_version: expect.any(Number) }]);
    expect((rows(file, "PRAGMA user_version")[0] as { user_version: number }).user_version).toBeGreaterThanOrEqual(3);
  });

  it("hears another store's cancel on the same file, and sees its run state", async () => {
    const file = newFile();
    const [a, b] = [open(file), open(file)];
    let heard = false;
    const stop = await b.cancel.watch("task-2", () => (heard = true));
    await a.runs.save("s2", { components: {}, globals: {} } as never);
    await a.cancel.request("task-2");
    const started = Date.now();
    while (!heard && Date.now() - started < 2000) await new Promise((done) => setTimeout(done, 5));
    expect(heard).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
    expect(await b.runs.load("s2")).toMatchObject({ snapshot: { components: {} } });
    await stop();
  });

  it("close() closes the file: a later call is a ServerStoreError saying the store is closed", async () => {
    const store = new SqliteServerStore({ file: newFile() });
    await store.close();
    await store.close();
    await expect(store.agents.get("t", id())).rejects.toThrow(/the store is closed/);
    await expect(store.agents.get("t", id())).rejects.toBeInstanceOf(ServerStoreError);
    await expect(store.ping()).rejects.toBeInstanceOf(ServerStoreError);
  });

  it("a failed rename leaves the agent as it was", async () => {
    const store = open(newFile());
    const one = await store.agents.create(agent("t", "One"));
    await store.agents.create(agent("t", "Two"));
    await expect(store.agents.update("t", one.id, { title: "TWO", description: "changed" }, 5)).rejects.toBeInstanceOf(DuplicateTitleError);
    expect(await store.agents.get("t", one.id)).toMatchObject({ title: "One", description: "", update_time: 1 });
  });
});

describe("SqliteServerStore: another process on the same file", () => {
  it("a second process reads what the first wrote, and the first reads what it writes back", async () => {
    const file = newFile();
    const store = open(file);
    const made = await store.agents.create(agent("t", "From the parent"));
    const record = await store.sessions.create(session("t", made.id));
    await store.keys.create({ id: "k1", tenant: "t", name: "ci", hash: "e".repeat(64), last4: "abcd", create_time: 1, revoked: false });
    const file1 = upload("t", Date.now(), Date.now() + 60_000);
    await store.uploads.put(file1.record, file1.data, ROOMY);
    const child = spawnDistChild(`
      const store = new lib.SqliteServerStore({ file: ${JSON.stringify(file)} });
      const agent = await store.agents.get("t", ${JSON.stringify(made.id)});
      const sessions = await store.sessions.list("t", ${JSON.stringify(made.id)}, ${JSON.stringify(LIST)});
      const key = await store.keys.findByHash("${"e".repeat(64)}");
      const file = await store.uploads.get("t", ${JSON.stringify(file1.record.id)}, Date.now());
      console.log(JSON.stringify({ title: agent?.title, sessions: sessions.items.map((s) => s.id), key: key?.id, bytes: file?.data.toString("base64") }));
      await store.agents.create({ ...agent, id: "${"c".repeat(32)}", title: "From the child" });
      await store.sessions.update("t", ${JSON.stringify(record.id)}, { name: "renamed by the child" }, 99);
      await store.close();
      console.log("done");
    `);
    expect(JSON.parse(await child.line())).toEqual({ title: "From the parent", sessions: [record.id], key: "k1", bytes: file1.data.toString("base64") });
    expect(await child.line()).toBe("done");
    // Its stdin open keeps the child alive.
    child.child.stdin!.end();
    expect((await child.exited).code).toBe(0);
    expect((await store.agents.list("t", LIST)).items.map((a) => a.title).sort()).toEqual(["From the child", "From the parent"]);
    expect(await store.sessions.get("t", record.id)).toMatchObject({ name: "renamed by the child", update_time: 99 });
  });
});

describe("SqliteServerStore: rate-limit counters", () => {
  it("two stores on one file count one counter together, in a fixed window; a window that ran out starts again", async () => {
    const file = newFile();
    const [a, b] = [open(file), open(file)];
    const t = 1_000_000;
    expect(await a.rateLimitCounters.incr("requests:key:k1", 60_000, t)).toEqual({ current: 1, ttlMs: 60_000 });
    expect(await b.rateLimitCounters.incr("requests:key:k1", 60_000, t + 1000)).toEqual({ current: 2, ttlMs: 59_000 });
    expect(await a.rateLimitCounters.incr("requests:key:k1", 60_000, t + 2000)).toEqual({ current: 3, ttlMs: 58_000 });
    // Another counter is apart.
    expect(await b.rateLimitCounters.incr("completions:key:k1", 60_000, t + 2000)).toEqual({ current: 1, ttlMs: 60_000 });
    expect(await b.rateLimitCounters.incr("requests:key:k1", 60_000, t + 60_000)).toEqual({ current: 1, ttlMs: 60_000 });
    expect(await a.rateLimitCounters.incr("requests:key:k1", 60_000, t + 61_000)).toEqual({ current: 2, ttlMs: 59_000 });
  });

  it("counters whose window ran out are deleted, at most once a minute per store", async () => {
    const file = newFile();
    const store = open(file);
    const t = 5_000_000;
    await store.rateLimitCounters.incr("old", 1000, t);
    await store.rateLimitCounters.incr("other", 1000, t + 10);
    expect(rows(file, "SELECT name FROM rate_limits ORDER BY name")).toEqual([{ name: "old" }, { name: "other" }]);
    await store.rateLimitCounters.incr("new", 1000, t + RATE_LIMIT_PRUNE_EVERY_MS);
    expect(rows(file, "SELECT name, count, window_start, expires_at FROM rate_limits")).toEqual([{ name: "new", count: 1, window_start: t + RATE_LIMIT_PRUNE_EVERY_MS, expires_at: t + RATE_LIMIT_PRUNE_EVERY_MS + 1000 }]);
  });

  it("refuses a counter with no name or a window that is not a positive whole number, naming it", async () => {
    const store = open(newFile());
    await expect(store.rateLimitCounters.incr("", 1000, 1)).rejects.toThrow(/a rate-limit counter's name must be 1 to 512 characters, got 0 characters/);
    await expect(store.rateLimitCounters.incr("x", 0, 1)).rejects.toThrow(/rate-limit counter "x": windowMs must be a positive whole number of milliseconds, got 0/);
    await expect(store.rateLimitCounters.incr("x", 1000, Number.NaN)).rejects.toThrow(/rate-limit counter "x": now must be a time in epoch milliseconds, got NaN/);
  });

  it("two servers on one file share a key's requests per minute (Fastify inject)", async () => {
    const file = newFile();
    const rateLimits = { requestsPerMinute: 3 };
    const a = await injectTestServer({ store: new SqliteServerStore({ file }), rateLimits });
    const b = { ...(await injectTestServer({ store: new SqliteServerStore({ file }), rateLimits, keys: false })), key: a.key };
    expect((await call(a, "/api/v1/agents")).status).toBe(200);
    expect((await call(b, "/api/v1/agents")).status).toBe(200);
    const third = await call(a, "/api/v1/agents");
    expect(third.status).toBe(200);
    expect(third.headers.get("x-ratelimit-remaining")).toBe("0");
    const refused = await call(b, "/api/v1/agents");
    expect(refused.status).toBe(429);
    expect(refused.json.message).toContain("server.rateLimits.requestsPerMinute");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const [key] = await a.store.keys.list("t1");
    // Counted by the key's id, never the key.
    expect(rows(file, "SELECT name, count FROM rate_limits")).toEqual([{ name: `ratelimit:requests:key:${key.id}`, count: 4 }]);
  });
});

describe("SqliteServerStore: uploads", () => {
  it("an expired upload is not returned, and goes from the file when its tenant uploads again", async () => {
    const file = newFile();
    const clock = new ManualClock();
    const store = open(file, { now: clock.now });
    const now = clock.now();
    const short = upload("t", now, now + 1000);
    await store.uploads.put(short.record, short.data, ROOMY);
    const got = await store.uploads.get("t", short.record.id, now);
    expect(got?.record).toEqual(short.record);
    expect(got?.data.equals(short.data)).toBe(true);
    expect(await store.uploads.get("t", short.record.id, now + 1000)).toBeUndefined();
    clock.advance(2000);
    const next = upload("t", clock.now(), clock.now() + 60_000);
    await store.uploads.put(next.record, next.data, ROOMY);
    expect(rows(file, "SELECT id FROM uploads")).toEqual([{ id: next.record.id }]);
  });

  it("keeps an empty file as an empty BLOB", async () => {
    const store = open(newFile());
    const record: UploadRecord = { ...upload("t", Date.now(), Date.now() + 60_000).record, size: 0 };
    await store.uploads.put(record, Buffer.alloc(0), ROOMY);
    const got = await store.uploads.get("t", record.id, Date.now());
    expect(got?.data.length).toBe(0);
  });
});

describe("SqliteServerStore: damaged rows", () => {
  it("a row whose JSON column is not JSON, whose field is wrong, or whose title_key disagrees: an error naming the file, table and row; a list skips it and names it to its tenant", async () => {
    const file = newFile();
    const store = open(file);
    const made = await store.agents.create(agent("t", "Row"));
    const edit = (sql: string, ...params: unknown[]) => {
      const db = openSqliteDatabase(file);
      db.prepare(sql).run(...params);
      db.close();
    };
    const reported: DamagedRecord[] = [];
    store.onDamaged((damaged) => reported.push(damaged));
    edit("UPDATE agents SET dsl = '{ nope' WHERE id = ?", made.id);
    // Its owner asking for it is told what is wrong (no path); the listeners hear where.
    await expect(store.agents.get("t", made.id)).rejects.toThrow(new RegExp(`^agent ${made.id} is damaged in the store: its dsl column is not valid JSON`));
    expect(reported.splice(0)).toEqual([expect.objectContaining({ kind: "agent", id: made.id, detail: expect.stringContaining(`SQLite database ${file}: table agents, row id "${made.id}": its dsl column is not valid JSON`) })]);
    expect(await store.agents.get("other", made.id)).toBeUndefined();
    edit("UPDATE agents SET dsl = '[]' WHERE id = ?", made.id);
    const fine = await store.agents.create(agent("t", "Fine"));
    const page = await store.agents.list("t", LIST);
    expect(page.items.map((a) => a.id)).toEqual([fine.id]);
    expect(page.total).toBe(1);
    expect(page.damaged).toEqual([{ kind: "agent", id: made.id, tenant: "t", problem: "the stored agent is damaged: dsl must be a JSON object, got an array", detail: expect.stringContaining(`table agents, row id "${made.id}"`) }]);
    expect(reported.map((d) => d.id)).toEqual([made.id]);
    edit("UPDATE agents SET dsl = '{}', title = 'Renamed by hand' WHERE id = ?", made.id);
    await expect(store.agents.get("t", made.id)).rejects.toThrow(`its title_key column ("row") is not its title lower-cased ("renamed by hand"); title uniqueness depends on it`);
    const record = await store.sessions.create({ ...session("t", made.id), id: "s1" });
    edit(`UPDATE session_records SET message = '[{"role":"system","content":""}]' WHERE id = ?`, record.id);
    const error = await store.sessions.get("t", "s1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DamagedRecordError);
    expect((error as Error).message).toBe(`session record s1 is damaged in the store: the stored session record is damaged: message[0].role must be "user" or "assistant", got "system"`);
    expect(reported.at(-1)!.detail).toBe(`SQLite database ${file}: table session_records, row id "s1": the stored session record is damaged: message[0].role must be "user" or "assistant", got "system"`);
    // A failed update leaves the row as it was.
    await expect(store.sessions.update("t", "s1", { name: "x" }, 2)).rejects.toBeInstanceOf(StoredRecordError);
    expect(rows(file, "SELECT name, update_time FROM session_records WHERE id = 's1'")).toEqual([{ name: "", update_time: 1 }]);
    await store.keys.create({ id: "k2", tenant: "t", name: "k", hash: "f".repeat(64), last4: "abcd", create_time: 1, revoked: false });
    // A key whose row cannot be read opens nothing and is left out of the list; the listeners hear of it.
    edit("UPDATE api_keys SET create_time = 'yesterday' WHERE id = 'k2'");
    expect(await store.keys.findByHash("f".repeat(64))).toBeUndefined();
    expect(await store.keys.list("t")).toEqual([]);
    expect(reported.at(-1)).toMatchObject({ kind: "API key", id: "k2", tenant: "t", problem: 'the stored API key is damaged: create_time must be a time in epoch milliseconds (a whole number), got "yesterday"' });
  });
});

describe("SqliteServerStore: opening", () => {
  it("a file that is not a SQLite database: DatabaseFileError naming it; nothing is created or overwritten", async () => {
    const folder = mkdtempSync(join(root, "not-a-db-"));
    const file = join(folder, "canvasflow.db");
    const text = "These are my notes, not a database.\n".repeat(50);
    writeFileSync(file, text);
    const error = (() => {
      try {
        open(file);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(DatabaseFileError);
    expect((error as DatabaseFileError).file).toBe(file);
    expect((error as Error).message).toContain(`${file} is not a usable SQLite database`);
    await expect(openServerStore({ sqlite: file })).rejects.toBeInstanceOf(DatabaseFileError);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(readdirSync(folder)).toEqual(["canvasflow.db"]);
  });

  it("openServerStore: sqlite alone (a path or sqlite:PATH); with Redis, PostgreSQL or a data folder refused", async () => {
    const file = newFile();
    const plain = await openServerStore({ sqlite: file });
    opened.push(plain as SqliteServerStore);
    expect(plain).toBeInstanceOf(SqliteServerStore);
    expect(plain.location).toBe(`sqlite:${resolve(file)}`);
    await plain.ping();
    const prefixed = await openServerStore({ sqlite: `sqlite:${file}`, sync: true });
    opened.push(prefixed as SqliteServerStore);
    expect(prefixed.location).toBe(`sqlite:${resolve(file)}`);
    await expect(openServerStore({ sqlite: file, redis: "redis://127.0.0.1:6379" })).rejects.toThrow(`a SQLite database (${file}) and Redis were both given: the SQLite file keeps everything by itself; give one or the other`);
    await expect(openServerStore({ sqlite: file, postgres: "postgres://x@127.0.0.1/db", data: "dir" })).rejects.toThrow(`a SQLite database (${file}) and a data folder (dir) and PostgreSQL were both given`);
    await expect(openServerStore({ sqlite: file, data: "dir" })).rejects.toBeInstanceOf(ServerStoreError);
    await expect(openServerStore({ sqlite: "sqlite:" })).rejects.toThrow('sqlite: expected the path of a database file, got "sqlite:"');
  });
});
