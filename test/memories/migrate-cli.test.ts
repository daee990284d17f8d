/**
 * Memories of releases before tenant scopes, seeded in the old layout beside a real server store
 * (Redis, PostgreSQL), moved by the commands that move them: `canvasflow db migrate`, `canvasflow
 * serve` when it starts, and a CLI run on a session file (its own folder: the tenant "default").
 * A data folder's are moved by `canvasflow db import` (test/cli/db-import.test.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openServerStore } from "../../src/backends/open-server.js";
import { PostgresMemoryStore } from "../../src/backends/postgres/memories.js";
import { RedisMemoryStore } from "../../src/backends/redis/memories.js";
import type { MemoryMessage, MemoryStore, ServerStore } from "../../src/backends/contracts.js";
import { cli } from "../helpers/cli.js";
import { canvasDsl, messageText, node } from "../helpers/dsl.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";

const redis = sharedTestRedis();
const postgres = sharedTestPostgres();
const prefix = uniqueTestPrefix();
const schema = uniqueTestSchema();

afterAll(async () => {
  const r = await redis.get().catch(() => undefined);
  if (r) await deleteKeys(r, prefix);
  await redis.close();
  const p = await postgres.get().catch(() => undefined);
  if (p) await dropSchema(p, schema);
  await postgres.close();
});

let clock = Date.UTC(2026, 5, 1);
function old(id: string, session: string, content: string): MemoryMessage {
  clock += 1000;
  return { message_id: `${clock.toString().padStart(15, "0")}-000001-abcdef`, memory_id: id, message_type: "raw", user_id: "", agent_id: "", session_id: session, content, valid_at: new Date(clock).toISOString(), source_key: `${session}:Message:M` };
}

const lines = (messages: readonly MemoryMessage[]) => messages.map((m) => `${JSON.stringify(m)}\n`).join("");

/** Two tenants' sessions in the server store; their ids. */
async function sessions(store: ServerStore): Promise<{ acme: string; globex: string }> {
  const ids = { acme: "a".repeat(31) + "1", globex: "b".repeat(31) + "2" };
  for (const [tenant, id] of Object.entries(ids)) {
    const agent = await store.agents.create({ id: id.replace(/^./, "c"), tenant, title: `agent of ${tenant}`, description: "", dsl: canvasDsl({ begin: node("Begin", {}) }), canvas_type: "", avatar: null, create_time: 1, update_time: 1 });
    await store.sessions.create({ id, tenant, agent_id: agent.id, user_id: tenant, name: "", message: [], source: "agent", create_time: 1, update_time: 1 });
  }
  return ids;
}

/** The legacy memory "support-notes": one message of each tenant's session and one of a session that is gone. */
function legacyNotes(ids: { acme: string; globex: string }): MemoryMessage[] {
  return [old("support-notes", ids.acme, "acme: card 4111"), old("support-notes", ids.globex, "globex: order 77"), old("support-notes", "f".repeat(32), "a deleted session's note")];
}

async function expectMoved(memories: MemoryStore, notes: readonly MemoryMessage[]): Promise<void> {
  expect(await memories.messages({ tenant: "acme", id: "support-notes" })).toEqual([notes[0]]);
  expect(await memories.messages({ tenant: "globex", id: "support-notes" })).toEqual([notes[1]]);
}

describe("canvasflow db migrate moves memories to their tenants", () => {
  it("Redis: under the server's prefix, legacy keys <prefix>memory:<id> move to <prefix>tenant-memory:", async () => {
    const client = await redis.get();
    const serverPrefix = `${prefix}server:`;
    const store = await openServerStore({ redis: TEST_REDIS_URL, redisPrefix: serverPrefix });
    const ids = await sessions(store);
    await store.close();
    const notes = legacyNotes(ids);
    await client.rpush(`${serverPrefix}memory:support-notes`, ...notes.map((m) => JSON.stringify(m)));
    const r = await cli(["db", "migrate", "--redis", TEST_REDIS_URL, "--redis-prefix", serverPrefix]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain('2 messages moved to their tenants ("acme": 1, "globex": 1)');
    const memories = new RedisMemoryStore({ url: TEST_REDIS_URL, keyPrefix: `${serverPrefix}tenant-memory:`, legacyKeyPrefix: `${serverPrefix}memory:` });
    try {
      await expectMoved(memories, notes);
      expect((await client.lrange(`${serverPrefix}memory:support-notes`, 0, -1)).map((text) => JSON.parse(text).content)).toEqual(["a deleted session's note"]);
    } finally {
      await memories.close();
    }
  });

  it("PostgreSQL: the memory tables go to version 2 with the others, then the rows move", async () => {
    const admin = await postgres.get();
    const s = pg.escapeIdentifier(schema);
    // The schema as an earlier release left it: memory tables at version 1.
    await cli(["db", "migrate", "--postgres", TEST_POSTGRES_URL, "--schema", schema]);
    await admin.query(`DROP TABLE ${s}.memory_messages, ${s}.memory_schema_version`);
    await admin.query(`CREATE TABLE ${s}.memory_schema_version (one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())`);
    await admin.query(`INSERT INTO ${s}.memory_schema_version (version) VALUES (1)`);
    await admin.query(`CREATE TABLE ${s}.memory_messages (seq bigserial PRIMARY KEY, memory_id text NOT NULL, source_key text NOT NULL, bytes integer NOT NULL, message text NOT NULL)`);
    await admin.query(`CREATE UNIQUE INDEX memory_messages_source ON ${s}.memory_messages (memory_id, source_key) WHERE source_key <> ''`);
    const store = await openServerStore({ postgres: TEST_POSTGRES_URL, schema });
    const ids = await sessions(store);
    await store.close();
    const notes = legacyNotes(ids);
    for (const m of notes) await admin.query(`INSERT INTO ${s}.memory_messages (memory_id, source_key, bytes, message) VALUES ($1, $2, $3, $4)`, [m.memory_id, m.source_key, m.content.length, JSON.stringify(m)]);

    const r = await cli(["db", "migrate", "--postgres", TEST_POSTGRES_URL, "--schema", schema]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`memory tables in schema ${schema} at postgres://postgres@127.0.0.1:5432/test: upgraded from version 1 to 2\n`);
    expect(r.stdout).toContain('2 messages moved to their tenants ("acme": 1, "globex": 1)');
    const memories = new PostgresMemoryStore({ url: TEST_POSTGRES_URL, schema });
    try {
      await expectMoved(memories, notes);
    } finally {
      await memories.close();
    }
    const left = await admin.query(`SELECT tenant, message::jsonb->>'content' AS content FROM ${s}.memory_messages WHERE tenant IS NULL`);
    expect(left.rows).toEqual([{ tenant: null, content: "a deleted session's note" }]);
  });

  it("usage errors (exit 2): no store, a bad --unowned-to", async () => {
    const none = await cli(["db", "migrate", "--memories", "/tmp/x"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("db migrate needs --postgres URL (postgres://user@host:port/database), --redis URL, --sqlite FILE or --data DIR");
    const bad = await cli(["db", "migrate", "--data", scratchDir("cf-migrate-").dir, "--unowned-to", "a\u0001b"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--unowned-to "a\\u0001b" contains a control character');
  });
});

/** Begin → Retrieval from "support-notes" → Message showing what was found. */
const reader = () =>
  canvasDsl({
    begin: node("Begin", {}, ["Retrieval:R"]),
    "Retrieval:R": node("Retrieval", { query: "sys.query", retrieval_from: "memory", memory_ids: ["support-notes"], similarity_threshold: 0 }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{Retrieval:R@formalized_content}"] }),
  });

describe("the first use moves them", () => {
  it("a CLI run on a session file: the folder beside it is its own, so what is there becomes the tenant \"default\"'s", async () => {
    const scratch = scratchDir("cf-migrate-run-");
    const notes = [old("support-notes", "some-cli-task", "my favourite colour is teal")];
    mkdirSync(path.join(scratch.dir, "canvasflow-memories"));
    writeFileSync(path.join(scratch.dir, "canvasflow-memories", "support-notes.jsonl"), lines(notes));
    const file = scratch.write("reader.json", reader());
    const r = await cli(["run", file, "--session", path.join(scratch.dir, "s.json"), "-q", "favourite colour", "--events", "ndjson"]);
    expect(r.code, r.stderr).toBe(0);
    expect(messageText(r.events)).toBe("my favourite colour is teal");
    expect(r.stderr).toContain('1 message moved to their tenants ("default": 1)');
    const again = await cli(["run", file, "--session", path.join(scratch.dir, "s.json"), "-q", "favourite colour", "--events", "ndjson"]);
    expect(again.stderr).not.toContain("moved");
  }, 60_000);
});
