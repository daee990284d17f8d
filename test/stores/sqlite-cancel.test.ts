/** SQLite cancel signals: the conformance suite (two connections on one file), then a request from another process. */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CancelSignalError } from "../../src/backends/errors.js";
import { SqliteCancelSignals } from "../../src/backends/sqlite/cancel.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { describeCancelSignals } from "./cancel-conformance.js";

const root = mkdtempSync(join(tmpdir(), "canvasflow-sqlite-cancel-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const clock = new ManualClock();
describeCancelSignals("SqliteCancelSignals", { open: () => new SqliteCancelSignals({ file: join(root, "canvasflow.db"), now: clock.now }), shared: true, clock });

const DIST_MODULE = resolve("dist/src/backends/sqlite/cancel.js");
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const now = () => performance.timeOrigin + performance.now();

describe("SqliteCancelSignals", () => {
  it("refuses bad options and works no more once closed", async () => {
    expect(() => new SqliteCancelSignals({ file: join(root, "x.db"), pollMs: 0 })).toThrow("pollMs must be a positive number of milliseconds, got 0");
    const signals = new SqliteCancelSignals({ file: join(root, "x.db") });
    await expect(signals.request("t", { ttlSeconds: -5 })).rejects.toThrow("ttlSeconds must be a positive number of seconds, got -5");
    await signals.close();
    await expect(signals.request("t")).rejects.toBeInstanceOf(CancelSignalError);
    await expect(signals.watch("t", () => undefined)).rejects.toThrow("the cancel signals are closed");
  });

  it("hears a request made by another process within 100 ms", async () => {
    if (!existsSync(DIST_MODULE)) throw new Error(`${DIST_MODULE} is missing: run "npm run build" first (npm test does)`);
    const file = join(root, "two-processes.db");
    const signals = new SqliteCancelSignals({ file });
    const task = "cross-process";
    let heardAt = 0;
    const stop = await signals.watch(task, () => (heardAt = now()));
    const script = `
      const { SqliteCancelSignals } = await import(${JSON.stringify(DIST_MODULE)});
      const signals = new SqliteCancelSignals({ file: ${JSON.stringify(file)} });
      await new Promise((done) => setTimeout(done, 100));
      const askedAt = performance.timeOrigin + performance.now();
      await signals.request(${JSON.stringify(task)});
      console.log(askedAt);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code).toBe(0);
    const askedAt = Number(out.trim());
    for (let i = 0; i < 100 && heardAt === 0; i++) await sleep(10);
    expect(heardAt).toBeGreaterThan(0);
    expect(heardAt - askedAt).toBeLessThan(100);
    await stop();
    await signals.close();
  });
});
