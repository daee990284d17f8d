/**
 * Cancel signals in a SQLite database file (issue 26): a flag is a row of `cancel_flags` holding
 * when it runs out. Processes sharing the file hear each other's requests by polling: every
 * `pollMs` a watcher asks SQLite's `PRAGMA data_version`, which changes only when another
 * connection committed, and reads the watched flags only then, so an idle database costs one
 * pragma per tick and no table read.
 */
import type { CancelSignals, WatchOptions } from "../contracts.js";
import { CancelSignalError, DatabaseFileError } from "../errors.js";
import { CancelWatchers, checkTaskId, cancelTtlSeconds } from "../shared/cancel.js";
import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, onFile, preparedStatements, type OpenSqliteOptions, type SqliteDatabase } from "./database.js";
import { openStoreDatabase } from "./schema.js";

/** How often a watcher looks for another process's commit (default 20 ms: a cancel is heard well within 100 ms). */
export const DEFAULT_SQLITE_CANCEL_POLL_MS = 20;

export interface SqliteCancelSignalsOptions extends OpenSqliteOptions {
  /** The database file (created with its folder when missing). */
  file: string;
  /** How often a watcher looks for another process's request (default 20 ms). */
  pollMs?: number;
  /** The clock a flag's time to live is measured by (default `Date.now`; tests pass their own). */
  now?: () => number;
  /**
   * The database of `file` already open (from openStoreDatabase), shared with other stores on it:
   * used instead of opening one, and left open by `close()`, since its opener closes it.
   */
  database?: SqliteDatabase;
}

export class SqliteCancelSignals implements CancelSignals {
  readonly file: string;
  private readonly db: SqliteDatabase;
  private readonly sql: ReturnType<typeof preparedStatements>;
  private readonly pollMs: number;
  private readonly busyTimeoutMs: number;
  private readonly now: () => number;
  private readonly watchers = new CancelWatchers(() => this.stopPolling());
  private pollTimer: NodeJS.Timeout | undefined;
  private dataVersion = -1;
  private readonly ownsDatabase: boolean;
  private closed = false;

  constructor(options: SqliteCancelSignalsOptions) {
    if (typeof options?.file !== "string" || options.file === "") throw new CancelSignalError("SQLite cancel signals need a file: the path of their database");
    this.file = options.file;
    this.pollMs = options.pollMs ?? DEFAULT_SQLITE_CANCEL_POLL_MS;
    if (!Number.isFinite(this.pollMs) || this.pollMs <= 0) throw new CancelSignalError(`pollMs must be a positive number of milliseconds, got ${String(options.pollMs)}`);
    this.busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
    this.ownsDatabase = options.database === undefined;
    this.db = options.database ?? openStoreDatabase(this.file, options);
    this.sql = preparedStatements(this.db);
  }

  async request(taskId: string, options: { ttlSeconds?: number } = {}): Promise<void> {
    this.check(taskId);
    const ttlSeconds = cancelTtlSeconds(options);
    this.onFile(`asking task "${taskId}" to stop`, () =>
      this.sql("INSERT INTO cancel_flags (task_id, expires_at) VALUES (?, ?) ON CONFLICT (task_id) DO UPDATE SET expires_at = excluded.expires_at").run(taskId, this.now() + ttlSeconds * 1000),
    );
    // A watcher in this process hears it now rather than at its next tick.
    if (this.watchers.has(taskId)) this.watchers.cancelled(taskId);
  }

  async isRequested(taskId: string): Promise<boolean> {
    this.check(taskId);
    return this.requested(taskId);
  }

  async watch(taskId: string, onCancel: () => void, options: WatchOptions = {}): Promise<() => Promise<void>> {
    this.check(taskId);
    const stop = this.watchers.add(taskId, onCancel);
    this.startPolling();
    if (!options.unseen && this.requested(taskId)) this.watchers.cancelled(taskId);
    return async () => stop();
  }

  async clear(taskId: string): Promise<void> {
    this.check(taskId);
    this.onFile(`clearing the cancel of task "${taskId}"`, () => this.sql("DELETE FROM cancel_flags WHERE task_id = ?").run(taskId));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watchers.clear();
    this.stopPolling();
    if (this.ownsDatabase) this.db.close();
  }

  private check(taskId: string): void {
    if (this.closed) throw new CancelSignalError("the cancel signals are closed");
    checkTaskId(taskId);
  }

  private requested(taskId: string): boolean {
    const row = this.onFile(`reading the cancel of task "${taskId}"`, () => this.sql<[string], { expires_at: number }>("SELECT expires_at FROM cancel_flags WHERE task_id = ?").get(taskId));
    return row !== undefined && row.expires_at > this.now();
  }

  private onFile<T>(doing: string, work: () => T): T {
    try {
      return onFile(this.file, doing, this.busyTimeoutMs, work);
    } catch (error) {
      // One error kind for every cancel failure; the file's own words stay the message.
      if (error instanceof DatabaseFileError) throw new CancelSignalError(error.message);
      throw error;
    }
  }

  private startPolling(): void {
    if (this.pollTimer !== undefined) return;
    this.dataVersion = -1;
    this.pollTimer = setInterval(() => this.poll(), this.pollMs);
    // A watch left running never keeps the process alive.
    this.pollTimer.unref();
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** One pragma per tick; the watched flags are read only when another connection committed. */
  private poll(): void {
    if (this.closed) return;
    try {
      const version = Number(this.db.pragma("data_version", { simple: true }));
      if (version === this.dataVersion) return;
      this.dataVersion = version;
      for (const taskId of this.watchers.tasks()) if (this.requested(taskId)) this.watchers.cancelled(taskId);
    } catch {
      // Busy or briefly unreadable: the next tick tries again.
      this.dataVersion = -1;
    }
  }
}
