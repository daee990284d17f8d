/** The file store: the conformance suite, then file layout, locks and path keys. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FileSnapshotStore, openSnapshotStore, SessionLockedError, SnapshotKeyError } from "../../src/index.js";
import { describeSnapshotStore, pausedSnapshot, tinySnapshot } from "./conformance.js";

const root = mkdtempSync(join(tmpdir(), "canvasflow-file-store-"));
const sessions = join(root, "sessions");
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeSnapshotStore("FileSnapshotStore", {
  open: () => new FileSnapshotStore({ directory: sessions }),
  shared: true,
  expires: false,
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
