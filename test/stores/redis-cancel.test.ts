/**
 * Cancel signals in Redis against a real Redis on 127.0.0.1:6379: the conformance suite, RAGFlow's
 * key and the channel, one subscriber per instance, a reconnect, requests from a real second
 * process, and an unreachable server.
 */
import type { Redis } from "ioredis";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { CancelSignalError } from "../../src/backends/errors.js";
import { RedisCancelSignals } from "../../src/backends/redis/cancel.js";
import { spawnDistChild } from "../helpers/dist-child.js";
import { closedPort } from "../helpers/http.js";
import { deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { describeCancelSignals } from "./cancel-conformance.js";

const prefix = uniqueTestPrefix();
const redis = sharedTestRedis();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let admin: Redis;

beforeEach(async () => {
  admin = await redis.get();
});

afterAll(async () => {
  if (admin) await deleteKeys(admin, prefix);
  await redis.close();
});

describeCancelSignals("RedisCancelSignals", { open: () => new RedisCancelSignals({ url: TEST_REDIS_URL, keyPrefix: prefix }), shared: true });

describe("RedisCancelSignals", () => {
  const opened: RedisCancelSignals[] = [];
  function signals(options: ConstructorParameters<typeof RedisCancelSignals>[0] = {}): RedisCancelSignals {
    const created = new RedisCancelSignals({ url: TEST_REDIS_URL, keyPrefix: prefix, ...options });
    opened.push(created);
    return created;
  }
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  it("sets RAGFlow's {task_id}-cancel key with a time to live and publishes the task id on canvasflow:cancel; clear deletes the key", async () => {
    const listener = admin.duplicate();
    const heard: Array<[string, string]> = [];
    listener.on("message", (channel: string, message: string) => heard.push([channel, message]));
    await listener.subscribe("canvasflow:cancel");
    try {
      const task = `${prefix}ragflow`;
      const plain = new RedisCancelSignals({ url: TEST_REDIS_URL });
      opened.push(plain);
      expect(plain.flagKey(task)).toBe(`${task}-cancel`);
      await plain.request(task, { ttlSeconds: 30 });
      expect(await admin.get(`${task}-cancel`)).toBe("x");
      expect(await admin.pttl(`${task}-cancel`)).toBeGreaterThan(29_000);
      for (let i = 0; i < 50 && !heard.some(([, m]) => m === task); i++) await sleep(10);
      expect(heard).toContainEqual(["canvasflow:cancel", task]);
      await plain.clear(task);
      expect(await admin.exists(`${task}-cancel`)).toBe(0);
    } finally {
      listener.disconnect();
    }
    expect(signals().flagKey("t1")).toBe(`${prefix}t1-cancel`);
    await expect(signals().request("t1", { ttlSeconds: 0 })).rejects.toThrow("ttlSeconds must be a positive number of seconds, got 0");
  });

  it("shares one subscriber connection among all the watches of an instance", async () => {
    const channel = `${prefix}channel`;
    const s = signals({ channel });
    const heard: string[] = [];
    const stops = await Promise.all(["a", "b", "c"].map((task) => s.watch(task, () => heard.push(task))));
    expect(await admin.pubsub("NUMSUB", channel)).toEqual([channel, 1]);
    await signals({ channel }).request("b");
    for (let i = 0; i < 50 && heard.length === 0; i++) await sleep(10);
    expect(heard).toEqual(["b"]);
    for (const stop of stops) await stop();
  });

  it("checks the flags again when its subscriber reconnects, so a request published meanwhile is not missed", async () => {
    const name = `cancel-test-${process.pid}-${Date.now()}`;
    const s = signals({ redisOptions: { connectionName: name } });
    let heard = false;
    const stop = await s.watch("reconnect", () => (heard = true));
    const subscriber = String(await admin.client("LIST"))
      .split("\n")
      .find((line: string) => line.includes(` name=${name} `) && / sub=[1-9]/.test(line));
    const id = / id=(\d+) /.exec(` ${subscriber}`)?.[1];
    expect(id).toBeDefined();
    expect(await admin.client("KILL", "ID", id!)).toBe(1);
    // The flag, and no message: only the check after the reconnect can hear it.
    await admin.set(`${prefix}reconnect-cancel`, "x", "EX", 60);
    for (let i = 0; i < 100 && !heard; i++) await sleep(10);
    expect(heard).toBe(true);
    await stop();
  });

  it("hears a cancel sent by another process within 100 ms, every time; the other process hears ours", async () => {
    const child = spawnDistChild(`
      const signals = new lib.RedisCancelSignals({ url: ${JSON.stringify(TEST_REDIS_URL)}, keyPrefix: ${JSON.stringify(prefix)} });
      await signals.isRequested("warm-up");
      console.log("ready");
      for (;;) {
        const { value, done } = await lines.next();
        if (done) break;
        const [verb, task] = value.split(" ");
        if (verb === "cancel") {
          const at = performance.timeOrigin + performance.now();
          await signals.request(task);
          console.log(String(at));
        } else if (verb === "watch") {
          await signals.watch(task, () => console.log("heard " + (performance.timeOrigin + performance.now())));
          console.log("watching");
        }
      }
      await signals.close();
    `);
    try {
      expect(await child.line()).toBe("ready");
      const s = signals();
      const latencies: number[] = [];
      for (let i = 0; i < 10; i++) {
        const task = `cross-${i}`;
        let heardAt: number | undefined;
        const stop = await s.watch(task, () => (heardAt = performance.timeOrigin + performance.now()));
        child.send(`cancel ${task}`);
        const askedAt = Number(await child.line());
        for (let wait = 0; wait < 100 && heardAt === undefined; wait++) await sleep(5);
        expect(heardAt, `cancel ${i}`).toBeDefined();
        latencies.push(heardAt! - askedAt);
        await stop();
      }
      latencies.sort((a, b) => a - b);
      console.log(`RedisCancelSignals across processes: p50 ${latencies[5].toFixed(1)} ms, max ${latencies[9].toFixed(1)} ms`);
      expect(latencies[9]).toBeLessThan(100);

      child.send("watch back");
      expect(await child.line()).toBe("watching");
      const askedAt = performance.timeOrigin + performance.now();
      await s.request("back");
      const heard = await child.line();
      expect(heard).toMatch(/^heard \d/);
      expect(Number(heard.slice(6)) - askedAt).toBeLessThan(100);
    } finally {
      child.child.stdin!.end();
      await child.exited;
    }
  });

  it("fails with a clear error naming the server when Redis is not reachable", async () => {
    const port = await closedPort();
    const s = signals({ url: `redis://127.0.0.1:${port}/0` });
    const refused = await s.request("t").then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(CancelSignalError);
    expect((refused as Error).message).toBe(
      `cannot reach Redis at 127.0.0.1:${port}/0: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    await expect(s.watch("t", () => undefined)).rejects.toThrow(`cannot reach Redis at 127.0.0.1:${port}/0: connect ECONNREFUSED`);
    await expect(s.isRequested("t")).rejects.toThrow(CancelSignalError);
    expect(() => new RedisCancelSignals({ url: TEST_REDIS_URL, client: admin })).toThrow("pass either url or client to RedisCancelSignals, not both");
  });

  it("works on a client it was given, and leaves it open on close()", async () => {
    const s = new RedisCancelSignals({ client: admin, keyPrefix: prefix });
    let heard = false;
    await s.watch("borrowed", () => (heard = true));
    await s.request("borrowed");
    for (let i = 0; i < 50 && !heard; i++) await sleep(10);
    expect(heard).toBe(true);
    await s.close();
    await expect(s.request("borrowed")).rejects.toThrow("the Redis cancel signals are closed");
    expect(await admin.ping()).toBe("PONG");
  });
});
