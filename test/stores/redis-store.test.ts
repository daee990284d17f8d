/**
 * The Redis store against a real Redis on 127.0.0.1:6379: the conformance suite, then the stored
 * layout, expiry, corrupt keys, owned and borrowed clients, URLs and an unreachable server.
 */
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openSnapshotStore } from "../../src/backends/open-sessions.js";
import { RedisSnapshotStore } from "../../src/backends/redis/session-store.js";
import { SessionLockedError, SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError } from "../../src/backends/errors.js";
import type { SessionLock } from "../../src/backends/contracts.js";
import { spawnDistChild } from "../helpers/dist-child.js";
import { connectTestRedis, deleteKeys, sharedTestRedis, startRedisProxy, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { describeSnapshotStore, pausedSnapshot, tinySnapshot } from "./conformance.js";

const prefix = uniqueTestPrefix();
/** Where the stores below keep locks: the prefix with "-lock:" for its trailing ":". */
const lockPrefix = `${prefix.slice(0, -1)}-lock:`;
const redis = sharedTestRedis();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let admin: Redis;

beforeEach(async () => {
  admin = await redis.get();
});

afterAll(async () => {
  if (admin) await deleteKeys(admin, prefix);
  if (admin) await deleteKeys(admin, lockPrefix);
  await redis.close();
});

describeSnapshotStore("RedisSnapshotStore", {
  open: () => new RedisSnapshotStore({ url: TEST_REDIS_URL, keyPrefix: prefix }),
  shared: true,
  expires: true,
  checkpoints: true,
  async corrupt(key, kind) {
    await admin.hset(prefix + key, { snapshot: kind === "invalid-json" ? '{"components": ' : "[1, 2]", version: "1" });
  },
});

describe("RedisSnapshotStore", () => {
  const stores: RedisSnapshotStore[] = [];
  function store(options: ConstructorParameters<typeof RedisSnapshotStore>[0] = {}): RedisSnapshotStore {
    const created = new RedisSnapshotStore({ url: TEST_REDIS_URL, keyPrefix: prefix, ...options });
    stores.push(created);
    return created;
  }
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it("keeps a session as a hash: the snapshot JSON and a version counter", async () => {
    const s = store();
    const snapshot = await pausedSnapshot();
    expect(s.redisKey("layout")).toBe(`${prefix}layout`);
    expect(await s.save("layout", snapshot)).toBe("1");
    expect(await admin.hgetall(`${prefix}layout`)).toEqual({ snapshot: JSON.stringify(snapshot), version: "1" });
    expect(await s.save("layout", snapshot, { expectedVersion: "1" })).toBe("2");
    expect(await admin.hget(`${prefix}layout`, "version")).toBe("2");
    expect(new RedisSnapshotStore({ client: admin }).redisKey("x")).toBe("canvasflow:session:x");
  });

  it("sets the expiry on each save: its own ttlSeconds, else the store's default, else none", async () => {
    const s = store();
    await s.save("ttl", tinySnapshot("a"), { ttlSeconds: 60 });
    const pttl = await admin.pttl(`${prefix}ttl`);
    expect(pttl).toBeGreaterThan(58_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
    await s.save("ttl", tinySnapshot("b"));
    expect(await admin.pttl(`${prefix}ttl`)).toBe(-1);

    const withDefault = store({ ttlSeconds: 30 });
    await withDefault.save("ttl", tinySnapshot("c"));
    expect(await admin.pttl(`${prefix}ttl`)).toBeGreaterThan(28_000);
    await withDefault.save("ttl", tinySnapshot("d"), { ttlSeconds: 600 });
    expect(await admin.pttl(`${prefix}ttl`)).toBeGreaterThan(590_000);
    expect(() => store({ ttlSeconds: 0 })).toThrow("ttlSeconds must be a positive number of seconds, got 0");
  });

  it("reports keys that are not sessions as corrupt, naming the key, and never overwrites them", async () => {
    const s = store();
    await admin.set(`${prefix}string`, "someone else's value");
    const where = `session "string" (redis key ${prefix}string)`;
    await expect(s.load("string")).rejects.toThrow(new SnapshotCorruptError(`${where} is corrupt: it holds a Redis string, not a hash (a session is a hash with snapshot and version fields). Nothing was changed; remove it with: redis-cli DEL ${prefix}string`, "string").message);
    await expect(s.save("string", tinySnapshot("x"))).rejects.toBeInstanceOf(SnapshotCorruptError);
    expect(await admin.get(`${prefix}string`)).toBe("someone else's value");

    await admin.hset(`${prefix}badversion`, { snapshot: "{}", version: "abc" });
    await expect(s.save("badversion", tinySnapshot("x"))).rejects.toThrow(`session "badversion" (redis key ${prefix}badversion) is corrupt: its version field is not a counter: abc`);
    await admin.hset(`${prefix}noversion`, { snapshot: "{}" });
    await expect(s.load("noversion")).rejects.toThrow("is corrupt: the hash has no version field");
    await expect(s.save("noversion", tinySnapshot("x"))).rejects.toThrow("is corrupt: the hash has no version field");
    await admin.hset(`${prefix}other`, { field: "1" });
    await expect(s.load("other")).rejects.toThrow("is corrupt: the hash has neither a snapshot nor a version field");
  });

  it("lets exactly one of twenty workers on separate connections save over the same version", async () => {
    const first = store();
    const v1 = await first.save("race", tinySnapshot("start"));
    const workers = Array.from({ length: 20 }, () => store());
    const results = await Promise.allSettled(workers.map((w, i) => w.save("race", tinySnapshot(`worker ${i}`), { expectedVersion: v1 })));
    const winners = results.flatMap((r, i) => (r.status === "fulfilled" ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(SnapshotConflictError);
    expect(await first.load("race")).toEqual({ snapshot: tinySnapshot(`worker ${winners[0]}`), version: "2", deltas: [] });
  });

  it("leaves a client it was given open on close()", async () => {
    const borrowed = new RedisSnapshotStore({ client: admin, keyPrefix: prefix });
    await borrowed.save("borrowed", tinySnapshot("x"));
    await borrowed.close();
    await expect(borrowed.load("borrowed")).rejects.toThrow("the Redis snapshot store is closed");
    expect(await admin.ping()).toBe("PONG");
    expect(() => new RedisSnapshotStore({ client: admin, url: TEST_REDIS_URL })).toThrow("pass either url or client to RedisSnapshotStore, not both");
  });

  it("keeps a session's lock as a string with a lease that its holder renews; the refusal names the key and how to clear it", async () => {
    const s = store({ lockLeaseMs: 300 });
    expect(s.lockKey("leased")).toBe(`${lockPrefix}leased`);
    const lock = await s.lock("leased");
    expect(lock.location).toBe(`redis key ${lockPrefix}leased`);
    const value = (await admin.get(`${lockPrefix}leased`))!;
    expect(value).toMatch(new RegExp(`^${process.pid} \\S+ [0-9a-f]{16} \\d+$`));
    expect(await admin.pttl(`${lockPrefix}leased`)).toBeLessThanOrEqual(300);
    await sleep(800); // more than two leases: renewed meanwhile
    expect(await admin.get(`${lockPrefix}leased`)).toBe(value);

    const refused = await store().lock("leased").then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionLockedError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^session "leased" \\(redis key ${prefix}leased\\) is locked by another run \\(process ${process.pid} on \\S+, since \\d{4}-[^)]+\\): ` +
          `lock key ${lockPrefix}leased\\. It expires in 1 s unless its holder renews it\\. ` +
          `If no canvasflow run is using this session, clear it with: redis-cli DEL ${lockPrefix}leased$`,
      ),
    );
    await lock.release();
    expect(await admin.exists(`${lockPrefix}leased`)).toBe(0);
  });

  it("lets a lock go when its holder stops renewing it (a process that died): the next lock takes it", async () => {
    await admin.set(`${lockPrefix}orphan`, "4000000 elsewhere cafe 1700000000000", "PX", 200);
    await expect(store().lock("orphan")).rejects.toThrow(/is locked by another run \(process 4000000 on elsewhere, since 2023-11-14T22:13:20.000Z\)/);
    await sleep(300);
    const lock = await store().lock("orphan");
    await lock.release();

    await admin.set(`${lockPrefix}forever`, "set by hand");
    await expect(store().lock("forever")).rejects.toThrow(`(lock value "set by hand"): lock key ${lockPrefix}forever. It has no expiry. If no canvasflow run`);
    await admin.del(`${lockPrefix}forever`);
  });

  it("refuses a save under a lock that was taken over or is gone (SessionLockLostError), writing nothing", async () => {
    const s = store();
    const lock = await s.lock("lost");
    await admin.set(`${lockPrefix}lost`, "1 other-host beef 0");
    await expect(s.save("lost", tinySnapshot("x"), { lock })).rejects.toThrow(
      new SessionLockLostError(`session "lost" (redis key ${prefix}lost): this run no longer holds its lock ${lockPrefix}lost: it is now held by process 1 on other-host; nothing was written`, "lost").message,
    );
    await admin.del(`${lockPrefix}lost`);
    await expect(s.save("lost", tinySnapshot("x"), { lock })).rejects.toThrow("it is gone (its lease ran out, or it was deleted); nothing was written");
    expect(await admin.exists(`${prefix}lost`)).toBe(0);
    await lock.release();
  });

  it("keeps lock keys apart from session keys", () => {
    expect(store({ lockKeyPrefix: "elsewhere:locks:" }).lockKey("k")).toBe("elsewhere:locks:k");
    expect(new RedisSnapshotStore({ client: admin }).lockKey("k")).toBe("canvasflow:session-lock:k");
    expect(() => new RedisSnapshotStore({ client: admin, keyPrefix: "app:", lockKeyPrefix: "app:lock:" })).toThrow(
      'keyPrefix "app:" and lockKeyPrefix "app:lock:" overlap (one starts the other), so a lock key could be a session key',
    );
    expect(() => new RedisSnapshotStore({ client: admin, keyPrefix: "" })).toThrow("overlap");
    expect(() => new RedisSnapshotStore({ client: admin, lockLeaseMs: 1.5 })).toThrow("lockLeaseMs must be a whole number of milliseconds, at least 30; got 1.5");
  });

  it("fails with a clear error when Redis is not reachable", async () => {
    const s = new RedisSnapshotStore({ url: "redis://127.0.0.1:1/0" });
    const started = Date.now();
    await expect(s.load("x")).rejects.toThrow("cannot reach Redis at 127.0.0.1:1/0: connect ECONNREFUSED 127.0.0.1:1");
    await expect(s.save("x", tinySnapshot("x"))).rejects.toThrow("cannot reach Redis at 127.0.0.1:1/0");
    expect(Date.now() - started).toBeLessThan(5_000);
    await s.close();
  });
});

describe("RedisSnapshotStore: checkpoints, the event log, faults and leases", () => {
  const stores: RedisSnapshotStore[] = [];
  function store(options: ConstructorParameters<typeof RedisSnapshotStore>[0] = {}): RedisSnapshotStore {
    const created = new RedisSnapshotStore({ url: TEST_REDIS_URL, keyPrefix: prefix, ...options });
    stores.push(created);
    return created;
  }
  afterAll(async () => {
    for (const s of stores) await s.close();
    if (admin) for (const role of ["checkpoints", "events"]) await deleteKeys(admin, `${prefix.slice(0, -1)}-${role}:`);
  });
  const checkpointsPrefix = `${prefix.slice(0, -1)}-checkpoints:`;
  const eventsPrefix = `${prefix.slice(0, -1)}-events:`;
  const record = (seq: number, ids: string[] = []) => ({
    seq,
    delta: JSON.stringify({ step: seq }),
    events: ids.map((id) => ({ id, json: JSON.stringify({ event: "node_finished", id }) })),
  });
  /** A session with a base and `count` checkpoints, each with one event 1-<seq>, under a held lock. */
  async function session(s: RedisSnapshotStore, key: string, count: number): Promise<SessionLock> {
    const lock = await s.lock(key);
    await s.save(key, tinySnapshot("base"), { lock });
    for (let seq = 1; seq <= count; seq++) await s.append(key, record(seq, [`1-${seq}`]), { lock });
    return lock;
  }

  it("keeps the checkpoints as a list and the events as a stream whose ids are the event ids; a save drops the list, delete removes all", async () => {
    const s = store();
    expect(s.checkpointsKey("layout2")).toBe(`${checkpointsPrefix}layout2`);
    expect(s.eventsKey("layout2")).toBe(`${eventsPrefix}layout2`);
    const lock = await s.lock("layout2");
    expect(await s.save("layout2", tinySnapshot("base"), { lock })).toBe("1");
    expect(await s.append("layout2", record(1, ["1-1", "1-2"]), { lock })).toBe("2");
    expect(await s.append("layout2", record(2, ["1-3"]), { lock })).toBe("3");
    expect(await admin.hget(`${prefix}layout2`, "version")).toBe("3");
    expect(await admin.lrange(`${checkpointsPrefix}layout2`, 0, -1)).toEqual([record(1).delta, record(2).delta]);
    expect(await admin.xrange(`${eventsPrefix}layout2`, "-", "+")).toEqual([
      ["1-1", ["event", record(1, ["1-1"]).events[0].json]],
      ["1-2", ["event", record(1, ["1-2"]).events[0].json]],
      ["1-3", ["event", record(2, ["1-3"]).events[0].json]],
    ]);
    await s.save("layout2", tinySnapshot("next"), { lock });
    expect(await admin.exists(`${checkpointsPrefix}layout2`)).toBe(0);
    expect(await admin.xlen(`${eventsPrefix}layout2`)).toBe(3);
    expect(await s.delete("layout2", { lock })).toBe(true);
    expect(await admin.exists(`${prefix}layout2`, `${checkpointsPrefix}layout2`, `${eventsPrefix}layout2`)).toBe(0);
    await lock.release();
  });

  it("writes a checkpoint in one round trip (one script), whatever the number before it", async () => {
    const s = store();
    const lock = await session(s, "trips", 2); // the scripts are loaded by now
    const sent = vi.spyOn(s.client, "sendCommand");
    try {
      await s.append("trips", record(3, ["1-3"]), { lock });
      expect(sent.mock.calls.map(([command]) => command.name)).toEqual(["evalsha"]);
      sent.mockClear();
      for (let seq = 4; seq <= 200; seq++) await s.append("trips", record(seq, [`1-${seq}`]), { lock });
      expect(sent).toHaveBeenCalledTimes(197);
    } finally {
      sent.mockRestore();
    }
    // The cost of an append, for the report (not asserted: timings vary with the machine).
    const started = performance.now();
    for (let seq = 201; seq <= 1200; seq++) await s.append("trips", record(seq, [`1-${seq}`]), { lock });
    console.log(`RedisSnapshotStore: 1000 appends (one event each) after 200 took ${(performance.now() - started).toFixed(0)} ms`);
    await lock.release();
  });

  it("caps the event log at maxEvents: Redis trims whole nodes (MAXLEN ~), reads show exactly the most recent maxEvents", async () => {
    const s = store({ maxEvents: 150 });
    const lock = await s.lock("capped");
    await s.save("capped", tinySnapshot("base"), { lock });
    for (let seq = 1; seq <= 50; seq++) {
      await s.append("capped", record(seq, Array.from({ length: 10 }, (_, i) => `1-${seq * 10 + i}`)), { lock });
    }
    const length = await admin.xlen(`${eventsPrefix}capped`);
    expect(length).toBeGreaterThanOrEqual(150);
    expect(length).toBeLessThan(500);
    const events = await s.events("capped");
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 150 }, (_, i) => `1-${360 + i}`));
    expect((await s.events("capped", { after: "1-20" })).map((e) => e.id)[0]).toBe("1-360");
    expect((await s.events("capped", { after: "1-500", limit: 3 })).map((e) => e.id)).toEqual(["1-501", "1-502", "1-503"]);
    await lock.release();
    expect(() => store({ maxEvents: 0 })).toThrow("maxEvents must be a whole number from 1, got 0");
  });

  it("expires the checkpoints with their base, and the event log eventLogTtlSeconds after its last append", async () => {
    const s = store({ eventLogTtlSeconds: 120 });
    const lock = await s.lock("expiring");
    await s.save("expiring", tinySnapshot("base"), { lock, ttlSeconds: 60 });
    await s.append("expiring", record(1, ["1-1"]), { lock });
    expect(await admin.pttl(`${checkpointsPrefix}expiring`)).toBeGreaterThan(58_000);
    expect(await admin.pttl(`${checkpointsPrefix}expiring`)).toBeLessThanOrEqual(60_000);
    expect(await admin.pttl(`${eventsPrefix}expiring`)).toBeGreaterThan(118_000);
    await s.save("expiring", tinySnapshot("kept"), { lock });
    await s.append("expiring", record(1), { lock });
    expect(await admin.pttl(`${checkpointsPrefix}expiring`)).toBe(-1);
    await lock.release();
    expect(() => store({ eventLogTtlSeconds: -5 })).toThrow("eventLogTtlSeconds must be a positive number of seconds, got -5");
  });

  it("refuses a checkpoint whose events do not come after the logged ones, writing nothing", async () => {
    const s = store();
    const lock = await session(s, "order", 2);
    const refused = await s.append("order", record(3, ["1-2", "1-9"]), { lock }).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(SnapshotConflictError);
    expect((refused as Error).message).toBe(
      `session "order": checkpoint 3's first event 1-2 does not come after the last one logged (1-2, redis key ${eventsPrefix}order); another run wrote this session; nothing was written`,
    );
    await expect(s.append("order", record(3, ["0-0"]), { lock })).rejects.toBeInstanceOf(SnapshotConflictError);
    expect((await s.load("order"))?.deltas).toHaveLength(2);
    expect(await admin.xlen(`${eventsPrefix}order`)).toBe(2);
    await s.append("order", record(3, ["2-1"]), { lock });
    await lock.release();
  });

  it("reports garbage under a session's keys as SnapshotCorruptError naming the key and the position, and overwrites nothing", async () => {
    const s = store();
    // A string where the checkpoints list is.
    let lock = await session(s, "garbage-list", 1);
    await admin.del(`${checkpointsPrefix}garbage-list`);
    await admin.set(`${checkpointsPrefix}garbage-list`, "not a list");
    const where = `session "garbage-list" (redis key ${prefix}garbage-list) is corrupt`;
    await expect(s.load("garbage-list")).rejects.toThrow(
      new SnapshotCorruptError(
        `${where}: its checkpoints key ${checkpointsPrefix}garbage-list holds a Redis string, not a list (the session's checkpoints). Nothing was changed; remove it with: redis-cli DEL ${checkpointsPrefix}garbage-list`,
        "garbage-list",
      ).message,
    );
    await expect(s.append("garbage-list", record(2), { lock })).rejects.toBeInstanceOf(SnapshotCorruptError);
    await expect(s.save("garbage-list", tinySnapshot("x"), { lock })).rejects.toBeInstanceOf(SnapshotCorruptError);
    expect(await admin.get(`${checkpointsPrefix}garbage-list`)).toBe("not a list");
    expect(await admin.hget(`${prefix}garbage-list`, "version")).toBe("2");
    expect(await s.delete("garbage-list", { lock })).toBe(true); // the way out
    expect(await admin.exists(`${checkpointsPrefix}garbage-list`)).toBe(0);
    await lock.release();

    // A delta that is not JSON, at seq 2.
    lock = await session(s, "garbage-delta", 3);
    await admin.lset(`${checkpointsPrefix}garbage-delta`, 1, '{"step": 2, "ops": [');
    const bad = await s.load("garbage-delta").then(() => undefined, (e: unknown) => e);
    expect(bad).toBeInstanceOf(SnapshotCorruptError);
    expect((bad as Error).message).toMatch(
      new RegExp(`^session "garbage-delta": checkpoint 2 in redis key ${checkpointsPrefix}garbage-delta is not valid JSON \\(.+\\); nothing was changed$`),
    );
    await lock.release();

    // A hash where the event log is: a checkpoint with events is refused whole.
    lock = await session(s, "garbage-log", 1);
    await admin.del(`${eventsPrefix}garbage-log`);
    await admin.hset(`${eventsPrefix}garbage-log`, { a: "1" });
    await expect(s.events("garbage-log")).rejects.toThrow(`its events key ${eventsPrefix}garbage-log holds a Redis hash, not a stream (the session's event log)`);
    await expect(s.append("garbage-log", record(2, ["1-2"]), { lock })).rejects.toBeInstanceOf(SnapshotCorruptError);
    expect(await admin.llen(`${checkpointsPrefix}garbage-log`)).toBe(1);
    await lock.release();

    // Stream entries that are not events.
    lock = await session(s, "garbage-entry", 1);
    await admin.xadd(`${eventsPrefix}garbage-entry`, "1-5", "event", "{ nope");
    await expect(s.events("garbage-entry")).rejects.toThrow(new RegExp(`^session "garbage-entry": event 1-5 in redis key ${eventsPrefix}garbage-entry is not valid JSON`));
    await admin.xadd(`${eventsPrefix}garbage-entry`, "1-6", "other", "{}");
    await expect(s.events("garbage-entry", { after: "1-5" })).rejects.toThrow('event 1-6 in redis key ' + `${eventsPrefix}garbage-entry is corrupt: it has no "event" field (fields: other)`);
    await lock.release();

    // A hash where the lock is.
    await admin.hset(`${lockPrefix}garbage-lock`, { a: "1" });
    await expect(s.lock("garbage-lock")).rejects.toThrow(`its lock key ${lockPrefix}garbage-lock holds a Redis hash, not a string (the session's lock)`);
    await expect(s.save("garbage-lock", tinySnapshot("x"))).rejects.toBeInstanceOf(SnapshotCorruptError);
    expect(await admin.exists(`${prefix}garbage-lock`)).toBe(0);
    await admin.del(`${lockPrefix}garbage-lock`);
  });

  it("fails fast with a clear error naming the server when Redis goes away mid-run: the port closes, or it stops answering", async () => {
    const proxy = await startRedisProxy();
    const s = store({ url: proxy.url });
    const lock = await session(s, "gone", 1);
    await proxy.stop();
    const gone = await s.append("gone", record(2), { lock }).then(() => undefined, (e: unknown) => e);
    expect(gone).toBeInstanceOf(SnapshotStoreError);
    expect((gone as Error).message).toBe(`cannot reach Redis at 127.0.0.1:${proxy.port}/0: connect ECONNREFUSED 127.0.0.1:${proxy.port}`);
    await expect(s.load("gone")).rejects.toThrow(`cannot reach Redis at 127.0.0.1:${proxy.port}/0`);
    await lock.release();

    const hanging = await startRedisProxy();
    const h = store({ url: hanging.url, redisOptions: { commandTimeout: 200 } });
    const hangingLock = await session(h, "hanging", 1);
    hanging.stall();
    await expect(h.append("hanging", record(2), { lock: hangingLock })).rejects.toThrow(
      `Redis at 127.0.0.1:${hanging.port}/0 did not answer within 200 ms (commandTimeout)`,
    );
    await hanging.stop();
    await hangingLock.release();
    expect((await store().load("hanging"))?.deltas).toHaveLength(1);
  });

  it("reconnects after its connection is killed (CLIENT KILL): the next checkpoint goes through", async () => {
    const s = store();
    const lock = await session(s, "killed", 1);
    const id = await s.client.client("ID");
    expect(await admin.client("KILL", "ID", String(id))).toBe(1);
    await s.append("killed", record(2), { lock });
    expect((await s.load("killed"))?.deltas).toHaveLength(2);
    await lock.release();
  });

  it("takes over at once the lock of a process on this host that was killed; refuses it while that process lives, naming it and the lease left", async () => {
    const key = "crashed";
    const holder = spawnDistChild(`
      const store = new lib.RedisSnapshotStore({ url: ${JSON.stringify(TEST_REDIS_URL)}, keyPrefix: ${JSON.stringify(prefix)} });
      const lock = await store.lock(${JSON.stringify(key)});
      await store.save(${JSON.stringify(key)}, { components: {}, note: "child" }, { lock });
      console.log("locked");
      await lines.next();
    `);
    try {
      expect(await holder.line()).toBe("locked");
      const refused = await store().lock(key).then(() => undefined, (e: unknown) => e);
      expect(refused).toBeInstanceOf(SessionLockedError);
      expect((refused as Error).message).toMatch(
        new RegExp(`is locked by another run \\(process ${holder.child.pid} on ${hostname()}, since [^)]+\\): lock key ${lockPrefix}${key}\\. It expires in 1[45] s unless its holder renews it\\.`),
      );
      holder.child.kill("SIGKILL");
      expect(await holder.exited).toEqual({ code: null, signal: "SIGKILL" });
      expect(await admin.pttl(`${lockPrefix}${key}`)).toBeGreaterThan(10_000); // the lease still runs
      // Two takers race for the dead holder's lock: exactly one wins.
      const results = await Promise.allSettled([store().lock(key), store().lock(key)]);
      const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
      expect(won).toHaveLength(1);
      expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: expect.any(SessionLockedError) });
      expect(await admin.get(`${lockPrefix}${key}`)).toMatch(new RegExp(`^${process.pid} `));
      await won[0].release();
    } finally {
      holder.child.kill("SIGKILL");
    }
  });

  it("takes over a lock left by an earlier process with this pid (a restarted container), never one of this process's", async () => {
    await admin.set(`${lockPrefix}same-pid`, `${process.pid} ${hostname()} 0123456789abcdef ${Date.now()}`, "PX", 15_000);
    const lock = await store().lock("same-pid");
    await expect(store().lock("same-pid")).rejects.toBeInstanceOf(SessionLockedError);
    await lock.release();
  });
});

describe("openSnapshotStore", () => {
  it("opens redis://host:port/db#key on that database, with the key from the fragment", async () => {
    const key = `${prefix}url/a b`;
    const { store, key: opened, location } = openSnapshotStore(`redis://127.0.0.1:6379/2#${encodeURIComponent(key)}`);
    try {
      expect(store).toBeInstanceOf(RedisSnapshotStore);
      expect(opened).toBe(key);
      expect(location).toBe(`redis://127.0.0.1:6379/2#${encodeURIComponent(key)}`);
      await store.save(opened, tinySnapshot("db 2"));
      const db2 = await connectTestRedis("redis://127.0.0.1:6379/2");
      try {
        expect(await db2.hget(`canvasflow:session:${key}`, "version")).toBe("1");
        expect(await admin.exists(`canvasflow:session:${key}`)).toBe(0);
      } finally {
        await db2.del(`canvasflow:session:${key}`);
        db2.disconnect();
      }
    } finally {
      await store.close();
    }
  });

  it("masks a password in the location it reports", async () => {
    const { store, location } = openSnapshotStore("redis://user:secret@127.0.0.1:1/0#k");
    await store.close();
    expect(location).toBe("redis://user:***@127.0.0.1:1/0#k");
  });

  it("rejects a Redis URL without a key, with a path that is not a database, or another scheme", () => {
    expect(() => openSnapshotStore("redis://127.0.0.1:6379/0")).toThrow(
      new SnapshotKeyError('redis://127.0.0.1:6379/0 names no session: put its key after "#", e.g. redis://127.0.0.1:6379/0#my-session').message,
    );
    expect(() => openSnapshotStore("redis://127.0.0.1:6379/zero#k")).toThrow('the path must be a database number such as /0, got "/zero"');
    expect(() => openSnapshotStore("redis://127.0.0.1:6379/0#%E0%A4%A")).toThrow("is not valid percent-encoding");
    expect(() => openSnapshotStore("http://example.com/s.json")).toThrow('unsupported session location "http://example.com/s.json": use a file path or redis://host:port[/db]#key');
    expect(() => openSnapshotStore("")).toThrow(SnapshotKeyError);
  });
});
