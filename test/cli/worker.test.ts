/**
 * `canvasflow worker` in this process (main() with a test IO): its flags and their errors,
 * `--register` modules, an unreachable Redis, and a worker that runs a queued turn with a
 * registered component, reports it, and stops when told.
 */
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { builtinRegistry } from "../../src/components/builtins.js";
import { enqueueRun } from "../../src/worker/enqueue.js";
import { followEvents } from "../../src/durable/follow.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import type { ComponentRegistry } from "../../src/components/registry.js";
import { cli, liveIO } from "../helpers/cli.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { closedPort } from "../helpers/http.js";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";

const prefix = uniqueTestPrefix();
const scratch = scratchDir("canvasflow-worker-cli-");
const SHOUT = `export function register(registry) {
  registry.register({ name: "Shout", invoke(ctx) { ctx.setOutput("content", String(ctx.query).toUpperCase()); } });
}
`;
const shoutModule = scratch.write("shout.mjs", SHOUT);

afterAll(async () => {
  const admin = await connectTestRedis();
  await deleteKeys(admin, prefix);
  admin.disconnect();
});

describe("canvasflow worker", () => {
  it("says what is wrong with its flags (exit 2)", async () => {
    const cases: Array<[string[], string]> = [
      [[], "worker needs --redis URL"],
      [["--redis", TEST_REDIS_URL, "--concurrency", "0"], `--concurrency must be a decimal integer from 1 to 1000, got "0"`],
      [["--redis", TEST_REDIS_URL, "--durability", "exit"], "--durability must be sync or async for a worker"],
      [["--redis", TEST_REDIS_URL, "--stall-timeout", "soon"], "--stall-timeout must be a number of seconds"],
      [["--redis", TEST_REDIS_URL, "--queue", "a:b"], `the queue name must be 1 to 100 letters, digits, ".", "_" or "-", got "a:b"`],
      [["--redis", "http://127.0.0.1:6379"], "the Redis URL must start with redis:// or rediss://"],
      [["--redis", TEST_REDIS_URL, "extra"], `worker takes no arguments, got "extra"`],
    ];
    for (const [flags, message] of cases) {
      const run = await cli(["worker", ...flags]);
      expect(run.code, flags.join(" ")).toBe(2);
      expect(run.stderr, flags.join(" ")).toContain(message);
    }
  });

  it("refuses a --register module that is missing, cannot load, has no register function, or fails in it", async () => {
    const cases: Array<[string, string]> = [
      [scratch.dir + "/nowhere.mjs", `there is no file at ${scratch.dir}/nowhere.mjs`],
      [scratch.write("broken.mjs", "export function register( {"), "the module could not be loaded"],
      [scratch.write("empty.mjs", "export const components = [];"), `the module exports no register(registry) function`],
      [scratch.write("throws.mjs", "export default function () { throw new Error('no thanks'); }"), "its register(registry) failed: no thanks"],
      [scratch.write("clash.mjs", "export function register(r) { r.register({ name: 'Message', invoke() {} }); }"), "its register(registry) failed:"],
    ];
    for (const [module, message] of cases) {
      const run = await cli(["worker", "--redis", TEST_REDIS_URL, "--register", module]);
      expect(run.code, module).toBe(2);
      expect(run.stderr, module).toContain(`--register ${module}: ${message}`);
    }
  });

  it("exits 1 naming the server when Redis cannot be reached", async () => {
    const port = await closedPort();
    const run = await cli(["worker", "--redis", `redis://127.0.0.1:${port}/0`, "--prefix", prefix]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`canvasflow: cannot reach Redis at 127.0.0.1:${port}/0`);
  });

  it("runs a queued turn with a registered component, says how it ended, and stops when told", async () => {
    const live = liveIO();
    const exited = main(["worker", "--redis", TEST_REDIS_URL, "--prefix", prefix, "--queue", "cli", "--register", shoutModule, "--concurrency", "2"], live.io);
    for (let i = 0; i < 600 && !live.stderr().includes("takes runs"); i++) await new Promise((r) => setTimeout(r, 50));
    expect(live.stderr()).toMatch(/canvasflow: worker \S+ takes runs from the queue "cli" \(prefix canvasflow-test:[^)]*\), 2 at a time/);

    const server = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
    const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: "cli" });
    const registry: ComponentRegistry = builtinRegistry();
    registry.register({ name: "Shout", invoke: () => undefined });
    try {
      const dsl = canvasDsl({ begin: node("Begin", {}, ["Shout:S"]), "Shout:S": node("Shout", {}, ["Message:M"]), "Message:M": node("Message", { content: ["{Shout:S@content}"] }) });
      const run = await enqueueRun({ session: "cli-1", dsl, query: "hello" }, { queue, store: server.runs, registry });
      let text = "";
      for await (const { event } of followEvents(server.runs, "cli-1", { messageId: run.jobId, pollMs: 20 })) {
        if (event.event === "message") text += String((event.data as { content: string }).content);
      }
      expect(text).toBe("HELLO");
      for (let i = 0; i < 200 && !live.stderr().includes(`run ${run.jobId}:`); i++) await new Promise((r) => setTimeout(r, 25));
      expect(live.stderr()).toContain(`canvasflow: run ${run.jobId}: finished\n`);
      // Nothing of the run's content is logged.
      expect(live.stderr()).not.toContain("HELLO");
    } finally {
      await queue.queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      await server.close();
    }
    live.stop();
    expect(await exited).toBe(0);
    expect(live.stderr()).toContain("canvasflow: stopping: no new runs; 0 still going (30 s to finish)\ncanvasflow: stopped\n");
  }, 60_000);

  it("is in the help", async () => {
    const run = await cli(["--help"]);
    expect(run.stdout).toContain("canvasflow worker --redis URL [--queue NAME]");
    expect(run.stdout).toContain("worker: takes queued runs");
  });
});
