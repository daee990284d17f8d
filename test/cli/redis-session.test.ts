/**
 * `--session redis://…`: a session that pauses and resumes through a real Redis on 127.0.0.1:6379.
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { RedisSnapshotStore } from "../../src/backends/redis/session-store.js";
import { SessionLockedError } from "../../src/backends/errors.js";
import { cli, events } from "../helpers/cli.js";
import { canvasDsl, messageText, node } from "../helpers/dsl.js";
import { standIn } from "../helpers/http.js";
import { sharedTestRedis, TEST_REDIS_URL } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";

const redis = sharedTestRedis();
let admin: Redis;
const sessionKey = `canvasflow-test-cli-${process.pid}-${randomBytes(4).toString("hex")}`;
const redisKey = `canvasflow:session:${sessionKey}`;
// A connection name of its own, to see that the CLI's connection is gone when it returns.
const connectionName = `canvasflow-cli-test-${randomBytes(4).toString("hex")}`;
const session = `redis://127.0.0.1:6379/0?connectionName=${connectionName}#${sessionKey}`;

beforeEach(async () => {
  admin = await redis.get();
});

afterAll(async () => {
  if (admin) await admin.del(redisKey);
  await redis.close();
});

async function cliConnectionOpen(): Promise<boolean> {
  // The server drops a client right after answering its QUIT; allow it a moment.
  for (let i = 0; i < 50; i++) {
    const clients = (await admin.client("LIST")) as string;
    if (!clients.includes(`name=${connectionName}`)) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe("canvasflow run --session redis://…", () => {
  it("pauses (exit 3), then resumes from Redis with --input (exit 0), closing its connection each time", async () => {
    const first = await cli(["run", "fixtures/user-fill-up.json", "--session", session, "-q", "a badge please"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(3);
    expect(events(first.stdout).at(-1)?.event).toBe("user_inputs");
    // The turn's checkpoints were folded into a new base when it paused.
    const paused = Number(await admin.hget(redisKey, "version"));
    expect(paused).toBeGreaterThan(0);
    expect(await admin.exists(`canvasflow:session-checkpoints:${sessionKey}`)).toBe(0);
    expect(JSON.parse((await admin.hget(redisKey, "snapshot"))!).canvasflow).toMatchObject({ status: "paused", pending: { components: ["UserFillUp:Details"] } });
    expect(await cliConnectionOpen()).toBe(false);

    const second = await cli(["run", "fixtures/user-fill-up.json", "--session", session, "--input", "name=Ada", "--input", "colour=blue", "--input", "note=VIP"]);
    expect(second.code).toBe(0);
    const evs = events(second.stdout);
    expect(evs.map((e) => e.event)).not.toContain("workflow_started");
    expect(evs[0]).toMatchObject({ event: "node_started", data: { component_id: "UserFillUp:Details" } });
    expect(messageText(evs)).toBe("[blue] Ada VIP");
    expect(Number(await admin.hget(redisKey, "version"))).toBeGreaterThan(paused);
    expect(JSON.parse((await admin.hget(redisKey, "snapshot"))!).canvasflow.status).toBe("idle");
    expect(await cliConnectionOpen()).toBe(false);
  });

  it("holds the session's lock through the run: another worker's save is refused, and the lock is gone afterwards", async () => {
    const key = `${sessionKey}-race`;
    const other = new RedisSnapshotStore({ url: TEST_REDIS_URL });
    let refused: unknown;
    // The canvas calls this server mid-run; meanwhile another worker tries to save the session.
    // (A writer that ignores the lock altogether is not guarded against: the run writes its
    // checkpoints and its new base under its lease only.)
    const server = await standIn((_request, res) => {
      void other
        .save(key, canvasDsl({ begin: node("Begin") }, { note: "the other worker" }))
        .catch((error: unknown) => (refused = error))
        .then(() => res.end("pong"));
    });
    const url = `${server.base}/`;
    const file = scratchDir("canvasflow-cli-redis-").write("race.json", canvasDsl({
      begin: node("Begin", {}, ["Invoke:Ping"]),
      "Invoke:Ping": node("Invoke", { url, method: "get" }, ["Message:Done"]),
      "Message:Done": node("Message", { content: ["{Invoke:Ping@result}"] }),
    }));
    try {
      const r = await cli(["run", file, "--session", `redis://127.0.0.1:6379/0#${key}`, "--allow-private-network", "-q", "go"]);
      expect(messageText(events(r.stdout))).toBe("pong");
      expect(refused).toBeInstanceOf(SessionLockedError);
      expect((refused as Error).message).toContain(`session "${key}" (redis key canvasflow:session:${key}) is locked by another run (process ${process.pid} on `);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse((await admin.hget(`canvasflow:session:${key}`, "snapshot"))!).canvasflow.status).toBe("idle");
      expect(await admin.exists(`canvasflow:session-lock:${key}`)).toBe(0);
    } finally {
      await other.delete(key);
      await other.close();
    }
  });

  it("fails at once, running nothing, while another run holds the session's lock (exit 4)", async () => {
    const key = `${sessionKey}-locked`;
    const holder = new RedisSnapshotStore({ url: TEST_REDIS_URL });
    const lock = await holder.lock(key);
    try {
      const r = await cli(["run", "fixtures/hello.json", "--session", `redis://127.0.0.1:6379/0#${key}`, "-q", "x"]);
      expect(r.code).toBe(4);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(
        new RegExp(
          `^canvasflow: session "${key}" \\(redis key canvasflow:session:${key}\\) is locked by another run \\(process ${process.pid} on .*\\): ` +
            `lock key canvasflow:session-lock:${key}\\. It expires in \\d+ s unless its holder renews it\\. ` +
            `If no canvasflow run is using this session, clear it with: redis-cli DEL canvasflow:session-lock:${key}\n$`,
        ),
      );
      expect(await admin.exists(`canvasflow:session:${key}`)).toBe(0);
    } finally {
      await lock.release();
      await holder.close();
    }
  });

  it("exits 2 for a session in Redis that is not a snapshot, naming the key", async () => {
    const key = `${sessionKey}-corrupt`;
    await admin.hset(`canvasflow:session:${key}`, { snapshot: "{ nope", version: "1" });
    try {
      const r = await cli(["run", "fixtures/user-fill-up.json", "--session", `redis://127.0.0.1:6379/0#${key}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`session "${key}" (redis key canvasflow:session:${key}) is corrupt: not valid JSON`);
    } finally {
      await admin.del(`canvasflow:session:${key}`);
    }
  });

  it("exits 2 for a Redis URL without a key, and 1 with a clear message when Redis is not reachable", async () => {
    const noKey = await cli(["run", "fixtures/hello.json", "--session", "redis://127.0.0.1:6379/0"]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('--session: redis://127.0.0.1:6379/0 names no session: put its key after "#"');

    const down = await cli(["run", "fixtures/hello.json", "--session", "redis://127.0.0.1:1/0#s", "-q", "x"]);
    expect(down.code).toBe(1);
    expect(down.stderr).toBe("canvasflow: cannot reach Redis at 127.0.0.1:1/0: connect ECONNREFUSED 127.0.0.1:1\n");
    expect(down.stdout).toBe("");
  });
});
