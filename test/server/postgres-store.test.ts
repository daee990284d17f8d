/**
 * The PostgreSQL ServerStore against the real PostgreSQL (127.0.0.1:5432, database test), each
 * test file in schemas of its own, dropped at the end: the conformance suite, PostgreSQL with
 * Redis, the tables, races for titles, and damaged rows.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openServerStore } from "../../src/backends/open-server.js";
import { PostgresServerStore } from "../../src/backends/postgres/server-store.js";
import { PostgresWithRedisServerStore } from "../../src/backends/postgres/server-store-with-redis.js";
import { migratePostgresServer } from "../../src/backends/postgres/server-schema.js";
import { StoredRecordError, DuplicateTitleError, ServerStoreError } from "../../src/backends/errors.js";
import type { AgentRecord, DamagedRecord, ServerStore } from "../../src/backends/contracts.js";
import { closedPort } from "../helpers/http.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { describeServerStore } from "./store-conformance.js";

const admin = sharedTestPostgres();
const redisAdmin = sharedTestRedis();
const schemas: string[] = [];
const prefixes: string[] = [];
function schema(): string {
  const s = uniqueTestSchema();
  schemas.push(s);
  return s;
}
afterAll(async () => {
  const client = await admin.get();
  for (const s of schemas) await dropSchema(client, s);
  await admin.close();
  const redis = await redisAdmin.get();
  for (const p of prefixes) await deleteKeys(redis, p);
  await redisAdmin.close();
});

const conformanceSchema = schema();
describeServerStore("PostgresServerStore", {
  open: async () => {
    await admin.get(); // fails with a clear message when PostgreSQL is not there
    return new PostgresServerStore({ url: TEST_POSTGRES_URL, schema: conformanceSchema });
  },
  shared: true,
});

const combinedSchema = schema();
const combinedPrefix = uniqueTestPrefix();
prefixes.push(combinedPrefix);
describeServerStore("PostgresWithRedisServerStore", {
  open: async () => {
    await admin.get();
    return new PostgresWithRedisServerStore({ url: TEST_POSTGRES_URL, schema: combinedSchema, redisUrl: TEST_REDIS_URL, redisPrefix: combinedPrefix });
  },
  shared: true,
});

const LIST = { page: 1, page_size: 30, orderby: "update_time", desc: true } as const;
let n = 0;
const id = () => `${Date.now().toString(16)}${(++n).toString(16).padStart(6, "0")}`.padEnd(32, "0");
function agent(tenant: string, title: string): AgentRecord {
  return { id: id(), tenant, title, description: "", dsl: { components: { b: { downstream: [] } }, globals: {} } as unknown as AgentRecord["dsl"], canvas_type: "", avatar: null, create_time: 1, update_time: 1 };
}

const opened: ServerStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
beforeEach(async () => {
  await admin.get();
});
function open(s: string): PostgresServerStore {
  const store = new PostgresServerStore({ url: TEST_POSTGRES_URL, schema: s });
  opened.push(store);
  return store;
}

describe("PostgresServerStore: tables, opening, sharing", () => {
  it("creates its tables on first use beside the run state's, with the unique and list indexes", async () => {
    const s = schema();
    const store = open(s);
    await store.agents.list("t", LIST);
    await store.runs.load("nothing");
    const client = await admin.get();
    const tables = await client.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [s]);
    expect(tables.rows.map((r) => r.table_name)).toEqual(["agents", "api_keys", "cancel_flags", "checkpoints", "events", "locks", "schema_version", "server_schema_version", "session_records", "sessions", "uploads"]);
    const indexes = await client.query<{ indexname: string; indexdef: string }>("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename IN ('agents', 'session_records', 'api_keys', 'uploads') ORDER BY indexname", [s]);
    expect(indexes.rows.map((r) => r.indexname)).toEqual([
      "agents_pkey",
      "agents_tenant_create",
      "agents_tenant_title",
      "agents_tenant_update",
      "api_keys_hash",
      "api_keys_pkey",
      "session_records_agent_create",
      "session_records_agent_update",
      "session_records_pkey",
      "uploads_pkey",
      "uploads_tenant_create",
    ]);
    expect(indexes.rows.find((r) => r.indexname === "agents_tenant_title")?.indexdef).toMatch(/^CREATE UNIQUE INDEX .* \(tenant, title_key\)$/);
    // The DSL is kept as the text given (key order and empty arrays as they were).
    const made = await store.agents.create(agent("t", "Kept"));
    const row = await client.query<{ dsl: string }>(`SELECT dsl FROM "${s}".agents WHERE id = $1`, [made.id]);
    expect(row.rows[0].dsl).toBe(JSON.stringify(made.dsl));
    expect(store.location).toBe(`PostgreSQL at 127.0.0.1:5432/test (schema ${s})`);
  });

  it("migratePostgresServer creates the tables ahead of time, then finds them current", async () => {
    const s = schema();
    expect(await migratePostgresServer(TEST_POSTGRES_URL, { schema: s })).toEqual({ schema: s, from: 0, to: 2 });
    expect(await migratePostgresServer(TEST_POSTGRES_URL, { schema: s })).toEqual({ schema: s, from: 2, to: 2 });
    const client = await admin.get();
    await client.query(`UPDATE "${s}".server_schema_version SET version = 7`);
    const error = await open(s).agents.get("t", "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStoreError);
    expect((error as Error).message).toBe(`the canvasflow server tables in schema ${s} of PostgreSQL at 127.0.0.1:5432/test are at schema version 7; this canvasflow knows versions up to 2: upgrade canvasflow`);
  });

  it("openServerStore: --postgres alone, with ?schema=, with Redis; bad URLs and schema names refused before connecting", async () => {
    const s = schema();
    const plain = await openServerStore({ postgres: `${TEST_POSTGRES_URL}?schema=${s}` });
    opened.push(plain);
    expect(plain).toBeInstanceOf(PostgresServerStore);
    expect(plain.location).toBe(`PostgreSQL at 127.0.0.1:5432/test (schema ${s})`);
    await plain.ping();
    const p = uniqueTestPrefix();
    prefixes.push(p);
    const both = await openServerStore({ postgres: TEST_POSTGRES_URL, schema: s, redis: TEST_REDIS_URL, redisPrefix: p });
    opened.push(both);
    expect(both).toBeInstanceOf(PostgresWithRedisServerStore);
    expect(both.location).toBe(`PostgreSQL at 127.0.0.1:5432/test (schema ${s}); cancel signals through Redis at 127.0.0.1:6379/0`);
    await both.ping();
    await both.cancel.request("task-1");
    expect(await (await redisAdmin.get()).exists(`${p}task-1-cancel`)).toBe(1);
    await expect(openServerStore({ postgres: "mysql://x" })).rejects.toThrow('postgres: expected a postgres:// URL, got "mysql://x"');
    await expect(openServerStore({ postgres: TEST_POSTGRES_URL, schema: "Bad-Name" })).rejects.toThrow('PostgreSQL schema name must be 1 to 56 lowercase letters, digits or "_"');
    await expect(openServerStore({ postgres: TEST_POSTGRES_URL, schema: "Bad-Name", redis: TEST_REDIS_URL })).rejects.toThrow("PostgreSQL schema name");
    await expect(openServerStore({ postgres: `${TEST_POSTGRES_URL}?schema=one`, schema: "two" })).rejects.toThrow('names schema "one", but schema "two" was also given');
    await expect(openServerStore({ schema: "x" })).rejects.toThrow("schema names a PostgreSQL schema: give it with postgres");
  });

  it("two stores (two pools) creating the same titles at once: exactly one wins each", async () => {
    const s = schema();
    const [a, b] = [open(s), open(s)];
    await Promise.all([a.ping(), b.agents.list("t", LIST)]);
    const titles = Array.from({ length: 10 }, (_, i) => `Race ${i}`);
    const results = await Promise.allSettled(titles.flatMap((title) => [a.agents.create(agent("t", title)), b.agents.create(agent("t", title.toUpperCase()))]));
    for (let i = 0; i < titles.length; i++) {
      const pair = [results[2 * i], results[2 * i + 1]];
      expect(pair.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect((pair.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateTitleError);
    }
    expect((await a.agents.list("t", LIST)).total).toBe(10);
  });

  it("the first use by several stores at once creates the tables once", async () => {
    const s = schema();
    const stores = Array.from({ length: 4 }, () => open(s));
    await Promise.all(stores.map((store, i) => store.agents.create(agent("t", `First ${i}`))));
    expect((await stores[0].agents.list("t", LIST)).total).toBe(4);
  });
});

describe("PostgresServerStore: damaged rows and an unreachable server", () => {
  it("a row whose JSON column is not JSON, whose field is wrong, or whose title_key disagrees: an error naming the table and row", async () => {
    const s = schema();
    const store = open(s);
    const made = await store.agents.create(agent("t", "Row"));
    const client = await admin.get();
    await client.query(`UPDATE "${s}".agents SET dsl = '{ nope' WHERE id = $1`, [made.id]);
    await expect(store.agents.get("t", made.id)).rejects.toThrow(new RegExp(`^PostgreSQL at 127.0.0.1:5432/test: table ${s}.agents, row id "${made.id}": its dsl column is not valid JSON`));
    await client.query(`UPDATE "${s}".agents SET dsl = '[]' WHERE id = $1`, [made.id]);
    // A list skips a damaged row and names it to its tenant, without the server's location (issue 24, item 14).
    const reported: DamagedRecord[] = [];
    store.onDamaged((damaged) => reported.push(damaged));
    const fine = await store.agents.create(agent("t", "Fine"));
    const page = await store.agents.list("t", { ...LIST, page_size: 100 });
    expect(page.items.map((a) => a.id)).toEqual([fine.id]);
    expect(page.total).toBe(1);
    expect(page.damaged).toEqual([{ kind: "agent", id: made.id, tenant: "t", problem: "the stored agent is damaged: dsl must be a JSON object, got an array", detail: expect.stringContaining(`table ${s}.agents, row id "${made.id}"`) }]);
    expect(reported.map((d) => d.id)).toEqual([made.id]);
    expect((await store.agents.list("u", LIST)).damaged).toBeUndefined();
    await store.agents.delete("t", fine.id);
    await client.query(`UPDATE "${s}".agents SET dsl = '{}', title = 'Renamed by hand' WHERE id = $1`, [made.id]);
    await expect(store.agents.get("t", made.id)).rejects.toThrow(`its title_key column ("row") is not its title lower-cased ("renamed by hand"); title uniqueness depends on it`);
    const session = await store.sessions.create({ id: "s1", tenant: "t", agent_id: made.id, user_id: "u", name: "", message: [], source: "agent", create_time: 1, update_time: 1 });
    await client.query(`UPDATE "${s}".session_records SET message = '[{"role":"system","content":""}]' WHERE id = $1`, [session.id]);
    const error = await store.sessions.get("t", "s1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoredRecordError);
    expect((error as Error).message).toBe(`PostgreSQL at 127.0.0.1:5432/test: table ${s}.session_records, row id "s1": the stored session record is damaged: message[0].role must be "user" or "assistant", got "system"`);
    // A failed update leaves the row as it was.
    await expect(store.sessions.update("t", "s1", { name: "x" }, 2)).rejects.toBeInstanceOf(StoredRecordError);
    expect((await client.query(`SELECT name, update_time FROM "${s}".session_records WHERE id = 's1'`)).rows[0]).toEqual({ name: "", update_time: "1" });
  });

  it("a failed rename leaves the agent as it was", async () => {
    const s = schema();
    const store = open(s);
    const one = await store.agents.create(agent("t", "One"));
    await store.agents.create(agent("t", "Two"));
    await expect(store.agents.update("t", one.id, { title: "TWO", description: "changed" }, 5)).rejects.toBeInstanceOf(DuplicateTitleError);
    expect(await store.agents.get("t", one.id)).toMatchObject({ title: "One", description: "", update_time: 1 });
  });

  it("an unreachable PostgreSQL: one line naming it", async () => {
    const port = await closedPort();
    const store = new PostgresServerStore({ url: `postgres://postgres@127.0.0.1:${port}/test` });
    opened.push(store);
    const error = await store.agents.get("t", "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStoreError);
    expect((error as Error).message).toBe(`cannot reach PostgreSQL at 127.0.0.1:${port}/test: connect ECONNREFUSED 127.0.0.1:${port}`);
    await expect(store.ping()).rejects.toThrow(`cannot reach PostgreSQL at 127.0.0.1:${port}/test`);
  });
});
