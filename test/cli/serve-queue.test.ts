/**
 * `canvasflow serve --queue` flags in this process (main() with a test IO): what is refused, and
 * why (exit 2). Serving with the queue is tested with real processes in test/worker/serve-queue.test.ts.
 */
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { TEST_REDIS_URL } from "../helpers/redis.js";

describe("canvasflow serve --queue: its flags", () => {
  it("says what is wrong with them (exit 2)", async () => {
    process.env.CF_TEST_SHORT_DASHBOARD_KEY = "short";
    const cases: Array<[string[], string]> = [
      [["--workers", "2"], "--workers needs --queue redis://…"],
      [["--dashboard-key-env", "HOME"], "--dashboard-key-env needs --queue redis://…"],
      [["--queue", "http://127.0.0.1:6379"], "--queue must be a Redis URL (redis:// or rediss://)"],
      [["--queue", TEST_REDIS_URL, "--data", "/tmp/x"], "--data cannot be used with it"],
      [["--queue", TEST_REDIS_URL, "--postgres", "postgres://127.0.0.1/test"], "--postgres cannot be used with it"],
      [["--queue", TEST_REDIS_URL, "--redis", "redis://127.0.0.1:6380/0"], "--queue and --redis name different servers"],
      [["--queue", TEST_REDIS_URL, "--workers", "-1"], "--workers must be a decimal integer from 0 to 64"],
      [["--queue", TEST_REDIS_URL, "--worker-concurrency", "4"], "--worker-concurrency is for the workers of --workers N"],
      [["--queue", TEST_REDIS_URL, "--dashboard-path", "/q"], "--dashboard-path needs --dashboard-key-env NAME"],
      [["--queue", TEST_REDIS_URL, "--dashboard-key-env", "CF_TEST_NO_SUCH_VARIABLE"], "the environment variable CF_TEST_NO_SUCH_VARIABLE is not set"],
      [["--queue", TEST_REDIS_URL, "--dashboard-key-env", "CF_TEST_SHORT_DASHBOARD_KEY"], "the key must be at least 16 characters"],
      [["--queue", TEST_REDIS_URL, "--register", "no-such-module.mjs"], "--register no-such-module.mjs: there is no file at"],
    ];
    for (const [flags, message] of cases) {
      const run = await cli(["serve", "--port", "0", ...flags]);
      expect(run.code, flags.join(" ")).toBe(2);
      expect(run.stderr, flags.join(" ")).toContain(message);
    }
  });
});
