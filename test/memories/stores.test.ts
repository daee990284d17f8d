/**
 * The memory stores, each against its real backend (a temp folder, Redis and PostgreSQL on
 * loopback, a SQLite file), through the conformance suite (store-conformance.ts); then where each
 * keeps what, and SQLite shared by several stores and processes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  FileMemoryStore,
  memoriesForRun,
  memoriesForServer,
  openMemoryStore,
  PostgresMemoryStore,
  InProcessMemoryStore,
  RedisMemoryStore,
  SqliteMemoryStore,
  TenantMemories,
  memoriesBesideSession,
  type MemoryMessage,
  type MemoryStore,
} from "../../src/memories/index.js";
import { deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { scratchDir } from "../helpers/scratch.js";
import { spawnDistChild, type DistChild } from "../helpers/dist-child.js";
import { caught } from "../helpers/caught.js";
import { DatabaseFileError } from "../../src/backends/errors.js";
import { openSqliteDatabase } from "../../src/backends/sqlite/database.js";
import { describeMemoryStore, message } from "./store-conformance.js";

const redis = sharedTestRedis();
const postgres = sharedTestPostgres();
const prefix = uniqueTestPrefix();
const schemas: string[] = [];
const opened: MemoryStore[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  const r = await redis.get().catch(() => undefined);
  if (r) await deleteKeys(r, prefix);
  await redis.close();
  const p = await postgres.get().catch(() => undefined);
  if (p) for (const schema of schemas) await dropSchema(p, schema);
  await postgres.close();
});

const lines = (messages: readonly MemoryMessage[]) => messages.map((m) => `${JSON.stringify(m)}\n`).join("");
/** The file name releases before tenant scopes gave a memory (as they computed it). */
const oldFileName = (id: string) => `${encodeURIComponent(id).replace(/^\.+$/, (dots) => dots.replace(/\./g, "%2E"))}.jsonl`;

describeMemoryStore({ name: "process", legacy: false, shared: false, place: async () => ({ open: async (o) => new InProcessMemoryStore(o) }) });

describeMemoryStore({
  name: "folder",
  legacy: true,
  shared: true,
  place: async () => {
    const { dir } = scratchDir("cf-memories-");
    return {
      open: async (o) => new FileMemoryStore({ directory: dir, ...o }),
      legacy: {
        atomic: false,
        seed: async (id, messages) => writeFileSync(path.join(dir, oldFileName(id)), lines(messages)),
        read: async (id) => {
          let text = "";
          try {
            text = readFileSync(path.join(dir, oldFileName(id)), "utf8");
          } catch {
            return [];
          }
          return text.split("\n").filter(Boolean).map((line) => JSON.parse(line) as MemoryMessage);
        },
        breakMemory: async (memory) => {
          // A folder where the tenant's memory file should be: reading or replacing it fails.
          const file = new FileMemoryStore({ directory: dir }).fileOf(memory);
          mkdirSync(file, { recursive: true });
          return async () => rmdirSync(file);
        },
      },
      checkLayout: async () => {
        // Everything is <dir>/tenants/<tenant>/<id>.jsonl: folders 0700, files 0600.
        const tenants = path.join(dir, "tenants");
        expect(statSync(tenants).mode & 0o777).toBe(0o700);
        expect(readdirSync(dir)).toEqual(["tenants"]);
        for (const tenant of readdirSync(tenants)) {
          expect(tenant).toMatch(/^(_[a-z0-9._%A-F-]*|~[0-9a-f]{64})$/);
          expect(statSync(path.join(tenants, tenant)).mode & 0o777).toBe(0o700);
          for (const file of readdirSync(path.join(tenants, tenant))) {
            expect(file).toMatch(/^(_[a-z0-9._%A-F-]*|~[0-9a-f]{64})\.jsonl$/);
            expect(statSync(path.join(tenants, tenant, file)).mode & 0o777).toBe(0o600);
          }
        }
      },
    };
  },
});

let places = 0;
describeMemoryStore({
  name: "Redis",
  legacy: true,
  shared: true,
  place: async () => {
    const client = await redis.get();
    const at = { keyPrefix: `${prefix}${++places}:tenant-memory:`, legacyKeyPrefix: `${prefix}${places}:memory:` };
    return {
      open: async (o) => new RedisMemoryStore({ url: TEST_REDIS_URL, ...at, ...o }),
      legacy: {
        atomic: true,
        seed: async (id, messages) => {
          const key = at.legacyKeyPrefix + id;
          await client.rpush(key, ...messages.map((m) => JSON.stringify(m)));
          await client.incrby(`${key}:bytes`, messages.reduce((sum, m) => sum + Buffer.byteLength(m.content), 0));
          const sources = messages.map((m) => m.source_key).filter(Boolean);
          if (sources.length > 0) await client.sadd(`${key}:sources`, ...sources);
        },
        read: async (id) => (await client.lrange(at.legacyKeyPrefix + id, 0, -1)).map((text) => JSON.parse(text) as MemoryMessage),
        breakMemory: async (memory) => {
          const key = new RedisMemoryStore({ client, ...at }).keyOf(memory);
          await client.set(key, "not a list");
          return async () => void (await client.del(key));
        },
      },
    };
  },
});

describeMemoryStore({
  name: "PostgreSQL",
  legacy: true,
  shared: true,
  place: async () => {
    const client = await postgres.get();
    const schema = uniqueTestSchema();
    schemas.push(schema);
    const s = pg.escapeIdentifier(schema);
    return {
      open: async (o) => new PostgresMemoryStore({ url: TEST_POSTGRES_URL, schema, ...o }),
      legacy: {
        atomic: true,
        seed: async (id, messages) => {
          // The tables as releases before tenant scopes made them (version 1), unless there already.
          await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
          await client.query(`CREATE TABLE IF NOT EXISTS ${s}.memory_schema_version (one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())`);
          await client.query(`INSERT INTO ${s}.memory_schema_version (one, version) VALUES (true, 1) ON CONFLICT (one) DO NOTHING`);
          await client.query(`CREATE TABLE IF NOT EXISTS ${s}.memory_messages (seq bigserial PRIMARY KEY, memory_id text NOT NULL, source_key text NOT NULL, bytes integer NOT NULL, message text NOT NULL)`);
          await client.query(`CREATE INDEX IF NOT EXISTS memory_messages_memory ON ${s}.memory_messages (memory_id, seq)`);
          await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS memory_messages_source ON ${s}.memory_messages (memory_id, source_key) WHERE source_key <> ''`);
          for (const m of messages) {
            await client.query(`INSERT INTO ${s}.memory_messages (memory_id, source_key, bytes, message) VALUES ($1, $2, $3, $4)`, [id, m.source_key, Buffer.byteLength(m.content), JSON.stringify(m)]);
          }
        },
        read: async (id) => (await client.query<{ message: string }>(`SELECT message FROM ${s}.memory_messages WHERE tenant IS NULL AND memory_id = $1 ORDER BY seq`, [id])).rows.map((row) => JSON.parse(row.message) as MemoryMessage),
        breakMemory: async (memory) => {
          // Moving a row to this tenant fails, as a crash in the middle of the move would.
          await client.query(
            `CREATE FUNCTION ${s}.refuse_move() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.tenant = ${pg.escapeLiteral(memory.tenant)} THEN RAISE EXCEPTION 'simulated crash'; END IF; RETURN NEW; END $$`,
          );
          await client.query(`CREATE TRIGGER refuse_move BEFORE UPDATE ON ${s}.memory_messages FOR EACH ROW EXECUTE FUNCTION ${s}.refuse_move()`);
          return async () => {
            await client.query(`DROP TRIGGER refuse_move ON ${s}.memory_messages`);
            await client.query(`DROP FUNCTION ${s}.refuse_move()`);
          };
        },
      },
    };
  },
});

describeMemoryStore({
  name: "SQLite",
  legacy: false,
  shared: true,
  place: async () => {
    const file = path.join(scratchDir("cf-memories-").dir, "canvasflow.db");
    return {
      open: async (o) => new SqliteMemoryStore({ file, ...o }),
      checkLayout: async () => {
        // One row per message, each with its tenant and id as given: no encoding to get wrong.
        const db = openSqliteDatabase(file);
        try {
          const rows = db.prepare("SELECT tenant, memory_id, message FROM memory_messages").all() as Array<{ tenant: string; memory_id: string; message: string }>;
          for (const row of rows) expect(JSON.parse(row.message).content).toBe(JSON.stringify([row.tenant, row.memory_id]));
        } finally {
          db.close();
        }
      },
    };
  },
});

describe("SQLite memories shared by stores and processes", () => {
  const memory = { tenant: "acme", id: "notes" };
  /** A child's exit code once its work is done (its open stdin would keep it running). */
  const exitCode = async (child: DistChild) => {
    child.child.stdin!.end();
    return (await child.exited).code;
  };

  it("two stores and another process on one file see each other's messages, in the order written", async () => {
    const file = path.join(scratchDir("cf-memories-").dir, "shared.db");
    const [a, b] = [new SqliteMemoryStore({ file }), new SqliteMemoryStore({ file })];
    opened.push(a, b);
    await a.add(memory, message(1));
    await b.add(memory, message(2));
    const child = spawnDistChild(
      `const store = new lib.SqliteMemoryStore({ file: ${JSON.stringify(file)} });` +
        `const seen = (await store.messages(${JSON.stringify(memory)})).map((m) => m.content);` +
        `await store.add(${JSON.stringify(memory)}, ${JSON.stringify(message(3))});` +
        `console.log(JSON.stringify(seen)); await store.close();`,
    );
    expect(JSON.parse(await child.line())).toEqual([message(1).content, message(2).content]);
    expect(await exitCode(child)).toBe(0);
    for (const store of [a, b]) expect((await store.messages(memory)).map((m) => m.content)).toEqual([1, 2, 3].map((n) => message(n).content));
  });

  it("the same source key added from two stores and from three processes at once is kept once", async () => {
    const file = path.join(scratchDir("cf-memories-").dir, "racing.db");
    const [a, b] = [new SqliteMemoryStore({ file }), new SqliteMemoryStore({ file })];
    opened.push(a, b);
    expect((await Promise.all([a.add(memory, message(0)), b.add(memory, message(0))])).sort()).toEqual([false, true]);

    // Each process adds the same 200 source keys once told to go, one from each end, so they
    // meet in the middle: one add of each key wins.
    const keys = Array.from({ length: 200 }, (_, n) => n + 1);
    const children = Array.from({ length: 3 }, (_, i) =>
      spawnDistChild(
        `const store = new lib.SqliteMemoryStore({ file: ${JSON.stringify(file)} }); console.log("ready"); await lines.next();` +
          `let added = 0; for (const m of ${JSON.stringify((i % 2 === 0 ? keys : [...keys].reverse()).map((n) => message(n)))}) if (await store.add(${JSON.stringify(memory)}, m)) added++;` +
          `console.log(added); await store.close();`,
      ),
    );
    for (const child of children) expect(await child.line()).toBe("ready");
    for (const child of children) child.send("go");
    const added = await Promise.all(children.map(async (child) => Number(await child.line())));
    for (const child of children) expect(await exitCode(child)).toBe(0);
    expect(added.reduce((sum, n) => sum + n, 0)).toBe(keys.length);
    const sources = (await a.messages(memory)).map((m) => m.source_key);
    expect(sources.sort()).toEqual([0, ...keys].map((n) => message(n).source_key).sort());
  }, 60_000);

  it("a file that is not a SQLite database is refused, naming the file, and left as it was", () => {
    const file = path.join(scratchDir("cf-memories-").dir, "notes.txt");
    writeFileSync(file, "my notes, not a database\n".repeat(50));
    const error = caught(() => new SqliteMemoryStore({ file }));
    expect(error).toBeInstanceOf(DatabaseFileError);
    expect(error.message).toContain(`${file} is not a usable SQLite database`);
    expect((error as DatabaseFileError).file).toBe(file);
    expect(readFileSync(file, "utf8")).toBe("my notes, not a database\n".repeat(50));
    expect(() => openMemoryStore(`sqlite:${file}`)).toThrow(DatabaseFileError);
    expect(() => new SqliteMemoryStore({ file: "" })).toThrow("a SQLite memory store needs a file");
    expect(() => openMemoryStore("sqlite:#chat")).toThrow('"sqlite:#chat" names no database file');
  });

  it("a closed store says so", async () => {
    const store = new SqliteMemoryStore({ file: path.join(scratchDir("cf-memories-").dir, "closed.db") });
    await store.close();
    await store.close();
    await expect(store.messages(memory)).rejects.toThrow(/the SQLite memory store on .*closed\.db is closed/);
  });
});

describe("where memories live", () => {
  it("a folder keeps one JSON-lines file per tenant's memory, names encoded", async () => {
    const { dir } = scratchDir("cf-memories-");
    const store = new FileMemoryStore({ directory: dir });
    await store.add({ tenant: "Acme/../x", id: "team/a b" }, message(1));
    await store.add({ tenant: "acme", id: ".." }, message(2));
    const lines = readFileSync(path.join(dir, "tenants", "_%41cme%2F..%2Fx", "_team%2Fa%20b.jsonl"), "utf8").trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).content)).toEqual([message(1).content]);
    expect(JSON.parse(readFileSync(path.join(dir, "tenants", "_acme", "_...jsonl"), "utf8")).content).toBe(message(2).content);
    // A name too long for a file system is given by its digest.
    const long = "ü".repeat(128);
    expect(path.basename(store.fileOf({ tenant: "t", id: long }))).toMatch(/^~[0-9a-f]{64}\.jsonl$/);
  });

  it("Redis keys hold the tenant and the id percent-encoded; the legacy prefix may not overlap the tenants' one", async () => {
    const store = new RedisMemoryStore({ url: TEST_REDIS_URL, keyPrefix: "p:tm:", legacyKeyPrefix: "p:m:" });
    opened.push(store);
    expect(store.keyOf({ tenant: "a:b", id: "c" })).toBe("p:tm:a%3Ab:c");
    expect(store.keyOf({ tenant: "a", id: "b:c" })).toBe("p:tm:a:b%3Ac");
    expect(store.keyOf({ tenant: "{x}*", id: "ü" })).toBe("p:tm:%7Bx%7D%2A:%C3%BC");
    expect(() => new RedisMemoryStore({ url: TEST_REDIS_URL, keyPrefix: "p:memory:tenant:", legacyKeyPrefix: "p:memory:" })).toThrow('keyPrefix "p:memory:tenant:" and legacyKeyPrefix "p:memory:" overlap');
  });

  it("a run's memories: the configured location, else beside its session, else in the process", async () => {
    const { dir } = scratchDir("cf-memories-");
    const beside = memoriesForRun(undefined, path.join(dir, "session.json"));
    expect(beside.location).toBe(path.join(dir, "canvasflow-memories"));
    expect(memoriesForRun({ location: path.join(dir, "elsewhere") }, path.join(dir, "session.json")).location).toBe(path.join(dir, "elsewhere"));
    expect(memoriesForRun(undefined, undefined)).toBeInstanceOf(InProcessMemoryStore);
    const onRedis = memoriesForRun(undefined, `${TEST_REDIS_URL}#my-session`);
    opened.push(onRedis);
    expect(onRedis.location).toBe("Redis at 127.0.0.1:6379/0 (canvasflow:tenant-memory:*)");
    const schema = uniqueTestSchema();
    const onPostgres = memoriesForRun(undefined, `${TEST_POSTGRES_URL}?schema=${schema}#my-session`);
    opened.push(onPostgres);
    expect(onPostgres.location).toContain(`(${schema}.memory_messages)`);
    // A SQLite session's memories are in its database file (the key ignored), not in a folder beside it.
    const onSqlite = memoriesForRun(undefined, `sqlite:${path.join(dir, "runs.db")}#chat`);
    opened.push(onSqlite);
    expect(onSqlite).toBeInstanceOf(SqliteMemoryStore);
    expect(onSqlite.location).toBe(`sqlite:${path.join(dir, "runs.db")}`);
    expect(existsSync(path.join(dir, "canvasflow-memories"))).toBe(false);
    expect(memoriesBesideSession(undefined, "sqlite:./runs.db#chat")).toBe(false);
    expect(memoriesBesideSession(undefined, path.join(dir, "session.json"))).toBe(true);
    // A relative path is the working folder's, shown absolute.
    const relative = openMemoryStore(`sqlite:./${path.relative(process.cwd(), path.join(dir, "relative.db"))}#chat`);
    opened.push(relative);
    expect(relative.location).toBe(`sqlite:${path.join(dir, "relative.db")}`);
    expect(() => openMemoryStore("ftp://host/x")).toThrow('unsupported memories location "ftp://host/x"');
    expect(() => openMemoryStore("")).toThrow("memories need a folder");
  });

  it("a server's and a worker's memories: in the data folder's database, under the Redis prefix, in the PostgreSQL schema", () => {
    const { dir } = scratchDir("cf-memories-");
    for (const [place, fallback, file] of [[{ data: dir }, ".canvasflow", path.join(dir, "canvasflow.db")], [{}, path.join(dir, "default"), path.join(dir, "default", "canvasflow.db")]] as const) {
      const inDatabase = memoriesForServer(undefined, place, fallback);
      opened.push(inDatabase);
      expect(inDatabase.location).toBe(`sqlite:${file}`);
    }
    const onRedis = memoriesForServer(undefined, { redis: TEST_REDIS_URL, redisPrefix: "team1:" }, ".canvasflow");
    opened.push(onRedis);
    expect(onRedis.location).toBe("Redis at 127.0.0.1:6379/0 (team1:tenant-memory:*)");
    const schema = uniqueTestSchema();
    const onPostgres = memoriesForServer({ maxBytes: 10 }, { postgres: TEST_POSTGRES_URL, schema }, ".canvasflow");
    opened.push(onPostgres);
    expect(onPostgres.location).toContain(`(${schema}.memory_messages)`);
    expect(memoriesForServer({ location: path.join(dir, "x") }, { redis: TEST_REDIS_URL }, ".canvasflow").location).toBe(path.join(dir, "x"));
    for (const sqlite of [path.join(dir, "server.db"), `sqlite:${path.join(dir, "server.db")}`]) {
      const onSqlite = memoriesForServer(undefined, { sqlite }, ".canvasflow");
      opened.push(onSqlite);
      expect(onSqlite.location).toBe(`sqlite:${path.join(dir, "server.db")}`);
    }
  });

  it("one tenant's memories name their tenant, and reach only its memories", async () => {
    const store = new InProcessMemoryStore();
    const acme = new TenantMemories(store, "acme");
    await acme.add("notes", message(1));
    expect(acme.location).toBe(`this process's memory, tenant "acme"`);
    expect(await new TenantMemories(store, "globex").messages("notes")).toEqual([]);
    expect((await store.messages({ tenant: "acme", id: "notes" })).length).toBe(1);
    expect(() => new TenantMemories(store, "")).toThrow("memory tenant must be a non-empty string");
  });

  it("an unreachable Redis fails with a message naming it", async () => {
    const store = new RedisMemoryStore({ url: "redis://127.0.0.1:1/0", keyPrefix: prefix });
    opened.push(store);
    await expect(store.messages({ tenant: "t", id: "m" })).rejects.toThrow(/memory "m" of tenant "t": cannot reach Redis at 127\.0\.0\.1:1\/0/);
  });
});
