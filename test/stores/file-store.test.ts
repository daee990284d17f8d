/** The file store: the conformance suite, then file layout, locks and path keys. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FileSnapshotStore, openSnapshotStore, SnapshotKeyError } from "../../src/index.js";
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

  it("waits for another writer's lock, then reports the lock file to delete", async () => {
    const directory = join(root, "locked");
    const store = new FileSnapshotStore({ directory, lockTimeoutMs: 200 });
    await store.save("s", tinySnapshot("before"));
    const lock = join(directory, ".s.json.lock");
    writeFileSync(lock, `${process.pid} ${hostname()}`); // a live holder: this process
    const started = Date.now();
    await expect(store.save("s", tinySnapshot("blocked"))).rejects.toThrow(
      `${lock} is held by another writer (process ${process.pid} on ${hostname()}) for more than 200 ms; if no process is saving this session, delete the lock file`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect((await store.load("s"))?.snapshot).toEqual(tinySnapshot("before")); // reading needs no lock
    // The holder lets go while a save waits: the save goes through.
    const waiting = new FileSnapshotStore({ directory, lockTimeoutMs: 5_000 }).save("s", tinySnapshot("after"));
    setTimeout(() => unlinkSync(lock), 100);
    await waiting;
    expect((await store.load("s"))?.snapshot).toEqual(tinySnapshot("after"));
    expect(existsSync(lock)).toBe(false);
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
  });
});
