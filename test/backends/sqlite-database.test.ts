/** The SQLite database file: WAL, busy timeout, versioned migrations, and every fault of the file named. */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseFileError } from "../../src/backends/errors.js";
import { migrateSqlite, onFile, openSqliteDatabase, sqliteIntegrityProblems, type SqliteMigration } from "../../src/backends/sqlite/database.js";

const root = mkdtempSync(join(tmpdir(), "canvasflow-sqlite-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MIGRATIONS: SqliteMigration[] = [
  { name: "notes", up: (db) => db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") },
  { name: "notes.tag", up: (db) => db.exec("ALTER TABLE notes ADD COLUMN tag TEXT") },
];

function caught(work: () => unknown): DatabaseFileError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(DatabaseFileError);
    return error as DatabaseFileError;
  }
  throw new Error("expected a DatabaseFileError, nothing was thrown");
}

describe("a SQLite database file", () => {
  it("is created with its folder, in WAL mode, with the busy timeout asked for", () => {
    const file = join(root, "new/folder/canvasflow.db");
    const db = openSqliteDatabase(file, { busyTimeoutMs: 1234 });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("busy_timeout", { simple: true })).toBe(1234);
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(sqliteIntegrityProblems(db, file)).toEqual([]);
    db.close();
  });

  it("moves its schema forward one migration at a time, and taking the steps again changes nothing", () => {
    const file = join(root, "migrated.db");
    const db = openSqliteDatabase(file);
    expect(migrateSqlite(db, file, MIGRATIONS.slice(0, 1))).toEqual({ from: 0, to: 1 });
    db.prepare("INSERT INTO notes (body) VALUES (?)").run("kept");
    expect(migrateSqlite(db, file, MIGRATIONS)).toEqual({ from: 1, to: 2 });
    expect(migrateSqlite(db, file, MIGRATIONS)).toEqual({ from: 2, to: 2 });
    expect(db.prepare("SELECT body, tag FROM notes").all()).toEqual([{ body: "kept", tag: null }]);
    db.close();
  });

  it("refuses a schema newer than the code knows, naming the file and both versions, and changes nothing", () => {
    const file = join(root, "newer.db");
    const db = openSqliteDatabase(file);
    migrateSqlite(db, file, MIGRATIONS);
    db.pragma("user_version = 7");
    const error = caught(() => migrateSqlite(db, file, MIGRATIONS));
    expect(error.message).toBe(`${file} has schema version 7, newer than this canvasflow knows (2): it was written by a newer canvasflow; run that version, or upgrade this one`);
    expect(error.code).toBe("database_file");
    expect(db.pragma("user_version", { simple: true })).toBe(7);
    db.close();
  });

  it("refuses a file that is not a database, and leaves it as it was", () => {
    const file = join(root, "notes.txt.db");
    const text = "These are my notes, not a database.\n".repeat(20);
    writeFileSync(file, text);
    const error = caught(() => openSqliteDatabase(file));
    expect(error.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not a usable SQLite database \\(file is not a database\\) while opening it: `));
    expect(error.file).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("says so when another connection holds the write lock past the busy timeout", () => {
    const file = join(root, "busy.db");
    const holder = openSqliteDatabase(file);
    migrateSqlite(holder, file, MIGRATIONS);
    const waiter = openSqliteDatabase(file, { busyTimeoutMs: 50 });
    holder.exec("BEGIN IMMEDIATE");
    const started = Date.now();
    const error = caught(() => migrateSqlite(waiter, file, [...MIGRATIONS, { name: "more", up: (db) => db.exec("CREATE TABLE more (x)") }], 50));
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(error.message).toBe(
      `${file} stayed locked by another connection for more than 50 ms while migrating its schema to version 3 (more): another process is writing to it (or holds a transaction open); try again, or raise the busy timeout`,
    );
    holder.exec("ROLLBACK");
    expect(migrateSqlite(waiter, file, [...MIGRATIONS, { name: "more", up: (db) => db.exec("CREATE TABLE more (x)") }], 50)).toEqual({ from: 2, to: 3 });
    holder.close();
    waiter.close();
  });

  it("says the disk is full when a write does not fit, and keeps nothing of that write", () => {
    const file = join(root, "full.db");
    const db = openSqliteDatabase(file);
    migrateSqlite(db, file, MIGRATIONS);
    // A database limited to a few pages stands for a full disk: SQLite answers SQLITE_FULL to both.
    db.pragma(`max_page_count = ${Number(db.pragma("page_count", { simple: true })) + 2}`);
    const insert = db.transaction((count: number) => {
      for (let i = 0; i < count; i++) db.prepare("INSERT INTO notes (body) VALUES (?)").run("x".repeat(4000));
    });
    const error = caught(() => onFile(file, "writing notes", 5000, () => insert(50)));
    expect(error.message).toBe(`${file}: the disk (or the database's size limit) is full while writing notes; free some space; nothing of this write was kept`);
    expect(db.prepare("SELECT count(*) AS n FROM notes").get()).toEqual({ n: 0 });
    db.close();
  });

  it("reports damage through integrity_check", () => {
    const file = join(root, "damaged.db");
    const db = openSqliteDatabase(file);
    migrateSqlite(db, file, MIGRATIONS);
    const insert = db.prepare("INSERT INTO notes (body, tag) VALUES (?, ?)");
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`note ${i} `.repeat(20), `t${i % 7}`);
    })();
    db.exec("CREATE INDEX notes_tag ON notes (tag)");
    db.pragma("wal_checkpoint(TRUNCATE)");
    const pageSize = Number(db.pragma("page_size", { simple: true }));
    const pages = Number(db.pragma("page_count", { simple: true }));
    db.close();
    // Overwrite one page in the middle of the index with garbage.
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, pageSize * (pages - 3));
    closeSync(fd);
    const reopened = openSqliteDatabase(file);
    let problems: string[];
    try {
      problems = sqliteIntegrityProblems(reopened, file);
    } catch (error) {
      expect(error).toBeInstanceOf(DatabaseFileError);
      problems = [(error as Error).message];
    }
    expect(problems.length).toBeGreaterThan(0);
    reopened.close();
  });
});
