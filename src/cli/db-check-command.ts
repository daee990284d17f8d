/**
 * `canvasflow db check [--sqlite FILE]`: run SQLite's `PRAGMA integrity_check` on a canvasflow
 * database (default `./.canvasflow/canvasflow.db`) and say what it found, with the schema version
 * beside the one this canvasflow knows. Nothing is migrated or written: a check looks, it does
 * not repair. Exit 0 when the database is sound, 1 when it is not (or cannot be read).
 */
import { existsSync, statSync } from "node:fs";
import { DatabaseFileError } from "../backends/errors.js";
import { openSqliteDatabase, sqliteIntegrityProblems, type SqliteDatabase } from "../backends/sqlite/database.js";
import { DEFAULT_DATABASE_FILE, SQLITE_MIGRATIONS } from "../backends/sqlite/schema.js";
import type { CliIO } from "./io.js";
import { EXIT } from "./exit-codes.js";

export interface DbCheckArgs {
  /** The database file (default `./.canvasflow/canvasflow.db`). */
  sqlite?: string;
}

export async function dbCheckCommand(args: DbCheckArgs, io: CliIO): Promise<number> {
  const file = args.sqlite ?? DEFAULT_DATABASE_FILE;
  if (!existsSync(file)) {
    io.err(`canvasflow: no database at ${file}: nothing to check (give the file with --sqlite FILE)\n`);
    return EXIT.failed;
  }
  if (!statSync(file).isFile()) {
    io.err(`canvasflow: ${file} is not a file: give the database file with --sqlite FILE\n`);
    return EXIT.failed;
  }
  let db: SqliteDatabase | undefined;
  try {
    db = openSqliteDatabase(file);
    const version = Number(db.pragma("user_version", { simple: true }));
    const problems = sqliteIntegrityProblems(db, file);
    const schema = `schema version ${version}${version === SQLITE_MIGRATIONS.length ? "" : `, this canvasflow's is ${SQLITE_MIGRATIONS.length}${version < SQLITE_MIGRATIONS.length ? " (the first store to open it, or db migrate, brings it up to date)" : " (written by a newer canvasflow)"}`}`;
    if (problems.length === 0) {
      io.stdout.write(`${file}: ok (${schema})\n`);
      return EXIT.finished;
    }
    io.stdout.write(`${file}: integrity_check found ${problems.length} problem${problems.length === 1 ? "" : "s"} (${schema}):\n${problems.map((line) => `  ${line}\n`).join("")}`);
    io.err(`canvasflow: ${file} is damaged: keep a copy of it, then restore the last backup (or try sqlite3's .recover into a new file)\n`);
    return EXIT.failed;
  } catch (error) {
    if (!(error instanceof DatabaseFileError)) throw error;
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.failed;
  } finally {
    db?.close();
  }
}
