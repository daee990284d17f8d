/**
 * The PostgreSQL store against a real PostgreSQL on 127.0.0.1:5432 (database test): the
 * conformance suite, then the tables, checkpoints, the event log's cap, leases (with a real second
 * process), corrupt rows, expiry, timeouts and an unreachable server. Everything lives in schemas
 * of this run's own, dropped at the end.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { hostname } from "node:os";
import { resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { migratePostgres, postgresTables } from "../../src/backends/postgres/session-schema.js";
import { openSnapshotStore } from "../../src/backends/open-sessions.js";
import { PostgresSnapshotStore } from "../../src/backends/postgres/session-store.js";
import { SessionLockedError, SessionLockLostError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError } from "../../src/backends/errors.js";
import type { CheckpointRecord } from "../../src/backends/contracts.js";
import { sessionStatements } from "../../src/backends/postgres/session-statements.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { describeSnapshotStore, tinySnapshot } from "./conformance.js";

const schema = uniqueTestSchema();
const extraSchemas: string[] = [];
const postgres = sharedTestPostgres();
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
let admin: pg.Client;

beforeEach(async () => {
  admin = await postgres.get();
});

afterAll(async () => {
  if (admin) for (const name of [schema, ...extraSchemas]) await dropSchema(admin, name);
  await postgres.close();
});

/** Another schema for a test that needs its own tables (dropped at the end). */
function otherSchema(): string {
  const name = uniqueTestSchema();
  extraSchemas.push(name);
  return name;
}

describeSnapshotStore("PostgresSnapshotStore", {
  open: () => new PostgresSnapshotStore({ url: TEST_POSTGRES_URL, schema }),
  shared: true,
  expires: true,
  checkpoints: true,
  badKeys: ["€".repeat(700)],
  async corrupt(key, kind) {
    await admin.query(`INSERT INTO ${schema}.sessions (key, snapshot, version) VALUES ($1, $2, 1)`, [key, kind === "invalid-json" ? '{"components": ' : "[1, 2]"]);
  },
});

const record = (seq: number, ids: string[] = []): CheckpointRecord => ({
  seq,
  delta: JSON.stringify({ step: seq }),
  events: ids.map((id) => ({ id, json: JSON.stringify({ event: "node_finished", id }) })),
});

describe("PostgresSnapshotStore", () => {
  const stores: PostgresSnapshotStore[] = [];
  let counter = 0;
  const freshKey = () => `pg-${Date.now().toString(36)}-${++counter}`;
  function store(options: ConstructorParameters<typeof PostgresSnapshotStore>[0] = {}): PostgresSnapshotStore {
    const created = new PostgresSnapshotStore({ url: TEST_POSTGRES_URL, schema, ...options });
    stores.push(created);
    return created;
  }
  afterAll(async () => {
    for (const s of stores) await s.close();
  });
  async function rows(sql: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    return (await admin.query(sql, values)).rows;
  }

  describe("tables", () => {
    it("creates its tables on first use, once, even when many stores start together", async () => {
      const fresh = otherSchema();
      const many = Array.from({ length: 8 }, () => store({ schema: fresh }));
      expect(await Promise.all(many.map((s) => s.load("nothing")))).toEqual(Array(8).fill(undefined));
      const tables = await rows("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [fresh]);
      expect(tables.map((t) => t.table_name)).toEqual(["cancel_flags", "checkpoints", "events", "locks", "schema_version", "sessions"]);
      expect(await rows(`SELECT version FROM ${fresh}.schema_version`)).toEqual([{ version: 1 }]);
      const keys = await rows(
        `SELECT tc.table_name, string_agg(kcu.column_name, ',' ORDER BY kcu.ordinal_position) AS columns
         FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage kcu USING (constraint_schema, constraint_name)
         WHERE tc.table_schema = $1 AND tc.constraint_type = 'PRIMARY KEY' GROUP BY tc.table_name ORDER BY tc.table_name`,
        [fresh],
      );
      expect(keys).toEqual([
        { table_name: "cancel_flags", columns: "task_id" },
        { table_name: "checkpoints", columns: "key,seq" },
        { table_name: "events", columns: "key,run,n" },
        { table_name: "locks", columns: "key" },
        { table_name: "schema_version", columns: "one" },
        { table_name: "sessions", columns: "key" },
      ]);
    });

    it("migratePostgres creates the tables ahead of time and can run again; a URL, a pool or a client", async () => {
      const fresh = otherSchema();
      expect(await migratePostgres(TEST_POSTGRES_URL, { schema: fresh })).toEqual({ schema: fresh, from: 0, to: 1 });
      const pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL });
      try {
        expect(await migratePostgres(pool, { schema: fresh })).toEqual({ schema: fresh, from: 1, to: 1 });
      } finally {
        await pool.end();
      }
      expect(await migratePostgres(admin, { schema: fresh })).toEqual({ schema: fresh, from: 1, to: 1 });
      expect(await rows("SELECT 1 FROM pg_namespace WHERE nspname = $1", [fresh])).toHaveLength(1);
      await expect(migratePostgres(TEST_POSTGRES_URL, { schema: "Bad-Name" })).rejects.toThrow(
        'PostgreSQL schema name must be 1 to 56 lowercase letters, digits or "_", starting with a letter or "_"; got "Bad-Name"',
      );
      await expect(migratePostgres("postgres://postgres@127.0.0.1:1/test", { schema: fresh, connectionTimeoutMillis: 2_000 })).rejects.toThrow(
        "cannot reach PostgreSQL at 127.0.0.1:1/test: connect ECONNREFUSED 127.0.0.1:1",
      );
    });

    it("refuses tables of a newer schema version than it knows", async () => {
      const fresh = otherSchema();
      await migratePostgres(admin, { schema: fresh });
      await admin.query(`UPDATE ${fresh}.schema_version SET version = 99`);
      const message = `the canvasflow tables in schema ${fresh} of PostgreSQL at 127.0.0.1:5432/test are at schema version 99; this canvasflow knows versions up to 1: upgrade canvasflow`;
      await expect(store({ schema: fresh }).load("x")).rejects.toThrow(message);
      await expect(migratePostgres(admin, { schema: fresh })).rejects.toThrow(message);
    });

    it("finds every row of an append by an index: no sequential scan, whatever the table sizes", async () => {
      const s = store();
      const key = freshKey();
      const lock = await s.lock(key);
      await s.save(key, tinySnapshot("base"), { lock });
      await s.append(key, record(1, ["1-1"]), { lock });
      const token = (await rows(`SELECT token FROM ${schema}.locks WHERE key = $1`, [key]))[0].token;
      await admin.query("BEGIN");
      try {
        // Make the planner pick a table scan wherever one would do.
        await admin.query("SET LOCAL enable_seqscan = off");
        const plan = await rows(`EXPLAIN (FORMAT JSON) ${sessionStatements(postgresTables(schema)).append}`, [key, token, 2, "{}", ["1"], ["2"], ["{}"], 10]);
        const text = JSON.stringify(plan);
        expect(text).toContain("Index Scan");
        expect(text).not.toContain("Seq Scan");
      } finally {
        await admin.query("ROLLBACK");
      }
      await lock.release();
    });
  });

  describe("checkpoints", () => {
    it("keeps a session as rows: the base text, its version and last seq; a checkpoint per row; events by (run, n)", async () => {
      const s = store();
      const key = freshKey();
      const lock = await s.lock(key);
      const v0 = await s.save(key, tinySnapshot("base"), { lock });
      await s.append(key, record(1, ["3-1", "3-2"]), { lock });
      const v2 = await s.append(key, record(2), { lock });
      expect(Number(v2)).toBeGreaterThan(Number(v0));
      expect(await rows(`SELECT snapshot, version::text, last_seq, event_count, expires_at FROM ${schema}.sessions WHERE key = $1`, [key])).toEqual([
        { snapshot: JSON.stringify(tinySnapshot("base")), version: v2, last_seq: 2, event_count: 2, expires_at: null },
      ]);
      expect(await rows(`SELECT seq, delta FROM ${schema}.checkpoints WHERE key = $1 ORDER BY seq`, [key])).toEqual([
        { seq: 1, delta: record(1).delta },
        { seq: 2, delta: record(2).delta },
      ]);
      expect(await rows(`SELECT run::int, n::int, event FROM ${schema}.events WHERE key = $1 ORDER BY run, n`, [key])).toEqual([
        { run: 3, n: 1, event: record(1, ["3-1"]).events[0].json },
        { run: 3, n: 2, event: record(1, ["3-1", "3-2"]).events[1].json },
      ]);
      await s.save(key, tinySnapshot("compacted"), { lock });
      expect(await rows(`SELECT seq FROM ${schema}.checkpoints WHERE key = $1`, [key])).toEqual([]);
      expect(await rows(`SELECT last_seq, event_count FROM ${schema}.sessions WHERE key = $1`, [key])).toEqual([{ last_seq: 0, event_count: 2 }]);
      await lock.release();
    });

    it("writes a checkpoint and its events together: when the events cannot be stored, neither is the delta", async () => {
      const s = store();
      const key = freshKey();
      const lock = await s.lock(key);
      await s.save(key, tinySnapshot("base"), { lock });
      const v1 = await s.append(key, record(1, ["1-1"]), { lock });
      await s.save(key, tinySnapshot("next turn"), { lock });
      const v2 = (await s.load(key))!.version;
      // Event 1-1 is in the log already (the log outlives the base): the append refuses it.
      await expect(s.append(key, record(1, ["1-1"]), { lock })).rejects.toThrow(
        `session "${key}": checkpoint 1's first event 1-1 does not come after the last one logged (1-1); another run wrote this session; nothing was written`,
      );
      expect(await s.load(key)).toEqual({ snapshot: tinySnapshot("next turn"), version: v2, deltas: [] });
      expect(v2).not.toBe(v1);
      expect(await rows(`SELECT seq FROM ${schema}.checkpoints WHERE key = $1`, [key])).toEqual([]);
      await s.append(key, record(1, ["2-1"]), { lock });
      await lock.release();
    });

    it("keeps the newest maxEvents events, dropping the oldest as checkpoints come", async () => {
      const s = store({ maxEvents: 5 });
      const key = freshKey();
      const lock = await s.lock(key);
      await s.save(key, tinySnapshot("base"), { lock });
      await s.append(key, record(1, ["1-1", "1-2", "1-3"]), { lock });
      await s.append(key, record(2, ["1-4", "1-5"]), { lock });
      expect((await s.events(key)).map((e) => e.id)).toEqual(["1-1", "1-2", "1-3", "1-4", "1-5"]);
      await s.append(key, record(3, ["1-6", "1-7"]), { lock });
      expect((await s.events(key)).map((e) => e.id)).toEqual(["1-3", "1-4", "1-5", "1-6", "1-7"]);
      await s.append(key, record(4, ["2-1", "2-2", "2-3", "2-4", "2-5", "2-6", "2-7"]), { lock });
      expect((await s.events(key)).map((e) => e.id)).toEqual(["2-3", "2-4", "2-5", "2-6", "2-7"]);
      expect(await rows(`SELECT event_count FROM ${schema}.sessions WHERE key = $1`, [key])).toEqual([{ event_count: 5 }]);
      expect(await rows(`SELECT count(*)::int AS n FROM ${schema}.events WHERE key = $1`, [key])).toEqual([{ n: 5 }]);
      await lock.release();
      expect(() => store({ maxEvents: 0 })).toThrow("maxEvents must be a whole number from 1, got 0");
    });

    it("measures 1000 appends with one event each", async () => {
      const s = store();
      const key = freshKey();
      const lock = await s.lock(key);
      await s.save(key, tinySnapshot("base"), { lock });
      const started = performance.now();
      for (let seq = 1; seq <= 1000; seq++) await s.append(key, record(seq, [`1-${seq}`]), { lock });
      const appendMs = performance.now() - started;
      const loadStarted = performance.now();
      expect((await s.load(key))?.deltas).toHaveLength(1000);
      const loadMs = performance.now() - loadStarted;
      console.info(`PostgresSnapshotStore: 1000 appends in ${appendMs.toFixed(0)} ms (${(appendMs / 1000).toFixed(2)} ms each); load of 1000 checkpoints ${loadMs.toFixed(1)} ms`);
      await lock.release();
    });
  });

  describe("corrupt rows", () => {
    it("names the table, the key and the seq of a delta that is not JSON, and of a missing checkpoint; changes nothing", async () => {
      const s = store();
      const key = freshKey();
      const lock = await s.lock(key);
      await s.save(key, tinySnapshot("base"), { lock });
      await s.append(key, record(1), { lock });
      await s.append(key, record(2), { lock });
      await admin.query(`UPDATE ${schema}.checkpoints SET delta = '{"step": 2' WHERE key = $1 AND seq = 2`, [key]);
      const error = await s.load(key).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(SnapshotCorruptError);
      expect((error as Error).message).toMatch(
        new RegExp(`^session "${key}": checkpoint 2 in table ${schema}\\.checkpoints at 127\\.0\\.0\\.1:5432/test is not valid JSON \\(.+\\); nothing was changed$`),
      );
      await admin.query(`DELETE FROM ${schema}.checkpoints WHERE key = $1 AND seq = 1`, [key]);
      await expect(s.load(key)).rejects.toThrow(
        `session "${key}": table ${schema}.checkpoints at 127.0.0.1:5432/test is corrupt: checkpoint 1 is missing (the session's last checkpoint is 2); nothing was changed`,
      );
      expect(await rows(`SELECT seq FROM ${schema}.checkpoints WHERE key = $1`, [key])).toEqual([{ seq: 2 }]);
      await lock.release();
    });

    it("names the event of a log row that is not a JSON object", async () => {
      const s = store();
      const key = freshKey();
      const lock = await s.lock(key);
      await s.save(key, tinySnapshot("base"), { lock });
      await s.append(key, record(1, ["1-1", "1-2"]), { lock });
      await admin.query(`UPDATE ${schema}.events SET event = 'garbage' WHERE key = $1 AND n = 2`, [key]);
      await expect(s.events(key)).rejects.toThrow(new RegExp(`^session "${key}": event 1-2 in table ${schema}\\.events at 127\\.0\\.0\\.1:5432/test is not valid JSON`));
      await admin.query(`UPDATE ${schema}.events SET event = '[1]' WHERE key = $1 AND n = 2`, [key]);
      await expect(s.events(key)).rejects.toBeInstanceOf(SnapshotCorruptError);
      expect((await s.events(key, { limit: 1 })).map((e) => e.id)).toEqual(["1-1"]);
      await lock.release();
    });
  });

  describe("leases", () => {
    it("keeps a lease as a row its holder renews; a refusal names the holder, the time left and the SQL that clears it", async () => {
      const s = store({ lockLeaseMs: 300 });
      const key = freshKey();
      const lock = await s.lock(key);
      expect(lock.location).toBe(`row "${key}" of ${schema}.locks at 127.0.0.1:5432/test`);
      const [row] = await rows(`SELECT token, pid, host, expires_at FROM ${schema}.locks WHERE key = $1`, [key]);
      expect(row).toMatchObject({ token: expect.stringMatching(/^[0-9a-f]{16}$/), pid: process.pid, host: hostname() });
      await sleep(800); // more than two leases: renewed meanwhile
      const [later] = await rows(`SELECT token, expires_at > now() AS live FROM ${schema}.locks WHERE key = $1`, [key]);
      expect(later).toEqual({ token: row.token, live: true });

      const refused = await store().lock(key).then(() => undefined, (e: unknown) => e);
      expect(refused).toBeInstanceOf(SessionLockedError);
      expect((refused as Error).message).toMatch(
        new RegExp(
          `^session "${key}" \\(${schema}\\.sessions at 127\\.0\\.0\\.1:5432/test\\) is locked by another run \\(process ${process.pid} on ${hostname()}, since \\d{4}-[^)]+\\): ` +
            `row "${key}" of ${schema}\\.locks at 127\\.0\\.0\\.1:5432/test\\. It expires in 1 s unless its holder renews it\\. ` +
            `If no canvasflow run is using this session, clear it with the SQL: DELETE FROM ${schema}\\.locks WHERE key = '${key}';$`,
        ),
      );
      await lock.release();
      expect(await rows(`SELECT 1 FROM ${schema}.locks WHERE key = $1`, [key])).toEqual([]);
    });

    it("takes over a lease that ran out, and one whose holder is a dead process on this host; not a live one elsewhere", async () => {
      const key = freshKey();
      await admin.query(`INSERT INTO ${schema}.locks (key, token, pid, host, acquired_at, expires_at) VALUES ($1, 'cafe', 4000000, 'elsewhere', '2023-11-14T22:13:20Z', now() + interval '1 minute')`, [key]);
      await expect(store().lock(key)).rejects.toThrow(/is locked by another run \(process 4000000 on elsewhere, another machine, since 2023-11-14T22:13:20.000Z\): .* It expires in (59|60) s unless/);
      await admin.query(`UPDATE ${schema}.locks SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
      const taken = await store().lock(key);
      expect(await rows(`SELECT pid, host FROM ${schema}.locks WHERE key = $1`, [key])).toEqual([{ pid: process.pid, host: hostname() }]);
      await taken.release();

      const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
      await admin.query(`INSERT INTO ${schema}.locks (key, token, pid, host, expires_at) VALUES ($1, 'beef', $2, $3, now() + interval '1 hour')`, [key, dead, hostname()]);
      const fromTheDead = await store().lock(key);
      expect(await rows(`SELECT pid FROM ${schema}.locks WHERE key = $1`, [key])).toEqual([{ pid: process.pid }]);
      await fromTheDead.release();

      // This process's pid with a token it never held: left by an earlier process with the same pid.
      await admin.query(`INSERT INTO ${schema}.locks (key, token, pid, host, expires_at) VALUES ($1, 'f00d', $2, $3, now() + interval '1 hour')`, [key, process.pid, hostname()]);
      const again = await store().lock(key);
      await again.release();
    });

    it("refuses writes under a lease that ran out or was taken over (SessionLockLostError), writing nothing", async () => {
      const s = store();
      const key = freshKey();
      const lock = await s.lock(key);
      const v1 = await s.save(key, tinySnapshot("base"), { lock });
      await admin.query(`UPDATE ${schema}.locks SET expires_at = now() - interval '5 seconds' WHERE key = $1`, [key]);
      const lost = `session "${key}" (${schema}.sessions at 127.0.0.1:5432/test): this run no longer holds its lock (row "${key}" of ${schema}.locks at 127.0.0.1:5432/test)`;
      await expect(s.append(key, record(1), { lock })).rejects.toThrow(`${lost}: its lease ran out 5 s ago (this process stalled for longer than the lease); nothing was written`);
      await expect(s.save(key, tinySnapshot("x"), { lock })).rejects.toBeInstanceOf(SessionLockLostError);
      await admin.query(`UPDATE ${schema}.locks SET token = 'other', pid = 1, host = 'other-host', expires_at = now() + interval '1 minute' WHERE key = $1`, [key]);
      await expect(s.append(key, record(1), { lock })).rejects.toThrow(`${lost}: it is now held by process 1 on other-host, another machine, since`);
      await expect(s.delete(key, { lock })).rejects.toBeInstanceOf(SessionLockLostError);
      await admin.query(`DELETE FROM ${schema}.locks WHERE key = $1`, [key]);
      await expect(s.append(key, record(1), { lock })).rejects.toThrow(`${lost}: it is gone (it was released or deleted); nothing was written`);
      expect(await s.load(key)).toEqual({ snapshot: tinySnapshot("base"), version: v1, deltas: [] });
      await lock.release();
    });

    it("another process holds the lease while it lives; killed, its lease is taken over at once", async () => {
      const key = freshKey();
      const dist = resolve("dist/src/backends/postgres/index.js");
      const script = `
        const { PostgresSnapshotStore } = await import(${JSON.stringify(dist)});
        const store = new PostgresSnapshotStore({ url: ${JSON.stringify(TEST_POSTGRES_URL)}, schema: ${JSON.stringify(schema)}, lockLeaseMs: 60000 });
        await store.lock(${JSON.stringify(key)});
        console.log("locked");
        setInterval(() => {}, 1000);`;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
      try {
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
        let err = "";
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
        for (let i = 0; i < 200 && !out.includes("locked"); i++) {
          if (child.exitCode !== null) throw new Error(`the child exited: ${err}`);
          await sleep(50);
        }
        expect(out).toContain("locked");
        await expect(store().lock(key)).rejects.toThrow(new RegExp(`is locked by another run \\(process ${child.pid} on ${hostname()}, since .*It expires in (59|60) s`));
        child.kill("SIGKILL");
        await once(child, "exit");
        const lock = await store().lock(key);
        await lock.release();
      } finally {
        child.kill("SIGKILL");
      }
    });
  });

  describe("expiry", () => {
    it("sets expires_at on each save: its own ttlSeconds, else the store's default, else none", async () => {
      const key = freshKey();
      await store().save(key, tinySnapshot("a"), { ttlSeconds: 60 });
      const left = async () => Number((await rows(`SELECT extract(epoch FROM expires_at - now())::float8 AS s FROM ${schema}.sessions WHERE key = $1`, [key]))[0].s);
      expect(await left()).toBeGreaterThan(58);
      expect(await left()).toBeLessThanOrEqual(60);
      await store().save(key, tinySnapshot("b"));
      expect(await rows(`SELECT expires_at FROM ${schema}.sessions WHERE key = $1`, [key])).toEqual([{ expires_at: null }]);
      await store({ ttlSeconds: 30 }).save(key, tinySnapshot("c"));
      expect(await left()).toBeGreaterThan(28);
      expect(() => store({ ttlSeconds: 0 })).toThrow("ttlSeconds must be a positive number of seconds, got 0");
    });

    it("treats an expired session as gone and deletes it, its checkpoints and its events when it is next touched", async () => {
      const s = store();
      const key = freshKey();
      const lock = await s.lock(key);
      await s.save(key, tinySnapshot("base"), { lock, ttlSeconds: 60 });
      await s.append(key, record(1, ["1-1"]), { lock });
      await admin.query(`UPDATE ${schema}.sessions SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
      expect(await s.events(key)).toEqual([]);
      await expect(s.append(key, record(2), { lock })).rejects.toThrow(`checkpoint 2 has no base to follow: the session does not exist (it expired); save a base first; nothing was written`);
      expect(await s.load(key)).toBeUndefined();
      for (const table of ["sessions", "checkpoints", "events"]) expect(await rows(`SELECT 1 FROM ${schema}.${table} WHERE key = $1`, [key])).toEqual([]);
      await lock.release();
    });
  });

  describe("connections", () => {
    it("fails with a clear error naming the server when PostgreSQL is not reachable", async () => {
      const s = new PostgresSnapshotStore({ url: "postgres://postgres@127.0.0.1:1/test", connectionTimeoutMillis: 2_000 });
      await expect(s.load("x")).rejects.toThrow(new SnapshotStoreError("cannot reach PostgreSQL at 127.0.0.1:1/test: connect ECONNREFUSED 127.0.0.1:1").message);
      await expect(s.save("x", tinySnapshot("x"))).rejects.toThrow("cannot reach PostgreSQL at 127.0.0.1:1/test");
      await expect(s.lock("x")).rejects.toThrow("cannot reach PostgreSQL at 127.0.0.1:1/test");
      await s.close();
    });

    it("gives up on a server that accepts connections but never answers, after connectionTimeoutMillis", async () => {
      const sockets: Socket[] = [];
      const silent: Server = createServer((socket) => void sockets.push(socket));
      silent.listen(0, "127.0.0.1");
      await once(silent, "listening");
      const port = (silent.address() as { port: number }).port;
      const s = new PostgresSnapshotStore({ url: `postgres://postgres@127.0.0.1:${port}/test`, connectionTimeoutMillis: 300 });
      try {
        await expect(s.load("x")).rejects.toThrow(`cannot reach PostgreSQL at 127.0.0.1:${port}/test: Connection terminated due to connection timeout`);
      } finally {
        await s.close();
        for (const socket of sockets) socket.destroy();
        silent.close();
      }
    });

    it("bounds a statement that waits: statement_timeout ends it with a clear error", async () => {
      const s = store({ statementTimeoutMs: 300 });
      const key = freshKey();
      const v1 = await s.save(key, tinySnapshot("base"));
      const blocker = new pg.Client(TEST_POSTGRES_URL);
      await blocker.connect();
      try {
        await blocker.query("BEGIN");
        await blocker.query(`SELECT 1 FROM ${schema}.sessions WHERE key = $1 FOR UPDATE`, [key]);
        await expect(s.save(key, tinySnapshot("blocked"))).rejects.toThrow(
          `PostgreSQL at 127.0.0.1:5432/test, session "${key}": canceling statement due to statement timeout (SQLSTATE 57014)`,
        );
        await blocker.query("ROLLBACK");
      } finally {
        await blocker.end();
      }
      expect((await s.load(key))?.version).toBe(v1);
    });

    it("leaves a pool it was given open on close(); refuses url and pool together, and bad options", async () => {
      const pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL });
      try {
        const borrowed = new PostgresSnapshotStore({ pool, schema });
        expect(borrowed.location).toBe("127.0.0.1:5432/test");
        await borrowed.save(freshKey(), tinySnapshot("x"));
        await borrowed.close();
        await expect(borrowed.load("x")).rejects.toThrow("the PostgreSQL snapshot store is closed");
        expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
        expect(() => new PostgresSnapshotStore({ pool, url: TEST_POSTGRES_URL })).toThrow("pass either url or pool to PostgresSnapshotStore, not both");
      } finally {
        await pool.end();
      }
      expect(() => new PostgresSnapshotStore({ schema: "canvasflow; drop table x" })).toThrow("PostgreSQL schema name must be");
      expect(() => new PostgresSnapshotStore({ lockLeaseMs: 1.5 })).toThrow("lockLeaseMs must be a whole number of milliseconds, at least 30; got 1.5");
      expect(() => new PostgresSnapshotStore({ statementTimeoutMs: 0 })).toThrow("statementTimeoutMs must be a positive whole number of milliseconds, got 0");
      expect(() => new PostgresSnapshotStore({ url: "mysql://h/db" })).toThrow("PostgreSQL URL must start with postgres:// or postgresql://, got mysql://…");
      expect(() => new PostgresSnapshotStore({ url: "postgres://user:secret@[bad/db" })).toThrow('PostgreSQL URL "postgres://***@[bad/db" is not a valid URL');
    });
  });
});

describe("openSnapshotStore with a PostgreSQL URL", () => {
  it("opens postgres://user@host:port/db#key (and postgresql://) with the key from the fragment", async () => {
    for (const scheme of ["postgres", "postgresql"]) {
      const key = `url/${scheme} a b`;
      const { store, key: opened, location } = openSnapshotStore(`${scheme}://postgres@127.0.0.1:5432/test#${encodeURIComponent(key)}`, { schema });
      try {
        expect(store).toBeInstanceOf(PostgresSnapshotStore);
        expect(opened).toBe(key);
        expect(location).toBe(`${scheme}://postgres@127.0.0.1:5432/test#${encodeURIComponent(key)}`);
        await store.save(opened, tinySnapshot(scheme));
        expect((await admin.query(`SELECT snapshot FROM ${schema}.sessions WHERE key = $1`, [key])).rows).toEqual([{ snapshot: JSON.stringify(tinySnapshot(scheme)) }]);
      } finally {
        await store.close();
      }
    }
  });

  it("masks a password; rejects a URL without a key or without a database", async () => {
    const { store, location } = openSnapshotStore("postgres://user:secret@127.0.0.1:1/test#k");
    await store.close();
    expect(location).toBe("postgres://user:***@127.0.0.1:1/test#k");
    expect(() => openSnapshotStore("postgres://postgres@127.0.0.1:5432/test")).toThrow(
      new SnapshotKeyError('postgres://postgres@127.0.0.1:5432/test names no session: put its key after "#", e.g. postgres://user@127.0.0.1:5432/mydb#my-session').message,
    );
    expect(() => openSnapshotStore("postgres://postgres@127.0.0.1:5432#k")).toThrow('postgres://postgres@127.0.0.1:5432#k names no database: put it in the path, e.g. postgres://user@127.0.0.1:5432/mydb#k');
    expect(() => openSnapshotStore("http://example.com/s.json")).toThrow(
      'unsupported session location "http://example.com/s.json": use a file path or redis://host:port[/db]#key or postgres://user@host:port/db#key',
    );
  });
});
