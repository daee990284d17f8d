/** File cancel signals: the conformance suite (two instances on one folder), then a request from another process. */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CancelSignalError } from "../../src/backends/errors.js";
import { FileCancelSignals } from "../../src/backends/files/cancel.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { describeCancelSignals } from "./cancel-conformance.js";

const root = mkdtempSync(join(tmpdir(), "canvasflow-file-cancel-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const clock = new ManualClock();
describeCancelSignals("FileCancelSignals", { open: () => new FileCancelSignals({ directory: join(root, "flags"), now: clock.now }), shared: true, clock });
// Without change notifications (a filesystem that has none), polling alone still hears a request in time.
describeCancelSignals("FileCancelSignals, polling only", {
  open: () => new FileCancelSignals({ directory: join(root, "polled"), notifications: false, pollMs: 20 }),
  shared: true,
});

const DIST_MODULE = resolve("dist/src/backends/files/cancel.js");
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const now = () => performance.timeOrigin + performance.now();

describe("FileCancelSignals", () => {
  it("keeps a request as <directory>/<taskId>-cancel holding its expiry; clear removes the file", async () => {
    const directory = join(root, "layout");
    const signals = new FileCancelSignals({ directory });
    const before = Date.now();
    await signals.request("task-1", { ttlSeconds: 30 });
    const flag = join(directory, "task-1-cancel");
    expect(signals.flagPath("task-1")).toBe(flag);
    const expiresAt = Date.parse(readFileSync(flag, "utf8").trim());
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30_000);
    await signals.clear("task-1");
    expect(existsSync(flag)).toBe(false);
    await signals.clear("task-1"); // nothing to clear is fine
    await signals.close();
  });

  it("takes a flag file without a date (touch) as a request that lives the default time from its modification", async () => {
    const directory = join(root, "touched");
    const signals = new FileCancelSignals({ directory });
    await signals.request("t", { ttlSeconds: 1 }); // creates the folder
    writeFileSync(join(directory, "t-cancel"), "");
    expect(await signals.isRequested("t")).toBe(true);
    const old = new Date(Date.now() - 601_000);
    utimesSync(join(directory, "t-cancel"), old, old);
    expect(await signals.isRequested("t")).toBe(false);
    await signals.close();
  });

  it("refuses bad options and use after close with CancelSignalError", async () => {
    expect(() => new FileCancelSignals({ directory: "" })).toThrow("file cancel signals need a directory");
    expect(() => new FileCancelSignals({ directory: root, pollMs: 0 })).toThrow("pollMs must be a positive number of milliseconds, got 0");
    const signals = new FileCancelSignals({ directory: join(root, "closed") });
    await expect(signals.request("t", { ttlSeconds: -5 })).rejects.toThrow("ttlSeconds must be a positive number of seconds, got -5");
    await signals.close();
    await expect(signals.request("t")).rejects.toBeInstanceOf(CancelSignalError);
    await expect(signals.watch("t", () => undefined)).rejects.toThrow("the cancel signals are closed");
  });

  it("hears a request made by another process within 100 ms", async () => {
    if (!existsSync(DIST_MODULE)) throw new Error(`${DIST_MODULE} is missing: run "npm run build" first (npm test does)`);
    const directory = join(root, "two-processes");
    // Long polling: only the change notification can be this fast.
    const signals = new FileCancelSignals({ directory, pollMs: 5_000 });
    const task = "cross-process";
    let heardAt = 0;
    const stop = await signals.watch(task, () => (heardAt = now()));
    const script = `
      const { FileCancelSignals } = await import(${JSON.stringify(DIST_MODULE)});
      const signals = new FileCancelSignals({ directory: ${JSON.stringify(directory)} });
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
