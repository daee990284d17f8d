/**
 * A Redis URL naming a database the server does not have (`/99` on a server of 16, the default):
 * every command that opens Redis stops with an error naming the URL and the refusal, and nothing
 * is written to database 0 (ioredis goes on in database 0 when its SELECT fails).
 */
import type { Redis } from "ioredis";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RedisSnapshotStore } from "../../src/backends/redis/session-store.js";
import { createWorker } from "../../src/worker/worker.js";
import { builtinRegistry } from "../../src/components/builtins.js";
import { cli } from "../helpers/cli.js";
import { deleteKeys, sharedTestRedis, uniqueTestPrefix } from "../helpers/redis.js";

const redis = sharedTestRedis();
let admin: Redis;
const prefix = uniqueTestPrefix();
const MISSING = "redis://127.0.0.1:6379/99";
const REFUSED = /the Redis URL redis:\/\/127\.0\.0\.1:6379\/99 names database 99, which the server refuses \(SELECT 99: ERR DB index is out of range\)/;

beforeEach(async () => {
  admin = await redis.get();
  // The test needs a server that has no database 99.
  const [, databases] = (await admin.config("GET", "databases")) as [string, string];
  expect(Number(databases)).toBeLessThanOrEqual(99);
});

afterAll(async () => {
  if (admin) await deleteKeys(admin, prefix);
  await redis.close();
});

/** Whatever was written under the test's prefix in database 0 (what ioredis would write to). */
async function writtenToDatabaseZero(): Promise<string[]> {
  await admin.select(0);
  return admin.keys(`${prefix}*`);
}

describe("a Redis URL whose database does not exist", () => {
  it("fails the server store's first command and its ping, naming the URL", async () => {
    const store = new RedisServerStore({ url: MISSING, prefix });
    try {
      await expect(store.ping()).rejects.toThrow(REFUSED);
      await expect(store.keys.list()).rejects.toThrow(REFUSED);
      await expect(store.agents.create({ id: "a1", tenant: "t", title: "x", description: "", dsl: {} as never, canvas_type: "", avatar: null, create_time: 1, update_time: 1 })).rejects.toThrow(REFUSED);
    } finally {
      await store.close();
    }
    expect(await writtenToDatabaseZero()).toEqual([]);
  });

  it("fails a session store's writes (run --session redis://…) and writes nothing", async () => {
    const store = new RedisSnapshotStore({ url: MISSING, keyPrefix: prefix });
    try {
      await expect(store.load("s1")).rejects.toThrow(REFUSED);
    } finally {
      await store.close();
    }
    expect(await writtenToDatabaseZero()).toEqual([]);
  });

  it("stops canvasflow run --session, serve --redis, keys and worker with exit 1 and the reason", async () => {
    const runs = [
      await cli(["run", "fixtures/user-fill-up.json", "--session", `${MISSING}#${prefix}run`, "-q", "hi"]),
      await cli(["serve", "--port", "0", "--redis", MISSING, "--redis-prefix", prefix]),
      await cli(["serve", "--port", "0", "--queue", MISSING, "--redis-prefix", prefix]),
      await cli(["keys", "create", "--tenant", "t", "--name", "ci", "--redis", MISSING, "--redis-prefix", prefix]),
      await cli(["worker", "--redis", MISSING, "--prefix", prefix]),
    ];
    for (const run of runs) {
      expect(run.stderr).toMatch(REFUSED);
      expect(run.code, run.stderr).toBe(1);
    }
    expect(await writtenToDatabaseZero()).toEqual([]);
    expect(await admin.exists(`canvasflow:session:${prefix}run`)).toBe(0);
  });

  it("stops createWorker before it takes a job from database 0", async () => {
    await expect(createWorker({ redis: MISSING, prefix, registry: builtinRegistry() })).rejects.toThrow(REFUSED);
    expect(await writtenToDatabaseZero()).toEqual([]);
  });
});
