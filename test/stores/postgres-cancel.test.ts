/**
 * Cancel signals through PostgreSQL (127.0.0.1:5432, database test): the conformance suite, a
 * request from a real second process, a listening connection that is lost, and the flags table.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { resolve } from "node:path";
import type pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { CancelSignalError } from "../../src/backends/errors.js";
import { PostgresCancelSignals } from "../../src/backends/postgres/cancel.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { describeCancelSignals } from "./cancel-conformance.js";

const schema = uniqueTestSchema();
const postgres = sharedTestPostgres();
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
let admin: pg.Client;

beforeEach(async () => {
  admin = await postgres.get();
});

afterAll(async () => {
  if (admin) await dropSchema(admin, schema);
  await postgres.close();
});

describeCancelSignals("PostgresCancelSignals", { open: () => new PostgresCancelSignals({ url: TEST_POSTGRES_URL, schema }), shared: true });

describe("PostgresCancelSignals", () => {
  const opened: PostgresCancelSignals[] = [];
  let counter = 0;
  const freshTask = () => `pg-task-${Date.now().toString(36)}-${++counter}`;
  function signals(): PostgresCancelSignals {
    const created = new PostgresCancelSignals({ url: TEST_POSTGRES_URL, schema });
    opened.push(created);
    return created;
  }
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  it("keeps a request as a row with an expiry and announces it on <schema>_cancel", async () => {
    const s = signals();
    const task = freshTask();
    const listener = await postgres.get();
    const heard: string[] = [];
    const onNotice = (message: pg.Notification) => void heard.push(`${message.channel} ${message.payload}`);
    listener.on("notification", onNotice);
    await listener.query(`LISTEN ${schema}_cancel`);
    try {
      await s.request(task, { ttlSeconds: 60 });
      const [row] = (await admin.query(`SELECT extract(epoch FROM expires_at - now())::float8 AS left FROM ${schema}.cancel_flags WHERE task_id = $1`, [task])).rows;
      expect(row.left).toBeGreaterThan(58);
      for (let i = 0; i < 50 && heard.length === 0; i++) await sleep(10);
      expect(heard).toEqual([`${schema}_cancel ${task}`]);
      await s.clear(task);
      expect((await admin.query(`SELECT 1 FROM ${schema}.cancel_flags WHERE task_id = $1`, [task])).rows).toEqual([]);
    } finally {
      await listener.query(`UNLISTEN ${schema}_cancel`);
      listener.off("notification", onNotice);
    }
  });

  it("every watch of one instance shares its one listening connection", async () => {
    const listening = async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1`, [`LISTEN "${schema}_cancel"`])).rows[0].n as number;
    const before = await listening();
    const s = signals();
    const stops = await Promise.all(Array.from({ length: 5 }, () => s.watch(freshTask(), () => undefined)));
    stops.push(await s.watch(freshTask(), () => undefined));
    expect((await listening()) - before).toBe(1);
    for (const stop of stops) await stop();
    await s.close();
    // Its connection ends shortly after close().
    for (let i = 0; i < 100 && (await listening()) !== before; i++) await sleep(10);
    expect(await listening()).toBe(before);
  });

  it("hears requests sent by another process within 100 ms", async () => {
    const watching = signals();
    const tasks = Array.from({ length: 20 }, () => freshTask());
    const heardAt = new Map<string, number>();
    const stops = await Promise.all(tasks.map((task) => watching.watch(task, () => heardAt.set(task, performance.timeOrigin + performance.now()))));
    const dist = resolve("dist/src/backends/postgres/index.js");
    const script = `
      const { PostgresCancelSignals } = await import(${JSON.stringify(dist)});
      const signals = new PostgresCancelSignals({ url: ${JSON.stringify(TEST_POSTGRES_URL)}, schema: ${JSON.stringify(schema)} });
      await signals.isRequested("warm-up");
      for (const task of ${JSON.stringify(tasks)}) {
        await new Promise((done) => setTimeout(done, 20));
        console.log(task + " " + (performance.timeOrigin + performance.now()));
        await signals.request(task);
      }
      await signals.close();`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(err).toBe("");
    expect(code).toBe(0);
    for (let i = 0; i < 50 && heardAt.size < tasks.length; i++) await sleep(10);
    const latencies = out
      .trim()
      .split("\n")
      .map((line) => {
        const [task, askedAt] = line.split(" ");
        return heardAt.get(task)! - Number(askedAt);
      })
      .sort((a, b) => a - b);
    expect(heardAt.size).toBe(tasks.length);
    console.info(`PostgresCancelSignals across processes: p50 ${latencies[9].toFixed(1)} ms, max ${latencies[19].toFixed(1)} ms over 20 requests`);
    expect(latencies[19]).toBeLessThan(100);
    for (const stop of stops) await stop();
  });

  it("listens again when its connection is lost, and hears a request made meanwhile", async () => {
    const watching = signals();
    const asking = signals();
    const task = freshTask();
    let heard = 0;
    const stop = await watching.watch(task, () => heard++);
    const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`, [`LISTEN "${schema}_cancel"`]);
    expect(killed.rowCount).toBeGreaterThanOrEqual(1);
    await asking.request(task);
    for (let i = 0; i < 300 && heard === 0; i++) await sleep(10);
    expect(heard).toBe(1);
    // And it listens again: a new watch hears a new request.
    const later = freshTask();
    let heardLater = false;
    const stopLater = await watching.watch(later, () => (heardLater = true));
    await asking.request(later);
    for (let i = 0; i < 100 && !heardLater; i++) await sleep(10);
    expect(heardLater).toBe(true);
    await stop();
    await stopLater();
  });

  it("refuses a bad time to live, and fails clearly when PostgreSQL is not reachable", async () => {
    const s = signals();
    await expect(s.request(freshTask(), { ttlSeconds: 0 })).rejects.toThrow(new CancelSignalError("ttlSeconds must be a positive number of seconds, got 0").message);
    const away = new PostgresCancelSignals({ url: "postgres://postgres@127.0.0.1:1/test", connectionTimeoutMillis: 2_000 });
    try {
      await expect(away.request("t")).rejects.toThrow(new CancelSignalError("cannot reach PostgreSQL at 127.0.0.1:1/test: connect ECONNREFUSED 127.0.0.1:1").message);
      await expect(away.watch("t", () => undefined)).rejects.toBeInstanceOf(CancelSignalError);
    } finally {
      await away.close();
    }
    expect(() => new PostgresCancelSignals({ schema: "no such" })).toThrow(CancelSignalError);
    await s.close();
    await expect(s.isRequested("t")).rejects.toThrow("the cancel signals are closed");
  });
});
