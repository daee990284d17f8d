/**
 * The SQLite session store: the conformance suite with two stores on one database file (as two
 * processes would share it), expiry on a moved clock, and a lease held by another process.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteDatabase } from "../../src/backends/sqlite/database.js";
import { SqliteSnapshotStore } from "../../src/backends/sqlite/session-store.js";
import { SessionLockedError } from "../../src/backends/errors.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { describeSnapshotStore, tinySnapshot } from "./conformance.js";

const root = mkdtempSync(join(tmpdir(), "canvasflow-sqlite-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const file = join(root, "canvasflow.db");
const clock = new ManualClock();

describeSnapshotStore("SqliteSnapshotStore", {
  open: () => new SqliteSnapshotStore({ file, now: clock.now }),
  shared: true,
  expires: true,
  checkpoints: true,
  clock,
  async corrupt(key, kind) {
    const db = openSqliteDatabase(file);
    db.prepare("INSERT INTO sessions (key, body, version, last_seq) VALUES (?, ?, 1, 0)").run(key, kind === "invalid-json" ? '{"components": ' : "[1, 2]");
    db.close();
  },
});

describe("SqliteSnapshotStore", () => {
  it("keeps the most recent maxEvents events, across checkpoints and logged events", async () => {
    const store = new SqliteSnapshotStore({ file: join(root, "capped.db"), maxEvents: 3 });
    await store.save("s", tinySnapshot("base"));
    const lock = await store.lock("s");
    const events = (ids: string[]) => ids.map((id) => ({ id, json: JSON.stringify({ event: "node_finished", id }) }));
    await store.append("s", { seq: 1, delta: "{}", events: events(["1-1", "1-2"]) }, { lock });
    await store.logEvents("s", events(["1-3", "1-4"]), { lock });
    await store.append("s", { seq: 2, delta: "{}", events: events(["1-5"]) }, { lock });
    expect((await store.events("s")).map((e) => e.id)).toEqual(["1-3", "1-4", "1-5"]);
    expect(await store.lastEventId("s")).toBe("1-5");
    await lock.release();
    await store.close();
  });

  it("refuses a lock another process holds, and takes it over once that process is killed", async () => {
    const shared = join(root, "two-processes.db");
    const moduleUrl = new URL(`file://${resolve("dist/src/backends/sqlite/session-store.js")}`).href;
    const child = spawn(process.execPath, ["--input-type=module", "-e", `const { SqliteSnapshotStore } = await import(${JSON.stringify(moduleUrl)}); const s = new SqliteSnapshotStore({ file: ${JSON.stringify(shared)} }); await s.lock("held"); console.log("locked"); setInterval(() => {}, 1000);`], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((done, fail) => {
      child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && done());
      child.on("exit", (code) => fail(new Error(`the child exited (${code}) before it locked`)));
    });
    const store = new SqliteSnapshotStore({ file: shared });
    try {
      const refused = await store.lock("held").then(() => undefined, (error: unknown) => error);
      expect(refused).toBeInstanceOf(SessionLockedError);
      expect((refused as Error).message).toContain(`process ${child.pid} on `);
      child.kill("SIGKILL");
      await new Promise((done) => child.on("exit", done));
      // Its holder is a dead process on this host: the lease is taken over at once.
      const lock = await store.lock("held");
      await store.save("held", tinySnapshot("after the kill"), { lock });
      expect((await store.load("held"))?.snapshot).toEqual(tinySnapshot("after the kill"));
      await lock.release();
    } finally {
      child.kill("SIGKILL");
      await store.close();
    }
  });
});
