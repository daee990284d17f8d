/**
 * Sessions in a SQLite database file (issue 26): the base snapshot, its checkpoints, the event
 * log and the session's lease, in the tables of schema.ts. Every write is one immediate
 * transaction, so several processes on one machine can share the file: SQLite serialises their
 * writes (waiting up to the busy timeout), and WAL lets readers go on meanwhile. A lease is a
 * row naming its holder; the holder renews it while it runs, and a lease that ran out, or whose
 * holder is a dead process on this host, is taken over.
 *
 * better-sqlite3 is synchronous: each operation runs to its end before the event loop goes on,
 * which for a local file is faster than handing it to a thread.
 */
import { randomInt } from "node:crypto";
import { hostname } from "node:os";
import type { CanvasDsl } from "../../dsl/types.js";
import { isPlainObject } from "../../util/values.js";
import type { AppendOptions, CheckpointRecord, CheckpointStore, DeleteOptions, EventQuery, LoggedEvent, SaveOptions, SessionLock, StoredEvent, StoredSnapshot } from "../contracts.js";
import { SessionLockedError, SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotStoreError } from "../errors.js";
import { describeHolder, describeLeft, holderIsGone, leaseLostError, newLeaseToken, noteLeaseHeld, type LeaseHolder } from "../shared/lease.js";
import {
  checkEventQuery,
  checkEventsFollow,
  checkKey,
  checkLoggedEvents,
  checkRecord,
  checkSaveOptions,
  checkTtl,
  closedError,
  DEFAULT_MAX_EVENTS,
  IssuedLocks,
  parseDelta,
  parseSnapshot,
  seqConflict,
  serializeSnapshot,
} from "../shared/sessions.js";
import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, onFile, type OpenSqliteOptions, type SqliteDatabase, type SqliteTransactions, preparedStatements, sqliteTransactions } from "./database.js";
import { type GroupCommit, groupCommitOf } from "./group-commit.js";
import { openStoreDatabase } from "./schema.js";

export const DEFAULT_SQLITE_LOCK_LEASE_MS = 15_000;

export interface SqliteSnapshotStoreOptions extends OpenSqliteOptions {
  /** The database file (created with its folder when missing). */
  file: string;
  /** Expiry for every save that does not pass its own `ttlSeconds` (default: none). */
  ttlSeconds?: number;
  /** How long a lease lives unless its holder renews it (default 15 s; renewed every third of it). */
  lockLeaseMs?: number;
  /** Events kept per session, the most recent ones (default 10 000). */
  maxEvents?: number;
  /** The clock expiries and leases are measured by (default `Date.now`). */
  now?: () => number;
  /**
   * The database of `file` already open (from openStoreDatabase), shared with other stores on it
   * (a SqliteServerStore's records and cancel signals): used instead of opening one, and left
   * open by `close()`, since its opener closes it.
   */
  database?: SqliteDatabase;
}

interface SessionRow {
  body: string;
  version: number;
  last_seq: number;
  expires_at: number | null;
}

interface LockRow {
  token: string;
  pid: number;
  host: string;
  acquired_at: number;
  expires_at: number;
}

interface HeldLease {
  token: string;
  renew: NodeJS.Timeout;
}

export class SqliteSnapshotStore implements CheckpointStore {
  /** A commit to a local file in WAL mode takes microseconds: the run may wait for it. */
  readonly defaultDurability = "sync" as const;
  readonly file: string;
  private readonly db: SqliteDatabase;
  private readonly busyTimeoutMs: number;
  private readonly lockLeaseMs: number;
  private readonly maxEvents: number;
  private readonly defaultTtlSeconds: number | undefined;
  private readonly now: () => number;
  private readonly issued = new IssuedLocks<HeldLease>();
  /** Each statement is compiled once, on its first use. */
  private readonly sql: ReturnType<typeof preparedStatements>;
  private readonly transactions: SqliteTransactions;
  /** Writes go out in one transaction per turn of the event loop (group-commit.ts says why). */
  private readonly group: GroupCommit;
  private readonly ownsDatabase: boolean;
  private closed = false;

  constructor(options: SqliteSnapshotStoreOptions) {
    if (typeof options?.file !== "string" || options.file === "") throw new SnapshotStoreError("a SQLite snapshot store needs a file: the path of its database");
    this.file = options.file;
    this.lockLeaseMs = options.lockLeaseMs ?? DEFAULT_SQLITE_LOCK_LEASE_MS;
    if (!Number.isInteger(this.lockLeaseMs) || this.lockLeaseMs < 30) {
      throw new SnapshotStoreError(`lockLeaseMs must be a whole number of milliseconds, at least 30; got ${String(options.lockLeaseMs)}`);
    }
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    if (!Number.isInteger(this.maxEvents) || this.maxEvents < 1) throw new SnapshotStoreError(`maxEvents must be a whole number from 1, got ${String(options.maxEvents)}`);
    this.defaultTtlSeconds = options.ttlSeconds === undefined ? undefined : checkTtl("ttlSeconds", options.ttlSeconds);
    this.now = options.now ?? Date.now;
    this.busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
    this.ownsDatabase = options.database === undefined;
    this.db = options.database ?? openStoreDatabase(this.file, options);
    this.sql = preparedStatements(this.db);
    this.transactions = sqliteTransactions(this.db);
    this.group = groupCommitOf(this.db, this.file, this.busyTimeoutMs);
  }

  async load(key: string): Promise<StoredSnapshot | undefined> {
    this.open(key);
    const read = this.onFile(`loading session "${key}"`, () =>
      this.transactions.deferred(() => {
        const row = this.sql<[string], SessionRow>("SELECT body, version, last_seq, expires_at FROM sessions WHERE key = ?").get(key);
        if (!row || this.expired(row)) return { row, checkpoints: undefined };
        const checkpoints = this.sql<[string], { seq: number; body: string }>("SELECT seq, body FROM checkpoints WHERE key = ? ORDER BY seq").all(key);
        return { row, checkpoints };
      }),
    );
    const { row, checkpoints } = read;
    if (!row) return undefined;
    if (!checkpoints) {
      await this.write(`dropping expired session "${key}"`, () => this.dropIfExpired(key));
      return undefined;
    }
    const snapshot = parseSnapshot(key, row.body, this.describe(key));
    const deltas: unknown[] = [];
    for (const { seq, body } of checkpoints) {
      if (seq !== deltas.length + 1 || seq > row.last_seq) throw this.checkpointsCorrupt(key, seq === deltas.length + 1 ? seq : deltas.length + 1, row.last_seq);
      deltas.push(parseDelta(key, this.where("checkpoints"), seq, body));
    }
    if (deltas.length !== row.last_seq) throw this.checkpointsCorrupt(key, deltas.length + 1, row.last_seq);
    return { snapshot, version: String(row.version), deltas };
  }

  async save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string> {
    this.open(key);
    const { expectedVersion, ttlSeconds = this.defaultTtlSeconds, lock } = checkSaveOptions(options);
    const text = serializeSnapshot(key, snapshot);
    const token = lock === undefined ? undefined : this.issued.check(lock, key, this.describe(key)).token;
    return this.write(`saving session "${key}"`, () => {
      this.checkWriter(key, token, " Nothing was written.");
      this.dropIfExpired(key);
      const current = this.sql<[string], { version: number }>("SELECT version FROM sessions WHERE key = ?").get(key)?.version;
      const shown = current === undefined ? undefined : String(current);
      if (expectedVersion !== undefined && expectedVersion !== (shown ?? null)) throw new SnapshotConflictError(key, expectedVersion, shown);
      const version = this.nextVersion();
      const expiresAt = ttlSeconds === undefined ? null : this.now() + ttlSeconds * 1000;
      this.sql("INSERT INTO sessions (key, body, version, last_seq, expires_at) VALUES (?, ?, ?, 0, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body, version = excluded.version, last_seq = 0, expires_at = excluded.expires_at")
        .run(key, text, version, expiresAt);
      this.sql("DELETE FROM checkpoints WHERE key = ?").run(key);
      return String(version);
    });
  }

  async append(key: string, record: CheckpointRecord, options: AppendOptions): Promise<string> {
    this.open(key);
    checkRecord(key, record);
    const lock = options?.lock;
    if (lock === undefined) throw new SessionLockLostError(`${this.describe(key)}: a checkpoint is written only under the session's lock; nothing was written`, key);
    const { token } = this.issued.check(lock, key, this.describe(key));
    const events = record.events.length > this.maxEvents ? record.events.slice(-this.maxEvents) : record.events;
    return this.write(`writing checkpoint ${record.seq} of session "${key}"`, () => {
      this.checkWriter(key, token);
      const row = this.liveSession(key);
      if (!row) {
        const error = new SnapshotConflictError(key, null, undefined);
        error.message = `${this.describe(key)}: checkpoint ${record.seq} has no base to follow: the session does not exist; save a base first; nothing was written`;
        throw error;
      }
      if (row.last_seq + 1 !== record.seq) throw seqConflict(key, row.last_seq + 1, record.seq);
      checkEventsFollow(key, this.lastEvent(key), record);
      this.sql("INSERT INTO checkpoints (key, seq, body) VALUES (?, ?, ?)").run(key, record.seq, record.delta);
      this.insertEvents(key, events, `checkpoint ${record.seq}`);
      const version = this.nextVersion();
      this.sql("UPDATE sessions SET last_seq = ?, version = ? WHERE key = ?").run(record.seq, version, key);
      return String(version);
    });
  }

  async logEvents(key: string, events: LoggedEvent[], options: AppendOptions): Promise<void> {
    this.open(key);
    checkLoggedEvents(key, events);
    const lock = options?.lock;
    if (lock === undefined) throw new SessionLockLostError(`${this.describe(key)}: events are logged only under the session's lock; nothing was written`, key);
    const { token } = this.issued.check(lock, key, this.describe(key));
    const kept = events.length > this.maxEvents ? events.slice(-this.maxEvents) : events;
    await this.write(`logging events of session "${key}"`, () => {
      this.checkWriter(key, token);
      if (!this.liveSession(key)) {
        const error = new SnapshotConflictError(key, null, undefined);
        error.message = `${this.describe(key)} does not exist: events are logged for a saved session; nothing was written`;
        throw error;
      }
      checkEventsFollow(key, this.lastEvent(key), kept);
      this.insertEvents(key, kept, "logEvents");
    });
  }

  async lastEventId(key: string): Promise<string | undefined> {
    this.open(key);
    return this.onFile(`reading the event log of session "${key}"`, () => this.lastEvent(key));
  }

  async events(key: string, query?: EventQuery): Promise<StoredEvent[]> {
    this.open(key);
    const { after, limit } = checkEventQuery(query);
    const [run, n] = after ?? [-1, -1];
    const rows = this.onFile(`reading the event log of session "${key}"`, () =>
      this.sql<[string, number, number, number, number], { run: number; n: number; event: string }>("SELECT run, n, event FROM events WHERE key = ? AND (run > ? OR (run = ? AND n > ?)) ORDER BY run, n LIMIT ?")
        .all(key, run, run, n, Number.isFinite(limit) ? limit : -1),
    );
    return rows.map((row) => {
      const id = `${row.run}-${row.n}`;
      let event: unknown;
      try {
        event = JSON.parse(row.event);
      } catch (error) {
        throw new SnapshotCorruptError(`session "${key}": event ${id} in ${this.where("events")} is not valid JSON (${(error as Error).message})`, key);
      }
      if (!isPlainObject(event)) throw new SnapshotCorruptError(`session "${key}": event ${id} in ${this.where("events")} is not a JSON object`, key);
      return { id, event };
    });
  }

  async delete(key: string, options?: DeleteOptions): Promise<boolean> {
    this.open(key);
    const token = options?.lock === undefined ? undefined : this.issued.check(options.lock, key, this.describe(key)).token;
    return this.write(`deleting session "${key}"`, () => {
      this.checkWriter(key, token, " Nothing was deleted.");
      this.dropIfExpired(key);
      const existed = this.sql("DELETE FROM sessions WHERE key = ?").run(key).changes > 0;
      this.sql("DELETE FROM checkpoints WHERE key = ?").run(key);
      this.sql("DELETE FROM events WHERE key = ?").run(key);
      return existed;
    });
  }

  async lock(key: string): Promise<SessionLock> {
    this.open(key);
    const token = newLeaseToken();
    noteLeaseHeld(token, true);
    try {
      await this.write(`locking session "${key}"`, () => {
        const holder = this.holder(key);
        if (holder && holder.leftMs > 0 && !holderIsGone(holder)) throw this.lockedError(key, holder);
        const now = this.now();
        this.sql("INSERT INTO locks (key, token, pid, host, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET token = excluded.token, pid = excluded.pid, host = excluded.host, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at")
          .run(key, token, process.pid, hostname(), now, now + this.lockLeaseMs);
      });
    } catch (error) {
      noteLeaseHeld(token, false);
      throw error;
    }
    const held: HeldLease = { token, renew: setInterval(() => this.renew(lock), Math.floor(this.lockLeaseMs / 3)) };
    // Renewal must not keep a process alive that has nothing else to do.
    held.renew.unref();
    const lock: SessionLock = {
      key,
      location: this.lockLocation(key),
      release: async () => {
        if (!this.issued.has(lock)) return;
        this.issued.remove(lock);
        clearInterval(held.renew);
        noteLeaseHeld(token, false);
        // Best effort, in line behind the session's writes: a lease that cannot be deleted runs out by itself.
        if (!this.closed) {
          await this.write(`releasing the lease of session "${key}"`, () => this.sql("DELETE FROM locks WHERE key = ? AND token = ?").run(key, token)).catch(() => undefined);
        }
      },
    };
    this.issued.add(lock, held);
    return lock;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const releases = this.issued.all().map((lock) => lock.release());
    // The releases, and any write still waiting for its turn, commit before the database closes.
    this.group.flush();
    await Promise.all(releases);
    this.closed = true;
    if (this.ownsDatabase) this.db.close();
  }

  private open(key: string): void {
    if (this.closed) throw closedError("SQLite");
    checkKey(key);
  }

  private onFile<T>(doing: string, work: () => T): T {
    return onFile(this.file, doing, this.busyTimeoutMs, work);
  }

  /**
   * `work` in an immediate transaction (it holds the write lock from its start, so what it read
   * still holds when it writes), shared with the other writes of this turn of the event loop.
   */
  private write<T>(doing: string, work: () => T): Promise<T> {
    return this.group.write(doing, work);
  }

  private expired(row: { expires_at: number | null }): boolean {
    return row.expires_at !== null && row.expires_at <= this.now();
  }

  private liveSession(key: string): SessionRow | undefined {
    const row = this.sql<[string], SessionRow>("SELECT body, version, last_seq, expires_at FROM sessions WHERE key = ?").get(key);
    return row && !this.expired(row) ? row : undefined;
  }

  /** Inside a write: an expired session goes, with its checkpoints and events. */
  private dropIfExpired(key: string): void {
    const gone = this.sql("DELETE FROM sessions WHERE key = ? AND expires_at IS NOT NULL AND expires_at <= ?").run(key, this.now()).changes > 0;
    if (!gone) return;
    this.sql("DELETE FROM checkpoints WHERE key = ?").run(key);
    this.sql("DELETE FROM events WHERE key = ?").run(key);
  }

  /**
   * A new version: random (48 bits), not drawn from a shared counter, whose one row every write
   * of every session would otherwise rewrite. Two versions of one key are alike once in 2^48.
   */
  private nextVersion(): number {
    return randomInt(1, 2 ** 48);
  }

  private lastEvent(key: string): string | undefined {
    const row = this.sql<[string], { run: number; n: number }>("SELECT run, n FROM events WHERE key = ? ORDER BY run DESC, n DESC LIMIT 1").get(key);
    return row ? `${row.run}-${row.n}` : undefined;
  }

  private insertEvents(key: string, events: readonly LoggedEvent[], what: string): void {
    if (events.length === 0) return;
    const insert = this.sql("INSERT INTO events (key, run, n, event) VALUES (?, ?, ?, ?)");
    for (const event of events) {
      const dash = event.id.indexOf("-");
      try {
        insert.run(key, Number(event.id.slice(0, dash)), Number(event.id.slice(dash + 1)), event.json);
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw error;
        const conflict = new SnapshotConflictError(key, null, undefined);
        conflict.message = `${this.describe(key)}: ${what}: event ${event.id} is already in the log (${this.where("events")}); another run wrote this session; nothing was written`;
        throw conflict;
      }
    }
    // The session row counts its events, so trimming the log costs nothing until it is full.
    const count = this.sql<[number, string], { event_count: number }>("UPDATE sessions SET event_count = event_count + ? WHERE key = ? RETURNING event_count").get(events.length, key)!.event_count;
    if (count > this.maxEvents) {
      this.sql("DELETE FROM events WHERE key = ? AND (run, n) IN (SELECT run, n FROM events WHERE key = ? ORDER BY run, n LIMIT ?)").run(key, key, count - this.maxEvents);
      this.sql("UPDATE sessions SET event_count = ? WHERE key = ?").run(this.maxEvents, key);
    }
  }

  private holder(key: string): LeaseHolder | undefined {
    const row = this.sql<[string], LockRow>("SELECT token, pid, host, acquired_at, expires_at FROM locks WHERE key = ?").get(key);
    if (!row) return undefined;
    return { token: row.token, pid: row.pid, host: row.host, acquiredAt: new Date(row.acquired_at), leftMs: row.expires_at - this.now() };
  }

  /** Inside a write: with `token`, the caller holds the live lease; without, nobody else does. */
  private checkWriter(key: string, token: string | undefined, suffix = ""): void {
    const holder = this.holder(key);
    const live = holder !== undefined && holder.leftMs > 0;
    if (token !== undefined) {
      if (!live || holder.token !== token) throw this.lostError(key, holder, token);
    } else if (live && !holderIsGone(holder)) {
      throw this.lockedError(key, holder, suffix);
    }
  }

  private lockedError(key: string, holder: LeaseHolder, suffix = ""): SessionLockedError {
    const location = this.lockLocation(key);
    return new SessionLockedError(
      `${this.describe(key)} is locked by another run (${describeHolder(holder)}): ${location}. ${describeLeft(holder)} ` +
        `If no canvasflow run is using this session, clear it with: sqlite3 ${this.file} "DELETE FROM locks WHERE key = '${key.replace(/'/g, "''")}'"${suffix}`,
      key,
      location,
    );
  }

  private lostError(key: string, holder: LeaseHolder | undefined, token: string): SessionLockLostError {
    return leaseLostError(this.describe(key), this.lockLocation(key), key, holder, token);
  }

  /** Extend a held lease; one found gone or taken stops renewing (the next write reports it). */
  private renew(lock: SessionLock): void {
    if (this.closed || !this.issued.has(lock)) return;
    const held = this.issued.check(lock, lock.key, "");
    try {
      const renewed = this.sql("UPDATE locks SET expires_at = ? WHERE key = ? AND token = ? AND expires_at > ?").run(this.now() + this.lockLeaseMs, lock.key, held.token, this.now());
      if (renewed.changes === 0) clearInterval(held.renew);
    } catch {
      // Busy past the timeout: the next renewal tries again.
    }
  }

  private checkpointsCorrupt(key: string, seq: number, lastSeq: number): SnapshotCorruptError {
    const what = seq > lastSeq ? `checkpoint ${seq} is there although the session's last checkpoint is ${lastSeq}` : `checkpoint ${seq} is missing (the session's last checkpoint is ${lastSeq})`;
    return new SnapshotCorruptError(`session "${key}": ${this.where("checkpoints")} is corrupt: ${what}; nothing was changed`, key);
  }

  private where(table: string): string {
    return `table ${table} of ${this.file}`;
  }

  private describe(key: string): string {
    return `session "${key}" (${this.file})`;
  }

  private lockLocation(key: string): string {
    return `row ${JSON.stringify(key)} of table locks in ${this.file}`;
  }
}
