/** Group commit and WAL checkpoints off the event loop: what a writer sees does not change, and the WAL stays bounded. */
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseFileError } from "../../src/backends/errors.js";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/backends/sqlite/database.js";
import { GroupCommit } from "../../src/backends/sqlite/group-commit.js";
import { CHECKPOINT_AFTER_BYTES, checkpointNow } from "../../src/backends/sqlite/wal-checkpointer.js";

const root = mkdtempSync(join(tmpdir(), "canvasflow-group-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function notesDatabase(name: string): { db: SqliteDatabase; file: string } {
  const file = join(root, name);
  const db = openSqliteDatabase(file);
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE)");
  return { db, file };
}

/**
 * The transactions committed to `file` from now on: the WAL is emptied, and each commit then
 * ends with one commit frame (a frame header whose bytes 4–7, the database's size, are not zero).
 */
function commitsOf(db: SqliteDatabase, file: string): () => number {
  db.pragma("wal_checkpoint(TRUNCATE)");
  return () => {
    const wal = readFileSync(`${file}-wal`);
    const pageSize = wal.readUInt32BE(8);
    let commits = 0;
    for (let frame = 32; frame + 24 + pageSize <= wal.length; frame += 24 + pageSize) if (wal.readUInt32BE(frame + 4) !== 0) commits++;
    return commits;
  };
}

describe("group commit", () => {
  it("commits the writes asked for in one turn of the event loop in one transaction, in order, each with its own result", async () => {
    const { db, file } = notesDatabase("batch.db");
    const commits = commitsOf(db, file);
    const group = new GroupCommit(db, file, 1000);
    const insert = db.prepare("INSERT INTO notes (body) VALUES (?)");
    const results = await Promise.all(["a", "b", "c"].map((body) => group.write(`noting ${body}`, () => Number(insert.run(body).lastInsertRowid))));
    expect(results).toEqual([1, 2, 3]);
    expect(commits()).toBe(1);
    expect(db.prepare("SELECT body FROM notes ORDER BY id").pluck().all()).toEqual(["a", "b", "c"]);
    db.close();
  });

  it("rolls a failing write back to its savepoint and rejects it alone, naming what it was doing; the others commit", async () => {
    const { db, file } = notesDatabase("savepoint.db");
    const group = new GroupCommit(db, file, 1000);
    const insert = db.prepare("INSERT INTO notes (body) VALUES (?)");
    const outcomes = await Promise.allSettled([
      group.write("noting a", () => insert.run("a")),
      group.write("noting b twice", () => {
        insert.run("b");
        insert.run("b");
      }),
      group.write("noting c", () => insert.run("c")),
      group.write("failing in the caller's own code", () => {
        throw new RangeError("not a database error");
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected"]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect((outcomes[3] as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
    // The first "b" went with its savepoint: nothing of the failed write was kept.
    expect(db.prepare("SELECT body FROM notes ORDER BY id").pluck().all()).toEqual(["a", "c"]);
    db.close();
  });

  it("fails every write of a batch, naming the file, when its transaction cannot begin", async () => {
    const { db, file } = notesDatabase("locked.db");
    const other = openSqliteDatabase(file, { busyTimeoutMs: 0 });
    const group = new GroupCommit(other, file, 0);
    db.exec("BEGIN IMMEDIATE");
    const outcomes = await Promise.allSettled([group.write("noting a", () => other.prepare("INSERT INTO notes (body) VALUES ('a')").run()), group.write("noting b", () => 1)]);
    db.exec("ROLLBACK");
    for (const outcome of outcomes) {
      expect(outcome.status).toBe("rejected");
      const reason = (outcome as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(DatabaseFileError);
      expect(String(reason.message)).toContain(file);
      expect(String(reason.message)).toMatch(/noting a \(with 1 other writes committed together\)/);
    }
    expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(0);
    other.close();
    db.close();
  });

  it("commits in several transactions a burst larger than one commit holds, and flush() commits what waits at once", async () => {
    const { db, file } = notesDatabase("burst.db");
    const commits = commitsOf(db, file);
    const group = new GroupCommit(db, file, 1000);
    const insert = db.prepare("INSERT INTO notes (body) VALUES (?)");
    const writes = Array.from({ length: 1100 }, (_, i) => group.write(`noting ${i}`, () => insert.run(`n${i}`)));
    group.flush();
    // Committed before any promise settles: a store that closes its database right after loses nothing.
    expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(1100);
    await Promise.all(writes);
    expect(commits()).toBe(3);
    db.close();
  });
});

/** The WAL header's checkpoint sequence number (bytes 12–15, big-endian): it goes up each time the WAL starts over. */
function walResets(file: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(`${file}-wal`, "r");
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

describe("WAL checkpoints in a worker thread", () => {
  it("turn SQLite's automatic checkpoint off and keep the WAL bounded while the event loop writes; everything is there after the connection closes", async () => {
    const { db, file } = notesDatabase("checkpointed.db");
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    const insert = db.prepare("INSERT INTO notes (body) VALUES (?)");
    const page = "x".repeat(3000);
    // Each round about 28 MB through the WAL, in small commits, then a checkpoint by the worker.
    const rounds: Array<{ size: number; resets: number }> = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 1000; i++) insert.run(`${round}-${i}-${page}`);
      rounds.push({ size: statSync(`${file}-wal`).size, resets: walResets(file) });
      const outcome = await checkpointNow(file);
      expect(outcome).toMatchObject({ ok: true, busy: 0 });
      expect(outcome!.checkpointed).toBe(outcome!.log);
    }
    // A complete checkpoint lets the next commit start the WAL over: it does not grow with the data.
    expect(rounds.map((round) => round.resets)).toEqual([0, 1, 2, 3]);
    expect(rounds[3].size).toBeLessThan(rounds[0].size * 1.1);
    insert.run("after");
    expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(4001);
    db.close();
    const reopened = openSqliteDatabase(file);
    expect(reopened.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(4001);
    reopened.close();
  });

  it("runs without being asked once the WAL passes its threshold", async () => {
    const { db, file } = notesDatabase("watched.db");
    const insert = db.prepare("INSERT INTO notes (body) VALUES (?)");
    const page = "y".repeat(3000);
    for (let i = 0; i < 3000; i++) insert.run(`${i}-${page}`);
    const grown = statSync(`${file}-wal`).size;
    expect(grown).toBeGreaterThan(CHECKPOINT_AFTER_BYTES);
    const resets = walResets(file);
    // Once the watcher's checkpoint is through, a write starts the WAL over: its header counts that.
    await expect
      .poll(
        () => {
          insert.run(`probe-${Math.random()}`);
          return walResets(file);
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBeGreaterThan(resets);
    db.close();
  });
});

