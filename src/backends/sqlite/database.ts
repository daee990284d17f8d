/**
 * One SQLite database file, as every SQLite store opens it (issue 26): through better-sqlite3,
 * loaded on first use; in WAL mode, so readers never wait for the writer and several processes
 * may share the file; with a busy timeout, so a write waits for another process's write instead
 * of failing at once; and with its schema versioned in `PRAGMA user_version`, moved forward one
 * migration at a time, each in its own transaction.
 *
 * Every failure the file itself causes becomes a DatabaseFileError naming the file and what to
 * do: a file that is not a database, a schema newer than this code, a lock held past the
 * timeout, a full disk. None of them is ever answered by starting a fresh database.
 */
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { requirePackage } from "../../util/optional-package.js";
import { DatabaseFileError } from "../errors.js";
import { checkpointOffTheEventLoop } from "./wal-checkpointer.js";

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement<P extends unknown[] = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;

/** How long a write waits for another connection's write before it fails (default 5 s). */
export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5_000;

const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export interface OpenSqliteOptions {
  /** How long a statement waits for a lock another connection holds (default 5 000 ms). */
  busyTimeoutMs?: number;
  /**
   * `normal` (the default in WAL mode: a commit is safe from a crash of the process, the last
   * ones may be lost if the machine loses power) or `full` (each commit waits for the disk).
   */
  synchronous?: "normal" | "full";
}

/** One step of a schema: run, in its own transaction, to move `user_version` from its index to the next. */
export interface SqliteMigration {
  readonly name: string;
  readonly up: (db: SqliteDatabase) => void;
}

/** SQLite's own result codes that the file causes, as better-sqlite3 reports them. */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** What SQLite's error means for the file, in words that say what to do; undefined for other errors. */
export function describeSqliteFailure(error: unknown, file: string, doing: string, busyTimeoutMs = DEFAULT_SQLITE_BUSY_TIMEOUT_MS): DatabaseFileError | undefined {
  const code = sqliteCode(error);
  if (code === undefined) return undefined;
  const reason = (error as Error).message;
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") {
    return new DatabaseFileError(
      `${file} is not a usable SQLite database (${reason}) while ${doing}: point the store at a canvasflow database, or move this file away to start a new one; it was left as it is`,
      file,
    );
  }
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new DatabaseFileError(
      `${file} stayed locked by another connection for more than ${busyTimeoutMs} ms while ${doing}: another process is writing to it (or holds a transaction open); try again, or raise the busy timeout`,
      file,
    );
  }
  if (code === "SQLITE_FULL") {
    return new DatabaseFileError(`${file}: the disk (or the database's size limit) is full while ${doing}; free some space; nothing of this write was kept`, file);
  }
  if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_PERM") || code.startsWith("SQLITE_IOERR")) {
    return new DatabaseFileError(`${file} cannot be read or written (${reason}) while ${doing}: check the file's and its folder's permissions and the disk`, file);
  }
  return undefined;
}

/** Run `work`, turning what SQLite says about the file into a DatabaseFileError. */
export function onFile<T>(file: string, doing: string, busyTimeoutMs: number, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw describeSqliteFailure(error, file, doing, busyTimeoutMs) ?? error;
  }
}

/** better-sqlite3, loaded on first use; installed without its native module (install scripts skipped), a clear error. */
let driver: typeof BetterSqlite3 | undefined;

function sqliteDriver(file: string): typeof BetterSqlite3 {
  if (driver) return driver;
  const Database = requirePackage<typeof BetterSqlite3>("better-sqlite3", "SQLite");
  try {
    // The native module loads with the first database; an in-memory one shows whether it can.
    new Database(":memory:").close();
  } catch (error) {
    if (!/bindings file|better_sqlite3\.node|NODE_MODULE_VERSION/.test(String((error as Error).message))) throw error;
    throw new DatabaseFileError(
      `cannot open ${file}: the package better-sqlite3 is installed without a working native module (its install script did not run, or ran for another Node version): run \`npm rebuild better-sqlite3\``,
      file,
    );
  }
  driver = Database;
  return Database;
}

/**
 * Open (creating it and its folder when missing) the database file, in WAL mode with a busy
 * timeout. A file that is not a database is refused here, before anything is written to it.
 */
export function openSqliteDatabase(file: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) throw new DatabaseFileError(`busyTimeoutMs must be a whole number of milliseconds, got ${String(options.busyTimeoutMs)}`, file);
  const path = resolve(file);
  const Database = sqliteDriver(file);
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new DatabaseFileError(`cannot create the folder of the database ${file}: ${(error as Error).message}`, file);
  }
  const made = !existsSync(path);
  const db = onFile(file, "opening it", busyTimeoutMs, () => new Database(path, { timeout: busyTimeoutMs }));
  // What was said, and the keys' hashes: its user's only (SQLite gives the -wal and -shm files the same mode).
  if (made) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      db.close();
      throw new DatabaseFileError(`cannot make the new database ${file} private (mode 600): ${(error as Error).message}`, file);
    }
  }
  try {
    onFile(file, "opening it", busyTimeoutMs, () => {
      // Reading the schema first: a file that is not a database fails here, untouched.
      db.pragma("schema_version", { simple: true });
      db.pragma("journal_mode = WAL");
      db.pragma(`synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}`);
      // Checkpoints (WAL pages copied back, then fsync) run in a worker thread, not in the commit
      // that crosses a threshold (wal-checkpointer.ts says why); the WAL file is kept at most
      // 64 MB once checkpointed.
      checkpointOffTheEventLoop(db, path, busyTimeoutMs);
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
      db.pragma("foreign_keys = ON");
    });
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Bring the schema to the last of `migrations`, one transaction per step; `user_version` counts
 * the steps taken. A database from a newer canvasflow (more steps than these) is refused.
 * Returns the versions before and after.
 */
export function migrateSqlite(db: SqliteDatabase, file: string, migrations: readonly SqliteMigration[], busyTimeoutMs = DEFAULT_SQLITE_BUSY_TIMEOUT_MS): { from: number; to: number } {
  const current = () => Number(onFile(file, "reading its schema version", busyTimeoutMs, () => db.pragma("user_version", { simple: true })));
  const from = current();
  if (from > migrations.length) {
    throw new DatabaseFileError(
      `${file} has schema version ${from}, newer than this canvasflow knows (${migrations.length}): it was written by a newer canvasflow; run that version, or upgrade this one`,
      file,
    );
  }
  for (let version = from; version < migrations.length; version++) {
    const step = migrations[version];
    onFile(file, `migrating its schema to version ${version + 1} (${step.name})`, busyTimeoutMs, () =>
      db
        .transaction(() => {
          // Another process may have taken this step while we waited for the write lock.
          if (Number(db.pragma("user_version", { simple: true })) !== version) return;
          step.up(db);
          db.pragma(`user_version = ${version + 1}`);
        })
        .immediate(),
    );
  }
  return { from, to: current() };
}

/** What `PRAGMA integrity_check` finds wrong: nothing for a sound database. */
export function sqliteIntegrityProblems(db: SqliteDatabase, file: string, busyTimeoutMs = DEFAULT_SQLITE_BUSY_TIMEOUT_MS): string[] {
  const rows = onFile(file, "checking its integrity", busyTimeoutMs, () => db.pragma("integrity_check") as Array<{ integrity_check: string }>);
  const lines = rows.map((row) => row.integrity_check);
  return lines.length === 1 && lines[0] === "ok" ? [] : lines;
}

/** Run work in one transaction of `db`: immediate (it holds the write lock from its start) or deferred (a read). */
export interface SqliteTransactions {
  immediate<T>(work: () => T): T;
  deferred<T>(work: () => T): T;
}

/**
 * The transactions of `db`, made once: better-sqlite3 builds a wrapper for each function given to
 * `db.transaction`, which a wrapper per call would pay every time.
 */
export function sqliteTransactions(db: SqliteDatabase): SqliteTransactions {
  const run = db.transaction((work: () => unknown) => work());
  return {
    immediate: <T>(work: () => T) => run.immediate(work) as T,
    deferred: <T>(work: () => T) => run.deferred(work) as T,
  };
}

/** `sql(text)`: the prepared statement of `text` on `db`, compiled on its first use and kept. */
export function preparedStatements(db: SqliteDatabase): <P extends unknown[] = unknown[], R = unknown>(text: string) => SqliteStatement<P, R> {
  const statements = new Map<string, SqliteStatement>();
  return <P extends unknown[] = unknown[], R = unknown>(text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement as unknown as SqliteStatement<P, R>;
  };
}
