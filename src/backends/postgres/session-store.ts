/**
 * Sessions in PostgreSQL (through `pg`): for deployments that trust a database to keep data on
 * disk, and where any worker may resume any session.
 *
 * The tables (see `session-schema.ts`) live in one schema, default `canvasflow`, and are
 * created on first use. A session is a row of `sessions` (the base snapshot, its version, the
 * last checkpoint's seq), its checkpoints rows of `checkpoints` (key, seq), its event log rows of
 * `events` (key, run, n), its lease a row of `locks`. Each operation takes one pooled connection;
 * an append is one statement (`postgres-statements.ts`), so one transaction and one round trip.
 *
 * Versions come from a sequence: they change with every save and append and never repeat.
 */
import type pg from "pg";
import type { CanvasDsl } from "../../dsl/types.js";
import { isPlainObject } from "../../util/values.js";
import { checkEventQuery, checkKey, checkEventsFollow, checkLoggedEvents, checkRecord, checkSaveOptions, checkTtl, closedError, DEFAULT_MAX_EVENTS, IssuedLocks, parseDelta, parseSnapshot, seqConflict, serializeSnapshot } from "../shared/sessions.js";
import { SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError } from "../errors.js";
import type { AppendOptions, CheckpointRecord, CheckpointStore, DeleteOptions, EventQuery, LoggedEvent, SaveOptions, SessionLock, StoredEvent, StoredSnapshot } from "../contracts.js";
import { DEFAULT_POSTGRES_URL, describeTarget, isSqlError, openPool, withClient, type PostgresConnectionOptions } from "./connection.js";
import { leaseLostError } from "../shared/lease.js";
import { DEFAULT_POSTGRES_SCHEMA, ensureSchema, postgresTables, type PostgresTables } from "./session-schema.js";
import { sessionStatements, type SessionStatements } from "./session-statements.js";
import {
  holderFromRow,
  holderIsGone,
  leaseStatements,
  lockedError,
  newLeaseToken,
  noteLeaseHeld,
  readHolder,
  takeLease,
  type LeaseHolder,
  type LeaseStatements,
} from "./lease.js";

export const DEFAULT_POSTGRES_LOCK_LEASE_MS = 15_000;

export interface PostgresSnapshotStoreOptions extends PostgresConnectionOptions {
  /** Where PostgreSQL is (default `postgres://postgres@127.0.0.1:5432/postgres`); the store owns this pool. */
  url?: string;
  /** Or a pool you own: `close()` leaves it open. */
  pool?: pg.Pool;
  /** The schema holding the tables (default `canvasflow`); created on first use with them. */
  schema?: string;
  /** Expiry for every save that does not pass its own `ttlSeconds` (default: none). */
  ttlSeconds?: number;
  /** How long a lease lives unless its holder renews it (default 15 s; renewed every third of it). */
  lockLeaseMs?: number;
  /** Events kept per session, the most recent ones (default 10 000). */
  maxEvents?: number;
}

/** A lease this store holds: its token and the timer that renews it. */
interface HeldLease {
  token: string;
  renew: NodeJS.Timeout;
}

/** PostgreSQL's B-tree entries are limited to about 2.7 kB; keys stay well within that. */
const MAX_KEY_BYTES = 2_000;

interface LoadRow {
  seq: number;
  body: string;
  version: string | null;
  last_seq: number | null;
  expired: boolean | null;
}

interface LogEventsRow {
  logged: boolean;
  leased: boolean;
  /** The session exists (expired or not). */
  found: boolean;
  expired: boolean | null;
  last_event: string | null;
}

interface AppendRow {
  version: string | null;
  leased: boolean;
  last_seq: number | null;
  expired: boolean | null;
  /** The last event id logged, `<run>-<n>`. */
  last_event: string | null;
  /** The checkpoint's first event comes after it. */
  ordered: boolean;
}

interface StateRow {
  token: string | null;
  pid: number | null;
  host: string | null;
  acquired_at: Date | null;
  left_ms: number | null;
  version: string | null;
  last_seq: number | null;
  expired: boolean | null;
}

export class PostgresSnapshotStore implements CheckpointStore {
  /**
   * `async`: a commit waits for the server's WAL flush (1–3 ms measured here), longer than most
   * steps; written behind the run, in order, the run does not wait, and everything is committed
   * before its last event. A crash re-runs the steps whose checkpoints were still queued
   * (at-least-once either way). Choose `sync` to re-run no more than what was in flight.
   */
  readonly defaultDurability = "async" as const;
  readonly pool: pg.Pool;
  readonly tables: PostgresTables;
  /** `host:port/database`, for messages. */
  readonly location: string;
  private readonly ownsPool: boolean;
  private readonly sql: SessionStatements;
  private readonly leaseSql: LeaseStatements;
  private readonly lockLeaseMs: number;
  private readonly maxEvents: number;
  private readonly defaultTtlSeconds: number | undefined;
  private readonly issued = new IssuedLocks<HeldLease>();
  private ready: Promise<void> | undefined;
  private closed = false;

  constructor(options: PostgresSnapshotStoreOptions = {}) {
    if (options.pool && options.url !== undefined) throw new SnapshotStoreError("pass either url or pool to PostgresSnapshotStore, not both");
    this.tables = postgresTables(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
    this.lockLeaseMs = options.lockLeaseMs ?? DEFAULT_POSTGRES_LOCK_LEASE_MS;
    if (!Number.isInteger(this.lockLeaseMs) || this.lockLeaseMs < 30) {
      throw new SnapshotStoreError(`lockLeaseMs must be a whole number of milliseconds, at least 30; got ${String(options.lockLeaseMs)}`);
    }
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    if (!Number.isInteger(this.maxEvents) || this.maxEvents < 1 || this.maxEvents > 2 ** 31 - 1) {
      throw new SnapshotStoreError(`maxEvents must be a whole number from 1, got ${String(options.maxEvents)}`);
    }
    this.defaultTtlSeconds = options.ttlSeconds === undefined ? undefined : checkTtl("ttlSeconds", options.ttlSeconds);
    const target = options.pool ?? options.url ?? DEFAULT_POSTGRES_URL;
    this.location = describeTarget(target);
    this.ownsPool = options.pool === undefined;
    this.pool = options.pool ?? openPool(target as string, options);
    this.sql = sessionStatements(this.tables);
    this.leaseSql = leaseStatements(this.tables);
  }

  async load(key: string): Promise<StoredSnapshot | undefined> {
    this.checkKey(key);
    return this.run(key, async (client) => {
      const rows = (await client.query<LoadRow>(this.sql.load, [key])).rows;
      const base = rows[0];
      if (!base || base.seq !== 0) return undefined;
      if (base.expired) {
        await client.query(this.sql.deleteExpired, [key]);
        return undefined;
      }
      const snapshot = parseSnapshot(key, base.body, this.describe(key));
      const lastSeq = base.last_seq ?? 0;
      const deltas: unknown[] = [];
      for (let i = 1; i < rows.length; i++) {
        const { seq, body } = rows[i];
        if (seq !== i || seq > lastSeq) throw this.checkpointsCorrupt(key, seq === i ? seq : i, lastSeq);
        deltas.push(parseDelta(key, this.checkpointsTable, seq, body));
      }
      if (deltas.length !== lastSeq) throw this.checkpointsCorrupt(key, deltas.length + 1, lastSeq);
      return { snapshot, version: base.version!, deltas };
    });
  }

  async save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string> {
    this.checkKey(key);
    const { expectedVersion, ttlSeconds = this.defaultTtlSeconds, lock } = checkSaveOptions(options);
    const text = serializeSnapshot(key, snapshot);
    const token = lock === undefined ? undefined : this.issued.check(lock, key, this.describe(key)).token;
    const ttlMs = ttlSeconds === undefined ? null : ttlSeconds * 1000;
    return this.transaction(key, async (client) => {
      const state = await this.lockedState(client, key, token);
      const current = state.version ?? undefined;
      if (expectedVersion !== undefined && expectedVersion !== (current ?? null)) throw new SnapshotConflictError(key, expectedVersion, current);
      if (current !== undefined) {
        const version = (await client.query<{ version: string }>(this.sql.replace, [key, text, ttlMs])).rows[0].version;
        if ((state.last_seq ?? 0) > 0) await client.query(this.sql.dropCheckpoints, [key]);
        return version;
      }
      if (expectedVersion === undefined) {
        // Another writer may create the row between our look and our write: then it is replaced.
        const version = (await client.query<{ version: string }>(this.sql.upsert, [key, text, ttlMs])).rows[0].version;
        await client.query(this.sql.dropCheckpoints, [key]);
        return version;
      }
      const created = await client.query<{ version: string }>(this.sql.create, [key, text, ttlMs]);
      if (created.rowCount === 1) return created.rows[0].version;
      const found = (await client.query<{ version: string }>(this.sql.version, [key])).rows[0]?.version;
      throw new SnapshotConflictError(key, expectedVersion, found);
    });
  }

  async append(key: string, record: CheckpointRecord, options: AppendOptions): Promise<string> {
    this.checkKey(key);
    checkRecord(key, record);
    const lock = options?.lock;
    if (lock === undefined) throw new SessionLockLostError(`${this.describe(key)}: a checkpoint is written only under the session's lock; nothing was written`, key);
    const { token } = this.issued.check(lock, key, this.describe(key));
    // More events than the log keeps: only the most recent ones would stay anyway.
    const events = record.events.length > this.maxEvents ? record.events.slice(-this.maxEvents) : record.events;
    const { runs, numbers, texts } = eventColumns(events);
    return this.run(key, async (client) => {
      let row: AppendRow;
      try {
        row = (await client.query<AppendRow>({ name: `canvasflow-append-${this.tables.schema}`, text: this.sql.append, values: [key, token, record.seq, record.delta, runs, numbers, texts, this.maxEvents] })).rows[0];
      } catch (error) {
        throw this.appendFailure(error, key, record.seq) ?? error;
      }
      if (row.version !== null) return row.version;
      if (!row.leased) throw await this.lockLost(client, key, token);
      if (row.last_seq === null || row.expired) {
        const error = new SnapshotConflictError(key, null, undefined);
        error.message = `${this.describe(key)}: checkpoint ${record.seq} has no base to follow: the session does not exist${row.expired ? " (it expired)" : ""}; save a base first; nothing was written`;
        throw error;
      }
      if (row.last_seq + 1 !== record.seq) throw seqConflict(key, row.last_seq + 1, record.seq);
      checkEventsFollow(key, row.last_event ?? undefined, record);
      throw seqConflict(key, row.last_seq + 1, record.seq);
    });
  }

  async logEvents(key: string, events: LoggedEvent[], options: AppendOptions): Promise<void> {
    this.checkKey(key);
    checkLoggedEvents(key, events);
    const lock = options?.lock;
    if (lock === undefined) throw new SessionLockLostError(`${this.describe(key)}: events are logged only under the session's lock; nothing was written`, key);
    const { token } = this.issued.check(lock, key, this.describe(key));
    const kept = events.length > this.maxEvents ? events.slice(-this.maxEvents) : events;
    const { runs, numbers, texts } = eventColumns(kept);
    await this.run(key, async (client) => {
      let row: LogEventsRow;
      try {
        row = (await client.query<LogEventsRow>({ name: `canvasflow-log-events-${this.tables.schema}`, text: this.sql.logEvents, values: [key, token, runs, numbers, texts, this.maxEvents] })).rows[0];
      } catch (error) {
        throw this.appendFailure(error, key, undefined) ?? error;
      }
      if (row.logged) return;
      if (!row.leased) throw await this.lockLost(client, key, token);
      if (!row.found || row.expired) {
        const error = new SnapshotConflictError(key, null, undefined);
        error.message = `${this.describe(key)} does not exist${row.expired ? " (it expired)" : ""}: events are logged for a saved session; nothing was written`;
        throw error;
      }
      checkEventsFollow(key, row.last_event ?? undefined, events);
      throw new SnapshotStoreError(`${this.describe(key)}: logEvents wrote nothing, for no reason the store knows; nothing was written`, key);
    });
  }

  async lastEventId(key: string): Promise<string | undefined> {
    this.checkKey(key);
    return this.run(key, async (client) => (await client.query<{ id: string }>(this.sql.lastEvent, [key])).rows[0]?.id);
  }

  async events(key: string, query?: EventQuery): Promise<StoredEvent[]> {
    this.checkKey(key);
    const { after, limit } = checkEventQuery(query);
    const [run, n] = after ?? [-1, -1];
    return this.run(key, async (client) => {
      const rows = (await client.query<{ run: string; n: string; event: string }>(this.sql.events, [key, run, n, Number.isFinite(limit) ? limit : null])).rows;
      return rows.map((row) => {
        const id = `${row.run}-${row.n}`;
        let event: unknown;
        try {
          event = JSON.parse(row.event);
        } catch (error) {
          throw new SnapshotCorruptError(`session "${key}": event ${id} in ${this.eventsTable} is not valid JSON (${(error as Error).message})`, key);
        }
        if (!isPlainObject(event)) throw new SnapshotCorruptError(`session "${key}": event ${id} in ${this.eventsTable} is not a JSON object`, key);
        return { id, event };
      });
    });
  }

  async delete(key: string, options?: DeleteOptions): Promise<boolean> {
    this.checkKey(key);
    const token = options?.lock === undefined ? undefined : this.issued.check(options.lock, key, this.describe(key)).token;
    return this.transaction(key, async (client) => {
      await this.lockedState(client, key, token);
      return (await client.query<{ existed: boolean }>(this.sql.delete, [key])).rows[0].existed;
    });
  }

  async lock(key: string): Promise<SessionLock> {
    this.checkKey(key);
    const token = newLeaseToken();
    const location = this.lockLocation(key);
    noteLeaseHeld(token, true);
    try {
      const holder = await this.run(key, (client) => takeLease(client, this.leaseSql, key, token, this.lockLeaseMs));
      if (holder) throw lockedError(this.describe(key), key, location, this.tables, holder);
    } catch (error) {
      noteLeaseHeld(token, false);
      throw error;
    }
    const held: HeldLease = { token, renew: setInterval(() => void this.renew(lock), Math.floor(this.lockLeaseMs / 3)) };
    // Renewal must not keep a process alive that has nothing else to do.
    held.renew.unref();
    const lock: SessionLock = {
      key,
      location,
      release: async () => {
        if (!this.issued.has(lock)) return;
        this.issued.remove(lock);
        clearInterval(held.renew);
        noteLeaseHeld(token, false);
        // Best effort: a lease that cannot be deleted now runs out by itself.
        await this.pool.query(this.leaseSql.release, [key, token]).catch(() => undefined);
      },
    };
    this.issued.add(lock, held);
    return lock;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Let go of the leases first, while the pool is still there.
    for (const lock of this.issued.all()) await lock.release();
    this.closed = true;
    if (this.ownsPool) await this.pool.end().catch(() => undefined);
  }

  private get checkpointsTable(): string {
    return `table ${this.tables.shown.checkpoints} at ${this.location}`;
  }

  private get eventsTable(): string {
    return `table ${this.tables.shown.events} at ${this.location}`;
  }

  private describe(key: string): string {
    return `session "${key}" (${this.tables.shown.sessions} at ${this.location})`;
  }

  private lockLocation(key: string): string {
    return `row ${JSON.stringify(key)} of ${this.tables.shown.locks} at ${this.location}`;
  }

  private checkKey(key: string): void {
    checkKey(key);
    const bytes = Buffer.byteLength(key, "utf8");
    if (bytes > MAX_KEY_BYTES) throw new SnapshotKeyError(`session key is ${bytes} bytes long in UTF-8; PostgreSQL's index limit allows ${MAX_KEY_BYTES}`, key);
  }

  private checkpointsCorrupt(key: string, seq: number, lastSeq: number): SnapshotCorruptError {
    const what = seq > lastSeq ? `checkpoint ${seq} is there although the session's last checkpoint is ${lastSeq}` : `checkpoint ${seq} is missing (the session's last checkpoint is ${lastSeq})`;
    return new SnapshotCorruptError(`session "${key}": ${this.checkpointsTable} is corrupt: ${what}; nothing was changed`, key);
  }

  /** Map what the append (or logEvents, without a seq) statement's constraints refused; undefined for anything else. */
  private appendFailure(error: unknown, key: string, seq: number | undefined): SnapshotStoreError | undefined {
    if (!isSqlError(error) || error.code !== "23505") return undefined;
    if (error.constraint === "events_pkey") {
      const conflict = new SnapshotConflictError(key, null, undefined);
      conflict.message = `${this.describe(key)}: ${seq === undefined ? "logEvents" : `checkpoint ${seq}`}: one of its event ids is already in the log (${this.eventsTable}); another run wrote this session; nothing was written`;
      return conflict;
    }
    if (error.constraint === "checkpoints_pkey" && seq !== undefined) {
      return new SnapshotCorruptError(`session "${key}": ${this.checkpointsTable} is corrupt: it already holds a checkpoint ${seq} although the session's last checkpoint is ${seq - 1}; nothing was written`, key);
    }
    return undefined;
  }

  /**
   * Inside a save's or delete's transaction: lock the session's lease and row, and check the
   * caller may write (with `token`: it holds the live lease; without: nobody else does). An
   * expired session is deleted here, so what follows sees it absent.
   */
  private async lockedState(client: pg.PoolClient, key: string, token: string | undefined): Promise<StateRow> {
    const state = (await client.query<StateRow>(this.sql.state, [key])).rows[0];
    const holder = holderFromRow(state);
    const live = holder !== undefined && holder.leftMs > 0;
    if (token !== undefined) {
      if (!live || holder.token !== token) throw this.lostError(key, holder, token);
    } else if (live && !holderIsGone(holder)) {
      throw lockedError(this.describe(key), key, this.lockLocation(key), this.tables, holder, " Nothing was written.");
    }
    if (state.expired) {
      await client.query(this.sql.deleteExpired, [key]);
      return { ...state, version: null, last_seq: null, expired: null };
    }
    return state;
  }

  private async lockLost(client: pg.PoolClient, key: string, token: string): Promise<SessionLockLostError> {
    return this.lostError(key, await readHolder(client, this.leaseSql, key), token);
  }

  private lostError(key: string, holder: LeaseHolder | undefined, token: string): SessionLockLostError {
    return leaseLostError(this.describe(key), this.lockLocation(key), key, holder, token);
  }

  /** Extend a held lease; one found gone or taken stops renewing (the next write reports it). */
  private async renew(lock: SessionLock): Promise<void> {
    if (this.closed || !this.issued.has(lock)) return;
    const held = this.issued.check(lock, lock.key, "");
    const renewed = await this.pool.query(this.leaseSql.renew, [lock.key, held.token, this.lockLeaseMs]).catch(() => undefined);
    if (renewed?.rowCount === 0) clearInterval(held.renew);
  }

  /** One pooled connection for `work`, once the tables exist. */
  private async run<T>(key: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.closed) throw closedError("PostgreSQL");
    await this.schemaReady();
    return withClient(this.pool, this.location, `session "${key}"`, key, work);
  }

  /** `work` in one transaction on one pooled connection. */
  private transaction<T>(key: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.run(key, async (client) => {
      await client.query("BEGIN");
      try {
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    });
  }

  private schemaReady(): Promise<void> {
    this.ready ??= ensureSchema(this.pool, this.tables, this.location).catch((error: unknown) => {
      // Try again next time: the server may be back.
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }
}

/** Events as the statements take them: runs, numbers and JSON texts in three parallel arrays. */
function eventColumns(events: readonly LoggedEvent[]): { runs: string[]; numbers: string[]; texts: string[] } {
  const runs: string[] = [];
  const numbers: string[] = [];
  const texts: string[] = [];
  for (const event of events) {
    const dash = event.id.indexOf("-");
    runs.push(event.id.slice(0, dash));
    numbers.push(event.id.slice(dash + 1));
    texts.push(event.json);
  }
  return { runs, numbers, texts };
}
