/** The file store: the conformance suite, then file layout, locks, path keys and the checkpoint log. */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FileSnapshotStore } from "../../src/backends/files/session-store.js";
import { openSnapshotStore } from "../../src/backends/open-sessions.js";
import { SessionLockedError, SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError } from "../../src/backends/errors.js";
import type { CheckpointRecord } from "../../src/backends/contracts.js";
import { describeSnapshotStore, pausedSnapshot, tinySnapshot } from "./conformance.js";

const root = mkdtempSync(join(tmpdir(), "canvasflow-file-store-"));
const sessions = join(root, "sessions");
// A real full disk: a 256 KiB tmpfs (needs root and mount; where that is refused, the test that
// uses it is skipped and says why in its name).
const smallDisk = join(root, "small-disk");
mkdirSync(smallDisk);
const mounted = process.platform === "linux" && spawnSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", smallDisk]).status === 0;
afterAll(() => {
  if (mounted) spawnSync("umount", [smallDisk]);
  rmSync(root, { recursive: true, force: true });
});

describeSnapshotStore("FileSnapshotStore", {
  open: () => new FileSnapshotStore({ directory: sessions }),
  shared: true,
  expires: false,
  checkpoints: true,
  badKeys: ["../escape", "a/b", "a\\b", "/etc/passwd", ".hidden", ".", ".."],
  async corrupt(key, kind) {
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, `${key}.json`), kind === "invalid-json" ? '{"components": ' : "[1, 2]");
  },
});

describe("FileSnapshotStore", () => {
  it("keeps exactly the snapshot JSON in <directory>/<key>.json, creating the directory, leaving no temp or lock file", async () => {
    const directory = join(root, "layout", "nested");
    const store = new FileSnapshotStore({ directory });
    const snapshot = await pausedSnapshot();
    const version = await store.save("ada", snapshot);
    expect(readFileSync(join(directory, "ada.json"), "utf8")).toBe(JSON.stringify(snapshot));
    expect(readdirSync(directory)).toEqual(["ada.json"]);
    expect(store.pathFor("ada")).toBe(join(directory, "ada.json"));
    expect(new FileSnapshotStore({ directory, extension: ".session" }).pathFor("ada")).toBe(join(directory, "ada.session"));
    expect((await store.load("ada"))?.version).toBe(version);
  });

  it("maps every accepted key to a file directly inside the directory", () => {
    const store = new FileSnapshotStore({ directory: sessions });
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (key) => {
        let file: string;
        try {
          file = store.pathFor(key);
        } catch (error) {
          expect(error).toBeInstanceOf(SnapshotKeyError);
          return;
        }
        expect(dirname(resolve(file))).toBe(resolve(sessions));
      }),
      { numRuns: 500 },
    );
  });

  it("without a directory, a key is the session file's path; a hand-written file's version is its content", async () => {
    const file = join(root, "by-path.json");
    writeFileSync(file, JSON.stringify(tinySnapshot("by hand"), null, 2));
    const { store, key, location } = openSnapshotStore(file);
    expect(store).toBeInstanceOf(FileSnapshotStore);
    expect({ key, location }).toEqual({ key: file, location: file });
    const loaded = await store.load(key);
    expect(loaded?.snapshot).toEqual(tinySnapshot("by hand"));
    expect((await store.load(key))?.version).toBe(loaded?.version);
    await store.save(key, tinySnapshot("by store"), { expectedVersion: loaded!.version });
    expect(readFileSync(file, "utf8")).toBe(JSON.stringify(tinySnapshot("by store")));
    // A session file changed by hand in the meantime is a conflict.
    writeFileSync(file, JSON.stringify(tinySnapshot("edited")));
    await expect(store.save(key, tinySnapshot("stale"), { expectedVersion: loaded!.version })).rejects.toThrow(/was changed by another writer/);
    await store.close();
  });

  it("names the file when a key is a directory or the file cannot be written", async () => {
    const store = new FileSnapshotStore();
    await expect(store.load(root)).rejects.toMatchObject({ name: "SnapshotKeyError", key: root, message: `session file ${root} is a directory` });
    const nowhere = join(root, "no-such-dir", "s.json");
    expect(await store.load(nowhere)).toBeUndefined();
    expect(await store.delete(nowhere)).toBe(false);
    await expect(store.save(nowhere, tinySnapshot("x"))).rejects.toThrow(`session file ${nowhere}: cannot write it: ENOENT`);
  });

  it("waits for another save's lock, then reports the lock file to delete", async () => {
    const directory = join(root, "locked");
    const store = new FileSnapshotStore({ directory, lockTimeoutMs: 200 });
    await store.save("s", tinySnapshot("before"));
    const lock = join(directory, ".s.json.lock");
    writeFileSync(lock, `${process.ppid} ${hostname()} f00d save`); // a live holder: the process that started this one
    await expect(store.save("s", tinySnapshot("blocked"))).rejects.toThrow(
      new RegExp(
        `^session "s" \\(${escape(join(directory, "s.json"))}\\) is locked by another writer \\(process ${process.ppid} on ${escape(hostname())}, since [^)]+\\) ` +
          `for more than 200 ms: lock file ${escape(lock)}\\. If no process is saving this session, delete the lock file$`,
      ),
    );
    expect((await store.load("s"))?.snapshot).toEqual(tinySnapshot("before")); // reading needs no lock
    // The holder lets go while a save waits: the save goes through.
    const waiting = new FileSnapshotStore({ directory, lockTimeoutMs: 5_000 }).save("s", tinySnapshot("after"));
    setTimeout(() => unlinkSync(lock), 100);
    await waiting;
    expect((await store.load("s"))?.snapshot).toEqual(tinySnapshot("after"));
    expect(existsSync(lock)).toBe(false);
  });

  it("refuses a save at once while a run holds the session's lock, naming the lock file", async () => {
    const directory = join(root, "run-locked");
    // A long wait: were the save to wait for a run's lock, this test would time out.
    const store = new FileSnapshotStore({ directory, lockTimeoutMs: 60_000 });
    await store.save("s", tinySnapshot("before"));
    const lock = join(directory, ".s.json.lock");
    writeFileSync(lock, `${process.ppid} ${hostname()} f00d run`);
    const refused = await store.save("s", tinySnapshot("blocked")).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionLockedError);
    expect(refused).toMatchObject({ key: "s", lockLocation: lock });
    expect((refused as Error).message).toContain(`session "s" (${join(directory, "s.json")}) is locked by another run (process ${process.ppid} on ${hostname()}, since `);
    expect((refused as Error).message).toContain(`lock file ${lock}. If no canvasflow run is using this session, delete the lock file`);
    await expect(store.lock("s")).rejects.toBeInstanceOf(SessionLockedError);
    unlinkSync(lock);
  });

  it("counts an empty, garbled or unreadable lock file as stale once it is lockTimeoutMs old", async () => {
    const directory = join(root, "empty-lock");
    const store = new FileSnapshotStore({ directory, lockTimeoutMs: 1_000 });
    await store.save("s", tinySnapshot("before"));
    const lock = join(directory, ".s.json.lock");
    const longAgo = new Date(Date.now() - 60_000);

    // Its writer died between creating it and writing it: a save takes it over instead of failing.
    writeFileSync(lock, "");
    utimesSync(lock, longAgo, longAgo);
    await store.save("s", tinySnapshot("saved over an old empty lock"));
    expect((await store.load("s"))?.snapshot).toEqual(tinySnapshot("saved over an old empty lock"));
    expect(existsSync(lock)).toBe(false);

    for (const content of ["", "not a lock", "12 host token nonsense"]) {
      writeFileSync(lock, content);
      utimesSync(lock, longAgo, longAgo);
      const taken = await store.lock("s");
      expect(readFileSync(lock, "utf8")).toMatch(new RegExp(`^${process.pid} ${escape(hostname())} [0-9a-f]+ run$`));
      await taken.release();
      expect(existsSync(lock)).toBe(false);
    }

    // A young one may still be being written: it is reported, with when it will count as stale.
    writeFileSync(lock, "");
    const refused = await store.lock("s").then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionLockedError);
    expect((refused as Error).message).toMatch(
      new RegExp(`^session "s" \\(.*\\) is locked: its lock file ${escape(lock)} is empty \\(written [^)]+\\); it counts as stale 1 s from now\\. If no canvasflow run is using this session, delete the lock file$`),
    );
    unlinkSync(lock);
  });

  it("takes over a lock with this process's pid that this process does not hold (an earlier process had the pid)", async () => {
    const directory = join(root, "reused-pid");
    mkdirSync(directory, { recursive: true });
    const lock = join(directory, ".s.json.lock");
    writeFileSync(lock, `${process.pid} ${hostname()} deadbeef run`);
    const store = new FileSnapshotStore({ directory });
    const taken = await store.lock("s");
    expect(readFileSync(lock, "utf8")).not.toContain("deadbeef");
    // The lock this process does hold is not taken over by a second store in it.
    await expect(new FileSnapshotStore({ directory }).lock("s")).rejects.toBeInstanceOf(SessionLockedError);
    await taken.release();
  });

  it("reports a session lock that cannot be created, naming the lock file", async () => {
    const store = new FileSnapshotStore();
    const nowhere = join(root, "no-such-dir", "s.json");
    await expect(store.lock(nowhere)).rejects.toThrow(`session file ${nowhere}: cannot create its lock file ${join(root, "no-such-dir", ".s.json.lock")}: the folder ${join(root, "no-such-dir")} does not exist`);
  });

  it("refuses to save under its lock once the lock file was deleted or replaced", async () => {
    const directory = join(root, "lost-lock");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    unlinkSync(lock.location);
    await expect(store.save("s", tinySnapshot("x"), { lock })).rejects.toThrow(
      `session "s" (${join(directory, "s.json")}): its lock file ${lock.location} no longer holds this run's lock (deleted or taken over); nothing was written`,
    );
    expect(await store.load("s")).toBeUndefined();
    await lock.release();
  });

  it("takes over a lock left by a process that no longer runs", async () => {
    const directory = join(root, "stale");
    const store = new FileSnapshotStore({ directory, lockTimeoutMs: 200 });
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, ".s.json.lock"), `${dead} ${hostname()}`);
    await store.save("s", tinySnapshot("saved"));
    expect((await store.load("s"))?.snapshot).toEqual(tinySnapshot("saved"));
    expect(readdirSync(directory)).toEqual(["s.json"]);
    // A run's lock too (what kill -9 leaves behind).
    writeFileSync(join(directory, ".s.json.lock"), `${dead} ${hostname()} f00d run`);
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("under the lock"), { lock });
    await lock.release();
    expect(readdirSync(directory)).toEqual(["s.json"]);
  });
});

/** Text as a regular expression that matches exactly it. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A checkpoint: a small delta (padded to `pad` characters) and events with these ids. */
function record(seq: number, eventIds: string[] = [], pad = 0): CheckpointRecord {
  return {
    seq,
    delta: JSON.stringify({ step: seq, ...(pad > 0 ? { pad: "x".repeat(pad) } : {}) }),
    events: eventIds.map((id) => ({ id, json: JSON.stringify({ event: "node_finished", id }) })),
  };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The log's complete lines, parsed; what follows the last newline is returned apart. */
function readLog(file: string): { lines: Array<Record<string, unknown>>; tail: string } {
  const text = readFileSync(file, "utf8");
  const cut = text.lastIndexOf("\n") + 1;
  return { lines: text.slice(0, cut).split("\n").slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>), tail: text.slice(cut) };
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: Error) => error,
  );
}

describe("FileSnapshotStore: the checkpoint log", () => {
  it("appends one JSON line per checkpoint, with its events, to .<name>.log beside the untouched session file", async () => {
    const directory = join(root, "log-layout");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    const snapshot = tinySnapshot("base");
    await store.save("s", snapshot, { lock });
    expect(readdirSync(directory).sort()).toEqual([".s.json.lock", "s.json"]); // no log before the first checkpoint
    const v1 = await store.append("s", record(1, ["1-1", "1-2"]), { lock });
    const v2 = await store.append("s", record(2), { lock });
    const log = join(directory, ".s.json.log");
    expect(store.logPathFor("s")).toBe(log);
    expect(readFileSync(join(directory, "s.json"), "utf8")).toBe(JSON.stringify(snapshot));
    const { lines, tail } = readLog(log);
    expect(tail).toBe("");
    const gen = lines[0].gen as string;
    expect(gen).toMatch(/^[0-9a-f]{12}$/);
    expect(lines).toEqual([
      { base: sha256(JSON.stringify(snapshot)), gen, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      {
        gen,
        seq: 1,
        delta: { step: 1 },
        events: [
          { id: "1-1", event: { event: "node_finished", id: "1-1" } },
          { id: "1-2", event: { event: "node_finished", id: "1-2" } },
        ],
      },
      { gen, seq: 2, delta: { step: 2 }, events: [] },
    ]);
    // The version names the base, its generation and the last checkpoint.
    expect(v1).toBe(`${sha256(JSON.stringify(snapshot))}.${gen}.1`);
    expect(v2).toBe(`${sha256(JSON.stringify(snapshot))}.${gen}.2`);
    expect((await new FileSnapshotStore({ directory }).load("s"))?.version).toBe(v2);
    await lock.release();
  });

  it("a new base drops the checkpoints and compacts the log to the events kept and the new base's line; no events, no log", async () => {
    const directory = join(root, "log-compaction");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    for (let seq = 1; seq <= 5; seq++) await store.append("s", record(seq, seq === 2 ? ["1-1"] : [], 1_000), { lock });
    await store.save("s", tinySnapshot("compacted"), { lock });
    const { lines } = readLog(store.logPathFor("s"));
    expect(lines).toEqual([
      { id: "1-1", event: { event: "node_finished", id: "1-1" } },
      { base: sha256(JSON.stringify(tinySnapshot("compacted"))), gen: expect.any(String), at: expect.any(String) },
    ]);
    await store.append("s", record(1, ["2-1"]), { lock });
    expect(await store.load("s")).toMatchObject({ snapshot: tinySnapshot("compacted"), deltas: [{ step: 1 }] });
    expect((await store.events("s")).map((e) => e.id)).toEqual(["1-1", "2-1"]);

    // Checkpoints without events leave nothing to keep: the log goes.
    const other = new FileSnapshotStore({ directory });
    const otherLock = await other.lock("other");
    await other.save("other", tinySnapshot("base"), { lock: otherLock });
    await other.append("other", record(1), { lock: otherLock });
    expect(existsSync(other.logPathFor("other"))).toBe(true);
    await other.save("other", tinySnapshot("next"), { lock: otherLock });
    expect(existsSync(other.logPathFor("other"))).toBe(false);
    expect(await other.load("other")).toMatchObject({ snapshot: tinySnapshot("next"), deltas: [] });
    await other.append("other", record(1), { lock: otherLock });
    expect((await other.load("other"))?.deltas).toEqual([{ step: 1 }]);
    await otherLock.release();
    await store.close();
  });

  it("skips a torn last line (a crash in the middle of a write) when reading, and cuts it off before the next write", async () => {
    // Key-as-path mode, as the CLI's --session FILE uses it.
    const directory = join(root, "torn");
    mkdirSync(directory, { recursive: true });
    const file = join(directory, "run.json");
    const log = join(directory, ".run.json.log");
    const first = new FileSnapshotStore();
    const lock = await first.lock(file);
    await first.save(file, tinySnapshot("base"), { lock });
    await first.append(file, record(1, ["1-1"]), { lock });
    const v2 = await first.append(file, record(2, ["1-2"]), { lock });
    await lock.release();
    const gen = readLog(log).lines[0].gen as string;
    // What a process killed in the middle of writing checkpoint 3 leaves.
    const torn = `{"gen":"${gen}","seq":3,"delta":{"step":3},"events":[{"id":"1-3","ev`;
    appendFileSync(log, torn);

    const second = new FileSnapshotStore();
    expect(await second.load(file)).toEqual({ snapshot: tinySnapshot("base"), version: v2, deltas: [{ step: 1 }, { step: 2 }] });
    expect((await second.events(file)).map((e) => e.id)).toEqual(["1-1", "1-2"]);
    expect(readFileSync(log, "utf8").endsWith(torn)).toBe(true); // reading changes nothing

    const again = await second.lock(file);
    await second.append(file, record(3, ["1-3"]), { lock: again });
    const { lines, tail } = readLog(log);
    expect(tail).toBe("");
    expect(lines.map((line) => line.seq)).toEqual([undefined, 1, 2, 3]);
    expect((await second.load(file))?.deltas).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
    expect((await second.events(file)).map((e) => e.id)).toEqual(["1-1", "1-2", "1-3"]);

    // A save cuts a torn tail off too, before the new base's line.
    appendFileSync(log, '{"gen":"');
    await second.save(file, tinySnapshot("next"), { lock: again });
    expect(readLog(log).tail).toBe("");
    expect((await second.events(file)).map((e) => e.id)).toEqual(["1-1", "1-2", "1-3"]);
    await again.release();
  });

  it("reports a garbled complete line as SnapshotCorruptError naming the log and the line, and overwrites nothing", async () => {
    const directory = join(root, "garbled");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    for (let seq = 1; seq <= 3; seq++) await store.append("s", record(seq, [`1-${seq}`]), { lock });
    await lock.release();
    const log = store.logPathFor("s");
    const lines = readFileSync(log, "utf8").split("\n");
    lines[2] = lines[2].slice(0, 20); // checkpoint 2 cut short, yet a complete line
    writeFileSync(log, lines.join("\n"));
    const before = { log: readFileSync(log, "utf8"), session: readFileSync(join(directory, "s.json"), "utf8") };

    const where = `session "s" (${join(directory, "s.json")}): its checkpoint log ${log} is corrupt at line 3: not valid JSON`;
    for (const attempt of [() => store.load("s"), () => store.events("s"), () => store.save("s", tinySnapshot("over it"))]) {
      const error = await caught(attempt());
      expect(error).toBeInstanceOf(SnapshotCorruptError);
      expect(error).toMatchObject({ key: "s" });
      expect(error.message).toContain(where);
      expect(error.message).toContain("Nothing was changed; to start the session over, delete it");
    }
    const again = await store.lock("s");
    await expect(store.append("s", record(4), { lock: again })).rejects.toThrow(where);
    expect({ log: readFileSync(log, "utf8"), session: readFileSync(join(directory, "s.json"), "utf8") }).toEqual(before);

    // A missing checkpoint in the middle is corrupt too.
    lines[2] = JSON.stringify({ gen: JSON.parse(lines[1]).gen, seq: 7, delta: {}, events: [] });
    writeFileSync(log, lines.join("\n"));
    await expect(store.load("s")).rejects.toThrow(`its checkpoint log ${log} is corrupt at line 3: checkpoint 7 follows checkpoint 1 of the same base`);
    // Deleting is the way out.
    expect(await store.delete("s", { lock: again })).toBe(true);
    expect(readdirSync(directory)).toEqual([".s.json.lock"]);
    await again.release();
  });

  it("refuses a checkpoint whose delta or event is not JSON, writing nothing", async () => {
    const directory = join(root, "not-json");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    await expect(store.append("s", { seq: 1, delta: "{nope", events: [] }, { lock })).rejects.toThrow(
      /^session "s" \(.*\): checkpoint 1: the delta is not valid JSON \(.*\); nothing was written$/,
    );
    await expect(store.append("s", { seq: 1, delta: "{}", events: [{ id: "1-1", json: "[1]" }] }, { lock })).rejects.toThrow(
      "checkpoint 1: event 1-1 is not a JSON object; nothing was written",
    );
    expect(existsSync(store.logPathFor("s"))).toBe(false);
    // JSON over several lines is kept on one.
    await store.append("s", { seq: 1, delta: '{\n  "a": 1\n}', events: [{ id: "1-1", json: '{\n"event": "x"}' }] }, { lock });
    expect(await store.load("s")).toMatchObject({ deltas: [{ a: 1 }] });
    expect(await store.events("s")).toEqual([{ id: "1-1", event: { event: "x" } }]);
    await lock.release();
  });

  it.runIf(mounted)("refuses a checkpoint the disk has no room for, naming the log; what is stored stays readable and the run goes on once there is room", async () => {
    const store = new FileSnapshotStore({ directory: smallDisk });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    const filler = join(smallDisk, "filler");
    writeFileSync(filler, Buffer.alloc(160 * 1024));
    let stored = 0;
    let refused: Error | undefined;
    while (refused === undefined && stored < 200) {
      refused = await store.append("s", record(stored + 1, [`1-${stored + 1}`], 3_000), { lock }).then(
        () => {
          stored++;
          return undefined;
        },
        (error: Error) => error,
      );
    }
    expect(refused).toBeInstanceOf(SnapshotStoreError);
    const log = store.logPathFor("s");
    expect(refused!.message).toBe(`session "s" (${join(smallDisk, "s.json")}): cannot write checkpoint ${stored + 1} to its checkpoint log ${log}: ENOSPC: no space left on device, write; nothing was written`);
    expect(readLog(log).tail).toBe("");
    const other = new FileSnapshotStore({ directory: smallDisk });
    expect((await other.load("s"))?.deltas).toHaveLength(stored);

    // A new base cannot be written either: the session is as it was.
    await expect(store.save("s", { ...tinySnapshot("big"), pad: "x".repeat(64 * 1024) }, { lock })).rejects.toThrow(/ENOSPC/);
    expect(await other.load("s")).toMatchObject({ snapshot: tinySnapshot("base"), deltas: { length: stored } });

    unlinkSync(filler);
    await store.append("s", record(stored + 1, [`1-${stored + 1}`], 3_000), { lock });
    expect((await other.load("s"))?.deltas).toHaveLength(stored + 1);
    expect((await other.events("s")).map((e) => e.id).slice(-2)).toEqual([`1-${stored}`, `1-${stored + 1}`]);
    await lock.release();
  });
  if (!mounted) it.skip("refuses a checkpoint the disk has no room for (skipped: cannot mount a small tmpfs here; needs root on Linux)", () => undefined);

  it("keeps the old base and its checkpoints when a save stopped before its rename; the run goes on in that generation", async () => {
    const directory = join(root, "save-interrupted");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    await store.append("s", record(1, ["1-1"]), { lock });
    const v2 = await store.append("s", record(2), { lock });
    await lock.release();
    // What a save of a new base leaves when the process dies before the rename: its base line.
    appendFileSync(store.logPathFor("s"), `{"base":"${sha256("the new base")}","gen":"0123456789ab","at":"2024-01-01T00:00:00.000Z"}\n`);
    const other = new FileSnapshotStore({ directory });
    expect(await other.load("s")).toEqual({ snapshot: tinySnapshot("base"), version: v2, deltas: [{ step: 1 }, { step: 2 }] });
    const again = await other.lock("s");
    await other.append("s", record(3), { lock: again });
    expect((await other.load("s"))?.deltas).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
    await again.release();
  });

  it("a session file changed by hand has no checkpoints (its version is its content's hash); the next append opens a generation for it", async () => {
    const directory = join(root, "hand-edited");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    await store.append("s", record(1, ["1-1"]), { lock });
    await lock.release();
    const edited = JSON.stringify(tinySnapshot("edited by hand"));
    writeFileSync(join(directory, "s.json"), edited);
    expect(await store.load("s")).toEqual({ snapshot: tinySnapshot("edited by hand"), version: sha256(edited), deltas: [] });
    const again = await store.lock("s");
    await store.append("s", record(1, ["1-2"]), { lock: again });
    expect((await store.load("s"))?.deltas).toEqual([{ step: 1 }]);
    expect((await store.events("s")).map((e) => e.id)).toEqual(["1-1", "1-2"]);
    await again.release();
  });

  it("keeps the most recent maxEvents events, across new bases", async () => {
    const directory = join(root, "capped");
    const store = new FileSnapshotStore({ directory, maxEvents: 3 });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    await store.append("s", record(1, ["1-1", "1-2"]), { lock });
    await store.append("s", record(2, ["1-3", "1-4"]), { lock });
    expect((await store.events("s")).map((e) => e.id)).toEqual(["1-2", "1-3", "1-4"]);
    expect((await store.events("s", { after: "1-1", limit: 1 })).map((e) => e.id)).toEqual(["1-2"]);
    await store.save("s", tinySnapshot("next"), { lock });
    await store.append("s", record(1, ["2-1"]), { lock });
    expect((await store.events("s")).map((e) => e.id)).toEqual(["1-3", "1-4", "2-1"]);
    expect(() => new FileSnapshotStore({ maxEvents: 0 })).toThrow("maxEvents must be a whole number from 1, got 0");
    await lock.release();
  });

  it("writes checkpoints issued without waiting in the order they were issued", async () => {
    const directory = join(root, "pipelined");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    const appends = Array.from({ length: 200 }, (_, i) => store.append("s", record(i + 1, [`1-${i + 1}`]), { lock }));
    const compacted = store.save("s", tinySnapshot("after them"), { lock });
    await Promise.all([...appends, compacted]);
    expect(await store.load("s")).toMatchObject({ snapshot: tinySnapshot("after them"), deltas: [] });
    expect(await store.events("s")).toHaveLength(200);
    await lock.release();
  });

  it("writes the same bytes per checkpoint at the thousandth as at the tenth", async () => {
    const directory = join(root, "flat-cost");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    const log = store.logPathFor("s");
    const grown: number[] = [];
    let size = 0;
    for (let seq = 1; seq <= 1000; seq++) {
      await store.append("s", { seq, delta: '{"set":["env.x",1]}', events: [{ id: `1-${1_000_000 + seq}`, json: '{"event":"node_finished"}' }] }, { lock });
      const now = readFileSync(log).length;
      grown.push(now - size);
      size = now;
    }
    // Only the seq's digits differ: "seq":10 and "seq":1000.
    expect(grown[999] - grown[9]).toBe(2);
    await lock.release();
  });

  it("refuses checkpoints without the lock, or once its lock file was deleted, writing nothing", async () => {
    const directory = join(root, "append-lock");
    const store = new FileSnapshotStore({ directory });
    await store.save("s", tinySnapshot("base"));
    await expect(store.append("s", record(1), undefined as never)).rejects.toThrow(
      `session "s" (${join(directory, "s.json")}): a checkpoint is written only under the session's lock (lock(key)); nothing was written`,
    );
    const lock = await store.lock("s");
    await store.append("s", record(1), { lock });
    unlinkSync(lock.location);
    await expect(store.append("s", record(2), { lock })).rejects.toBeInstanceOf(SessionLockLostError);
    expect((await store.load("s"))?.deltas).toHaveLength(1);
    await lock.release();
    // Taken over: another holder's lock file now stands where this one was.
    const taken = await store.lock("s");
    writeFileSync(`${taken.location}.new`, `${process.ppid} ${hostname()} beef run`);
    renameSync(`${taken.location}.new`, taken.location);
    await expect(store.append("s", record(2), { lock: taken })).rejects.toThrow(`its lock file ${taken.location} no longer holds this run's lock (deleted or taken over); nothing was written`);
    await taken.release();
    expect(readFileSync(taken.location, "utf8")).toContain("beef"); // the other holder's lock is left alone
    unlinkSync(taken.location);
    const fresh = await store.lock("missing");
    const noBase = await caught(store.append("missing", record(1), { lock: fresh }));
    expect(noBase).toBeInstanceOf(SnapshotConflictError);
    expect(noBase.message).toBe(`session "missing" (${join(directory, "missing.json")}) does not exist: a checkpoint follows a base, so save the session first; nothing was written`);
    await fresh.release();
  });

  it("takes a log without its session file (an interrupted delete) for no session; the next save starts the log over", async () => {
    const directory = join(root, "orphan-log");
    const store = new FileSnapshotStore({ directory });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("old"), { lock });
    await store.append("s", record(1, ["1-1"]), { lock });
    await lock.release();
    unlinkSync(join(directory, "s.json")); // delete removes the session file first, then the log
    expect(await store.load("s")).toBeUndefined();
    expect(await store.events("s")).toEqual([]);
    await store.save("s", tinySnapshot("new"), { expectedVersion: null });
    expect(existsSync(store.logPathFor("s"))).toBe(false);
    expect(await store.load("s")).toMatchObject({ snapshot: tinySnapshot("new"), deltas: [] });
  });

  it("with sync, fsyncs as it writes; flush makes a session durable on demand", async () => {
    const directory = join(root, "synced");
    const store = new FileSnapshotStore({ directory, sync: true });
    const lock = await store.lock("s");
    await store.save("s", tinySnapshot("base"), { lock });
    for (let seq = 1; seq <= 3; seq++) await store.append("s", record(seq, [`1-${seq}`]), { lock });
    await store.flush("s");
    await store.flush("never-saved"); // nothing to flush
    expect((await new FileSnapshotStore({ directory }).load("s"))?.deltas).toHaveLength(3);
    expect(() => new FileSnapshotStore({ sync: "yes" as unknown as boolean })).toThrow('sync must be true or false, got "yes"');
    await lock.release();
  });
});

describe("FileSnapshotStore: killed at random moments", () => {
  it("leaves a session that loads, holds every acknowledged checkpoint and each step's event exactly once", async () => {
    // The built module alone: a child that starts fast gets killed at more moments.
    const distStore = resolve("dist/src/backends/files/session-store.js");
    if (!existsSync(distStore)) throw new Error(`${distStore} is missing: run "npm run build" first (npm test does)`);
    const directory = join(root, "killed");
    // A writer that counts: each checkpoint is the next step (with its event); every 7 steps it
    // folds the count into a new base. It prints each step once it is acknowledged.
    const script = `
      const { FileSnapshotStore } = await import(${JSON.stringify(distStore)});
      const store = new FileSnapshotStore({ directory: ${JSON.stringify(directory)} });
      const lock = await store.lock("s");
      let loaded = await store.load("s");
      if (!loaded) { await store.save("s", { components: {}, upTo: 0 }, { lock }); loaded = await store.load("s"); }
      let step = loaded.snapshot.upTo + loaded.deltas.length;
      let seq = loaded.deltas.length;
      for (;;) {
        step++; seq++;
        await store.append("s", { seq, delta: JSON.stringify({ step, pad: "x".repeat(step % 500) }), events: [{ id: "1-" + step, json: JSON.stringify({ event: "node_finished", step }) }] }, { lock });
        process.stdout.write(step + "\\n");
        if (step % 7 === 0) { await store.save("s", { components: {}, upTo: step }, { lock }); seq = 0; }
      }`;
    let acknowledged = 0;
    for (let kill = 0; kill < 8; kill++) {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
      const exited = new Promise<void>((done) => child.on("close", () => done()));
      // Wait for it to get going, then kill it at a random moment.
      for (let i = 0; i < 500 && !out.includes("\n"); i++) await new Promise((done) => setTimeout(done, 5));
      await new Promise((done) => setTimeout(done, 5 + Math.random() * 60));
      child.kill("SIGKILL");
      await exited;
      expect(err).toBe("");
      const printed = out.trim().split("\n").map(Number);
      acknowledged = Math.max(acknowledged, printed[printed.length - 1] ?? 0);

      const loaded = (await new FileSnapshotStore({ directory }).load("s"))!;
      const upTo = (loaded.snapshot as unknown as { upTo: number }).upTo;
      const steps = loaded.deltas.map((delta) => (delta as { step: number }).step);
      expect(steps).toEqual(Array.from({ length: steps.length }, (_, i) => upTo + i + 1));
      const reached = upTo + steps.length;
      expect(reached).toBeGreaterThanOrEqual(acknowledged);
      const events = await new FileSnapshotStore({ directory }).events("s");
      expect(events.map((e) => e.id)).toEqual(Array.from({ length: reached }, (_, i) => `1-${i + 1}`));
    }
    expect(acknowledged).toBeGreaterThan(8);
  });
});
