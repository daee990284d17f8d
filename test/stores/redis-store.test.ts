/**
 * The Redis store against a real Redis on 127.0.0.1:6379: the conformance suite, then the stored
 * layout, expiry, corrupt keys, owned and borrowed clients, URLs and an unreachable server.
 */
import type { Redis } from "ioredis";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  openSnapshotStore,
  RedisSnapshotStore,
  SessionLockedError,
  SessionLockLostError,
  SnapshotConflictError,
  SnapshotCorruptError,
  SnapshotKeyError,
} from "../../src/index.js";
import { connectTestRedis, deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
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
