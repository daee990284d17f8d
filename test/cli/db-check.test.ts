/**
 * `canvasflow db check` and `canvasflow db migrate --sqlite`: integrity_check's findings reported
 * with the schema version, a sound database said to be sound, and every file that is not a
 * database a clear error naming it, with nothing written to it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SQLITE_MIGRATIONS } from "../../src/backends/sqlite/schema.js";
import { cli } from "../helpers/cli.js";
import { scratchDir } from "../helpers/scratch.js";

const VERSION = SQLITE_MIGRATIONS.length;

/** A database whose two indexes' root pages were swapped behind SQLite's back: every row is missing from both. */
function damagedDatabase(file: string): void {
  const db = new Database(file);
  db.exec("CREATE TABLE t (x, y); CREATE INDEX i1 ON t (x); CREATE INDEX i2 ON t (y);");
  const insert = db.prepare("INSERT INTO t VALUES (?, ?)");
  for (let i = 0; i < 50; i++) insert.run(i, `v${100 - i}`);
  const roots = db.prepare("SELECT name, rootpage FROM sqlite_master WHERE type = 'index' ORDER BY name").all() as Array<{ name: string; rootpage: number }>;
  db.unsafeMode(true);
  db.pragma("writable_schema = ON");
  db.prepare("UPDATE sqlite_master SET rootpage = ? WHERE name = 'i1'").run(roots[1].rootpage);
  db.prepare("UPDATE sqlite_master SET rootpage = ? WHERE name = 'i2'").run(roots[0].rootpage);
  db.close();
}

describe("canvasflow db migrate --sqlite FILE", () => {
  it("creates the schema of a new file, then finds it up to date", async () => {
    const file = join(scratchDir("canvasflow-db-").dir, "sub", "canvasflow.db");
    const first = await cli(["db", "migrate", "--sqlite", file]);
    expect(first).toMatchObject({ code: 0, stderr: "", stdout: `database ${file}: created (version ${VERSION})\n` });
    const again = await cli(["db", "migrate", "--sqlite", file]);
    expect(again).toMatchObject({ code: 0, stderr: "", stdout: `database ${file}: already at version ${VERSION}\n` });
  });

  it("refuses a file that is not a database, and leaves it as it was", async () => {
    const file = scratchDir("canvasflow-db-").write("notes.db", "these are my notes, not a database\n".repeat(200));
    const before = readFileSync(file);
    const run = await cli(["db", "migrate", "--sqlite", file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`canvasflow: ${file} is not a usable SQLite database`);
    expect(readFileSync(file)).toEqual(before);
  });

  it("does not take another store's flags with --sqlite", async () => {
    const run = await cli(["db", "migrate", "--sqlite", "x.db", "--redis", "redis://127.0.0.1:6379"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--redis does not go with it");
  });
});

describe("canvasflow db check", () => {
  it("says a sound database is ok, with its schema version", async () => {
    const file = join(scratchDir("canvasflow-db-").dir, "canvasflow.db");
    expect((await cli(["db", "migrate", "--sqlite", file])).code).toBe(0);
    const run = await cli(["db", "check", "--sqlite", file]);
    expect(run).toMatchObject({ code: 0, stderr: "", stdout: `${file}: ok (schema version ${VERSION})\n` });
  });

  it("reports what integrity_check finds, and exits 1", async () => {
    const file = join(scratchDir("canvasflow-db-").dir, "damaged.db");
    damagedDatabase(file);
    const run = await cli(["db", "check", "--sqlite", file]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: integrity_check found \\d+ problems \\(schema version 0, this canvasflow's is ${VERSION} `));
    expect(lines).toContain("  row 1 missing from index i1");
    expect(run.stderr).toBe(`canvasflow: ${file} is damaged: keep a copy of it, then restore the last backup (or try sqlite3's .recover into a new file)\n`);
  });

  it("names a file that is not a database, a missing file and a folder", async () => {
    const dir = scratchDir("canvasflow-db-");
    const text = dir.write("plain.txt", "hello\n".repeat(500));
    const notDb = await cli(["db", "check", "--sqlite", text]);
    expect(notDb.code).toBe(1);
    expect(notDb.stderr).toContain(`${text} is not a usable SQLite database`);
    expect(readFileSync(text, "utf8")).toBe("hello\n".repeat(500));

    const missing = join(dir.dir, "none.db");
    expect(await cli(["db", "check", "--sqlite", missing])).toMatchObject({ code: 1, stdout: "", stderr: `canvasflow: no database at ${missing}: nothing to check (give the file with --sqlite FILE)\n` });
    expect(await cli(["db", "check", "--sqlite", dir.dir])).toMatchObject({ code: 1, stderr: `canvasflow: ${dir.dir} is not a file: give the database file with --sqlite FILE\n` });
  });

  it("takes only --sqlite", async () => {
    const run = await cli(["db", "check", "--postgres", "postgres://x@127.0.0.1/db"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("db check checks a SQLite database: --postgres does not apply");
  });
});
