/**
 * Sessions in Redis (through ioredis), for backends where any worker may resume any session.
 *
 * A session `<key>` is four Redis keys, each under its own prefix so that no session key can be
 * another session's checkpoints or lock (the defaults derive from `keyPrefix`, `canvasflow:session:`):
 * - `canvasflow:session:<key>`: a hash, fields `snapshot` (the base, JSON) and `version` (a
 *   counter, 1 on the first save, bumped by every save and append);
 * - `canvasflow:session-checkpoints:<key>`: a list of the deltas appended since the base (JSON
 *   text; seq = position + 1); a save deletes it; it expires with the hash;
 * - `canvasflow:session-events:<key>`: a stream, the event log. Entry ids are the event ids
 *   (`<run>-<n>` is a valid stream id as it is), one field `event` holding the event's JSON;
 *   capped at about `maxEvents` (`MAXLEN ~`), kept by saves, removed by delete;
 * - `canvasflow:session-lock:<key>`: the lock, a string `pid hostname token since-ms` with a lease
 *   (`lockLeaseMs`, default 15 s) that its holder renews every third of it.
 *
 * Every write is one Lua script (`session-scripts.ts`): one round trip that checks the lock, the
 * version or seq and the key types, then writes. Inspect a session with
 * `redis-cli HGET canvasflow:session:<key> snapshot`, `LRANGE canvasflow:session-checkpoints:<key> 0 -1`
 * and `XRANGE canvasflow:session-events:<key> - +`.
 *
 * The keys of one session live in different hash slots: Redis Cluster is not supported.
 */
import type { Redis, RedisOptions } from "ioredis";
import type { CanvasDsl } from "../../dsl/types.js";
import { DEFAULT_REDIS_URL, RedisConnection } from "./connection.js";
import { describeLeaseHolder, forgetLease, leaseHolderIsGone, newLeaseValue } from "./lease.js";
import {
  ACQUIRE_SCRIPT,
  APPEND_SCRIPT,
  DELETE_SCRIPT,
  EVENTS_SCRIPT,
  LAST_EVENT_SCRIPT,
  LOAD_SCRIPT,
  LOG_EVENTS_SCRIPT,
  RELEASE_SCRIPT,
  RENEW_SCRIPT,
  SAVE_SCRIPT,
  TAKEOVER_SCRIPT,
} from "./session-scripts.js";
import { checkEventQuery, checkKey, checkLoggedEvents, checkRecord, checkSaveOptions, checkTtl, closedError, DEFAULT_MAX_EVENTS, IssuedLocks, parseDelta, parseSnapshot, seqConflict, serializeSnapshot, eventsOrderConflict } from "../shared/sessions.js";
import { SessionLockedError, SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotStoreError } from "../errors.js";
import type { AppendOptions, CheckpointRecord, CheckpointStore, DeleteOptions, EventQuery, LoggedEvent, SaveOptions, SessionLock, StoredEvent, StoredSnapshot } from "../contracts.js";

export { DEFAULT_REDIS_URL };
export const DEFAULT_KEY_PREFIX = "canvasflow:session:";
export const DEFAULT_LOCK_LEASE_MS = 15_000;

export interface RedisSnapshotStoreOptions {
  /** Where Redis is (default `redis://127.0.0.1:6379/0`); the store owns this connection (bounded timeouts: see `BOUNDED_REDIS_OPTIONS`). */
  url?: string;
  /** Extra ioredis options for the connection made from `url`. */
  redisOptions?: RedisOptions;
  /** Or a client you own: `close()` leaves it open. */
  client?: Redis;
  /** Prepended to every session key (default `canvasflow:session:`). */
  keyPrefix?: string;
  /** Expiry for every save that does not pass its own `ttlSeconds` (default: none). The checkpoints expire with their base. */
  ttlSeconds?: number;
  /**
   * Prepended to a session key for its lock (default: `keyPrefix` with its trailing ":" replaced
   * by "-lock:", so `canvasflow:session-lock:`). No two of the store's prefixes may start one
   * another, so a lock key is never a session key.
   */
  lockKeyPrefix?: string;
  /** How long a lock lives unless its holder renews it (default 15 s; renewed every third of it). */
  lockLeaseMs?: number;
  /** Events kept per session, the most recent ones (default 10 000). */
  maxEvents?: number;
  /** Expiry of a session's event log, counted from its last append (default: none; it goes with `delete`). */
  eventLogTtlSeconds?: number;
}

/** Script names on the client; versioned, so a client shared with an older store never runs a stale script. */
const SAVE = "canvasflowSessionSave2";
const APPEND = "canvasflowSessionAppend2";
const LOAD = "canvasflowSessionLoad2";
const EVENTS = "canvasflowSessionEvents2";
const DELETE = "canvasflowSessionDelete2";
const ACQUIRE = "canvasflowLockAcquire2";
const TAKEOVER = "canvasflowLockTakeOver2";
const RENEW = "canvasflowLockRenew2";
const RELEASE = "canvasflowLockRelease2";
const LOG_EVENTS = "canvasflowSessionLogEvents2";
const LAST_EVENT = "canvasflowSessionLastEvent2";

const SCRIPTS: Array<[name: string, keys: number, lua: string]> = [
  [SAVE, 3, SAVE_SCRIPT],
  [APPEND, 4, APPEND_SCRIPT],
  [LOAD, 3, LOAD_SCRIPT],
  [EVENTS, 1, EVENTS_SCRIPT],
  [DELETE, 4, DELETE_SCRIPT],
  [ACQUIRE, 1, ACQUIRE_SCRIPT],
  [TAKEOVER, 1, TAKEOVER_SCRIPT],
  [RENEW, 1, RENEW_SCRIPT],
  [RELEASE, 1, RELEASE_SCRIPT],
  [LOG_EVENTS, 4, LOG_EVENTS_SCRIPT],
  [LAST_EVENT, 1, LAST_EVENT_SCRIPT],
];

/** A script's reply: a status word, then details (see session-scripts.ts). */
type Reply = [status: string, ...detail: string[]];
type Scripts = {
  [SAVE](key: string, lockKey: string, checkpoints: string, json: string, mode: string, expected: string, ttlMs: string, lock: string): Promise<Reply>;
  [APPEND](key: string, lockKey: string, checkpoints: string, eventLog: string, lock: string, seq: string, delta: string, maxEvents: string, eventTtlMs: string, ...events: string[]): Promise<Reply>;
  [LOAD](key: string, lockKey: string, checkpoints: string): Promise<[string, ...unknown[]]>;
  [EVENTS](events: string, after: string, count: string, maxEvents: string): Promise<[string, ...unknown[]]>;
  [DELETE](key: string, lockKey: string, checkpoints: string, events: string, lock: string): Promise<Reply>;
  [ACQUIRE](lockKey: string, value: string, leaseMs: string): Promise<Reply>;
  [TAKEOVER](lockKey: string, dead: string, value: string, leaseMs: string): Promise<number>;
  [RENEW](lockKey: string, lock: string, leaseMs: string): Promise<number>;
  [RELEASE](lockKey: string, lock: string): Promise<number>;
  [LOG_EVENTS](key: string, lockKey: string, checkpoints: string, eventLog: string, lock: string, maxEvents: string, eventTtlMs: string, ...events: string[]): Promise<Reply>;
  [LAST_EVENT](events: string): Promise<Reply>;
};

/** A stream entry as ioredis returns it: the id and the flat field list. */
type StreamEntry = [id: string, fields: string[]];

/** A lock this store holds: its value in Redis and the timer that renews its lease. */
interface HeldRedisLock {
  value: string;
  token: string;
  renew: NodeJS.Timeout;
}

/** What each key of a session is, for messages about a key holding the wrong Redis type. */
const ROLES: Record<string, string> = {
  session: "a hash (a session is a hash with snapshot and version fields)",
  checkpoints: "a list (the session's checkpoints)",
  events: "a stream (the session's event log)",
  lock: "a string (the session's lock)",
};

export class RedisSnapshotStore implements CheckpointStore {
  /**
   * `sync`: a checkpoint is one round trip (about as much as a PING); Redis holds it as soon as
   * it answers, so waiting for it before the next batch costs little.
   */
  readonly defaultDurability = "sync" as const;
  readonly client: Redis;
  readonly keyPrefix: string;
  readonly lockKeyPrefix: string;
  readonly checkpointsKeyPrefix: string;
  readonly eventsKeyPrefix: string;
  private readonly connection: RedisConnection;
  private readonly lockLeaseMs: number;
  private readonly maxEvents: number;
  private readonly eventLogTtlMs: string;
  private readonly issued = new IssuedLocks<HeldRedisLock>();
  private readonly defaultTtlSeconds: number | undefined;
  private closed = false;

  constructor(options: RedisSnapshotStoreOptions = {}) {
    this.keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    if (typeof this.keyPrefix !== "string") throw new SnapshotStoreError("keyPrefix must be a string");
    this.lockKeyPrefix = options.lockKeyPrefix ?? derivedPrefix(this.keyPrefix, "lock");
    if (typeof this.lockKeyPrefix !== "string") throw new SnapshotStoreError("lockKeyPrefix must be a string");
    this.checkpointsKeyPrefix = derivedPrefix(this.keyPrefix, "checkpoints");
    this.eventsKeyPrefix = derivedPrefix(this.keyPrefix, "events");
    checkPrefixesApart([
      { name: "keyPrefix", role: "session", prefix: this.keyPrefix },
      { name: "lockKeyPrefix", role: "lock", prefix: this.lockKeyPrefix },
      { name: "the checkpoints prefix", role: "checkpoints", prefix: this.checkpointsKeyPrefix },
      { name: "the event log prefix", role: "event log", prefix: this.eventsKeyPrefix },
    ]);
    this.lockLeaseMs = options.lockLeaseMs ?? DEFAULT_LOCK_LEASE_MS;
    if (!Number.isInteger(this.lockLeaseMs) || this.lockLeaseMs < 30) {
      throw new SnapshotStoreError(`lockLeaseMs must be a whole number of milliseconds, at least 30; got ${String(options.lockLeaseMs)}`);
    }
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    if (!Number.isInteger(this.maxEvents) || this.maxEvents < 1) {
      throw new SnapshotStoreError(`maxEvents must be a whole number from 1, got ${String(options.maxEvents)}`);
    }
    this.eventLogTtlMs = options.eventLogTtlSeconds === undefined ? "0" : milliseconds(checkTtl("eventLogTtlSeconds", options.eventLogTtlSeconds));
    this.defaultTtlSeconds = options.ttlSeconds === undefined ? undefined : checkTtl("ttlSeconds", options.ttlSeconds);
    this.connection = new RedisConnection(options, "RedisSnapshotStore", (message) => new SnapshotStoreError(message));
    this.client = this.connection.client;
    const defined = this.client as unknown as Record<string, unknown>;
    for (const [name, numberOfKeys, lua] of SCRIPTS) {
      if (typeof defined[name] !== "function") this.client.defineCommand(name, { numberOfKeys, lua });
    }
  }

  /** The Redis key a session is kept under (its base and version). */
  redisKey(key: string): string {
    return this.keyPrefix + checkKey(key);
  }

  /** The Redis key a session's lock is kept under. */
  lockKey(key: string): string {
    return this.lockKeyPrefix + checkKey(key);
  }

  /** The Redis key of a session's checkpoints (a list). */
  checkpointsKey(key: string): string {
    return this.checkpointsKeyPrefix + checkKey(key);
  }

  /** The Redis key of a session's event log (a stream). */
  eventsKey(key: string): string {
    return this.eventsKeyPrefix + checkKey(key);
  }

  async load(key: string): Promise<StoredSnapshot | undefined> {
    const redisKey = this.redisKey(key);
    const checkpointsKey = this.checkpointsKey(key);
    const [status, ...detail] = await this.command(key, () => this.scripts[LOAD](redisKey, this.lockKey(key), checkpointsKey));
    if (status === "none") return undefined;
    this.refuse(key, status, detail as string[]);
    const [text, version, deltas] = detail as [string | null, string | null, string[]];
    if (text === null && version === null) {
      throw new SnapshotCorruptError(`${this.describe(key)} is corrupt: the hash has neither a snapshot nor a version field`, key);
    }
    if (text === null || version === null) {
      throw new SnapshotCorruptError(`${this.describe(key)} is corrupt: the hash has no ${text === null ? "snapshot" : "version"} field`, key);
    }
    return {
      snapshot: parseSnapshot(key, text, this.describe(key)),
      version,
      deltas: deltas.map((delta, i) => parseDelta(key, `redis key ${checkpointsKey}`, i + 1, delta)),
    };
  }

  async save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string> {
    const redisKey = this.redisKey(key);
    const { expectedVersion, ttlSeconds = this.defaultTtlSeconds, lock } = checkSaveOptions(options);
    const text = serializeSnapshot(key, snapshot);
    const mode = expectedVersion === undefined ? "any" : expectedVersion === null ? "absent" : "version";
    const ttlMs = ttlSeconds === undefined ? "0" : milliseconds(ttlSeconds);
    const lockValue = lock === undefined ? "" : this.issued.check(lock, key, this.describe(key)).value;
    const [status, ...detail] = await this.command(key, () =>
      this.scripts[SAVE](redisKey, this.lockKey(key), this.checkpointsKey(key), text, mode, expectedVersion ?? "", ttlMs, lockValue),
    );
    this.refuse(key, status, detail);
    if (status === "conflict") throw new SnapshotConflictError(key, expectedVersion ?? null, detail[0] === "" ? undefined : detail[0]);
    return detail[0];
  }

  async append(key: string, record: CheckpointRecord, options: AppendOptions): Promise<string> {
    const redisKey = this.redisKey(key);
    checkRecord(key, record);
    const lock = options?.lock;
    if (lock === undefined) throw new SessionLockLostError(`${this.describe(key)}: a checkpoint is written only under the session's lock; nothing was written`, key);
    const { value } = this.issued.check(lock, key, this.describe(key));
    const events = record.events.flatMap((event) => [event.id, event.json]);
    const [status, ...detail] = await this.command(key, () =>
      this.scripts[APPEND](redisKey, this.lockKey(key), this.checkpointsKey(key), this.eventsKey(key), value, String(record.seq), record.delta, String(this.maxEvents), this.eventLogTtlMs, ...events),
    );
    this.refuse(key, status, detail);
    if (status === "nobase") throw seqConflict(key, 0, record.seq);
    if (status === "conflict") throw seqConflict(key, Number(detail[0]), record.seq);
    if (status === "order") throw eventsOrderConflict(key, `checkpoint ${record.seq}`, record.events[0].id, detail[0], `redis key ${this.eventsKey(key)}`);
    return detail[0];
  }

  async logEvents(key: string, events: LoggedEvent[], options: AppendOptions): Promise<void> {
    const redisKey = this.redisKey(key);
    checkLoggedEvents(key, events);
    const lock = options?.lock;
    if (lock === undefined) throw new SessionLockLostError(`${this.describe(key)}: events are logged only under the session's lock; nothing was written`, key);
    const { value } = this.issued.check(lock, key, this.describe(key));
    const pairs = events.flatMap((event) => [event.id, event.json]);
    const [status, ...detail] = await this.command(key, () =>
      this.scripts[LOG_EVENTS](redisKey, this.lockKey(key), this.checkpointsKey(key), this.eventsKey(key), value, String(this.maxEvents), this.eventLogTtlMs, ...pairs),
    );
    this.refuse(key, status, detail);
    if (status === "nobase") {
      const error = new SnapshotConflictError(key, null, undefined);
      error.message = `${this.describe(key)} does not exist: events are logged for a saved session; nothing was written`;
      throw error;
    }
    if (status === "order") throw eventsOrderConflict(key, "logEvents", events[0].id, detail[0], `redis key ${this.eventsKey(key)}`);
  }

  async lastEventId(key: string): Promise<string | undefined> {
    const eventsKey = this.eventsKey(key);
    const [status, ...detail] = await this.command(key, () => this.scripts[LAST_EVENT](eventsKey));
    this.refuse(key, status, detail);
    return detail[0] === "" ? undefined : detail[0];
  }

  async events(key: string, query?: EventQuery): Promise<StoredEvent[]> {
    const eventsKey = this.eventsKey(key);
    const { limit } = checkEventQuery(query);
    const count = Number.isFinite(limit) ? String(limit) : "0";
    const [status, ...detail] = await this.command(key, () => this.scripts[EVENTS](eventsKey, query?.after ?? "", count, String(this.maxEvents)));
    this.refuse(key, status, detail as string[]);
    return (detail[0] as StreamEntry[]).map(([id, fields]) => ({ id, event: this.parseEvent(key, eventsKey, id, fields) }));
  }

  async delete(key: string, options?: DeleteOptions): Promise<boolean> {
    const redisKey = this.redisKey(key);
    const lockValue = options?.lock === undefined ? "" : this.issued.check(options.lock, key, this.describe(key)).value;
    const [status, ...detail] = await this.command(key, () =>
      this.scripts[DELETE](redisKey, this.lockKey(key), this.checkpointsKey(key), this.eventsKey(key), lockValue),
    );
    this.refuse(key, status, detail);
    return Number(detail[0]) > 0;
  }

  /**
   * Take the session's lock. A lock held by a process on this host that no longer runs is taken
   * over at once (compare-and-set on the value judged dead, so two takers cannot both win); any
   * other holder's is refused until its lease runs out.
   */
  async lock(key: string): Promise<SessionLock> {
    const lockKey = this.lockKey(key);
    const { value, token } = newLeaseValue();
    const lease = String(this.lockLeaseMs);
    try {
      // A few tries: a lock that expires or is taken over between two looks is simply gone.
      for (let attempt = 0; ; attempt++) {
        const [status, ...detail] = await this.command(key, () => this.scripts[ACQUIRE](lockKey, value, lease));
        if (status === "taken") break;
        this.refuse(key, status, detail);
        const [holder, ttl] = detail as [string | null, string];
        const locked = () => new SessionLockedError(this.lockedMessage(key, holder ?? "", Number(ttl)), key, lockKey);
        if (holder !== null && !leaseHolderIsGone(holder)) throw locked();
        if (holder !== null && (await this.command(key, () => this.scripts[TAKEOVER](lockKey, holder, value, lease))) === 1) break;
        if (attempt >= 3) throw locked();
      }
    } catch (error) {
      forgetLease(token);
      throw error;
    }
    const held: HeldRedisLock = { value, token, renew: setInterval(() => void this.renew(lock, lockKey), Math.floor(this.lockLeaseMs / 3)) };
    // Renewal must not keep a process alive that has nothing else to do.
    held.renew.unref();
    const lock: SessionLock = {
      key,
      location: `redis key ${lockKey}`,
      release: async () => {
        if (!this.issued.has(lock)) return;
        this.issued.remove(lock);
        clearInterval(held.renew);
        forgetLease(token);
        if (!this.closed || this.client.status === "ready") {
          await this.scripts[RELEASE](lockKey, value).catch(() => undefined);
        }
      },
    };
    this.issued.add(lock, held);
    return lock;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Let go of the locks first, while the connection is still there.
    for (const lock of this.issued.all()) await lock.release();
    this.closed = true;
    await this.connection.close();
  }

  /** Where Redis is, without credentials. */
  get location(): string {
    return this.connection.location;
  }

  private describe(key: string): string {
    return `session "${key}" (redis key ${this.keyPrefix}${key})`;
  }

  private get scripts(): Scripts {
    return this.client as unknown as Scripts;
  }

  /** Extend a held lock's lease; a lock found gone or taken stops renewing (the next write reports it). */
  private async renew(lock: SessionLock, lockKey: string): Promise<void> {
    const held = this.issued.has(lock) ? this.issued.check(lock, lock.key, this.describe(lock.key)) : undefined;
    if (!held || this.closed) return;
    const renewed = await this.scripts[RENEW](lockKey, held.value, String(this.lockLeaseMs)).catch(() => undefined);
    if (renewed === 0) clearInterval(held.renew);
  }

  private parseEvent(key: string, eventsKey: string, id: string, fields: string[]): Record<string, unknown> {
    const at = fields.indexOf("event");
    const where = `session "${key}": event ${id} in redis key ${eventsKey}`;
    if (at < 0 || at % 2 !== 0) throw new SnapshotCorruptError(`${where} is corrupt: it has no "event" field (fields: ${fields.filter((_, i) => i % 2 === 0).join(", ")})`, key);
    try {
      return JSON.parse(fields[at + 1]) as Record<string, unknown>;
    } catch (error) {
      throw new SnapshotCorruptError(`${where} is not valid JSON (${(error as Error).message})`, key);
    }
  }

  /** Refusals any script may give: the lock, a key of the wrong Redis type, a corrupt hash. */
  private refuse(key: string, status: string, detail: Array<string | null>): void {
    const [first = ""] = detail;
    if (status === "locked") throw new SessionLockedError(`${this.lockedMessage(key, first ?? "", undefined)}; nothing was written`, key, this.lockKey(key));
    if (status === "lost") {
      const now = !first ? "it is gone (its lease ran out, or it was deleted)" : `it is now held by ${describeLeaseHolder(first)}`;
      throw new SessionLockLostError(`${this.describe(key)}: this run no longer holds its lock ${this.lockKey(key)}: ${now}; nothing was written`, key);
    }
    if (status === "corrupt") throw new SnapshotCorruptError(`${this.describe(key)} is corrupt: ${first}; nothing was changed`, key);
    if (status !== "wrongtype") return;
    const [role, type] = detail as [string, string];
    const redisKey = { session: this.keyPrefix, checkpoints: this.checkpointsKeyPrefix, events: this.eventsKeyPrefix, lock: this.lockKeyPrefix }[role] + key;
    const what = role === "session" ? "it" : `its ${role} key ${redisKey}`;
    throw new SnapshotCorruptError(
      `${this.describe(key)} is corrupt: ${what} holds a Redis ${type}, not ${ROLES[role] ?? role}. Nothing was changed; remove it with: redis-cli DEL ${redisKey}`,
      key,
    );
  }

  private lockedMessage(key: string, holder: string, ttlMs: number | undefined): string {
    const lockKey = this.lockKey(key);
    const expiry = ttlMs === undefined ? "" : ttlMs < 0 ? " It has no expiry." : ` It expires in ${Math.max(1, Math.ceil(ttlMs / 1000))} s unless its holder renews it.`;
    return (
      `${this.describe(key)} is locked by another run (${describeLeaseHolder(holder)}): lock key ${lockKey}.${expiry} ` +
      `If no canvasflow run is using this session, clear it with: redis-cli DEL ${lockKey}`
    );
  }

  /** Run Redis commands, turning what Redis reports into errors that name the server and the session. */
  private async command<T>(key: string, run: () => Promise<T>): Promise<T> {
    if (this.closed) throw closedError("Redis");
    try {
      return await run();
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw error;
      const failure = this.connection.failure(error as Error);
      // The server is what is wrong, not the session: the message names the server only.
      if (failure) throw new SnapshotStoreError(failure, key);
      throw new SnapshotStoreError(`Redis at ${this.location}, ${this.describe(key)}: ${(error as Error).message}`, key);
    }
  }
}

/** `canvasflow:session:` → `canvasflow:session-<role>:`; any other prefix gets "-<role>:" in place of its trailing ":". */
function derivedPrefix(keyPrefix: string, role: string): string {
  return `${keyPrefix.endsWith(":") ? keyPrefix.slice(0, -1) : keyPrefix}-${role}:`;
}

interface NamedPrefix {
  /** How the prefix is named in a message: the option, or how it is derived. */
  name: string;
  /** What its keys are. */
  role: string;
  prefix: string;
}

/** No prefix may start another, or one session's lock or log could be another session's key. */
function checkPrefixesApart(prefixes: NamedPrefix[]): void {
  for (const a of prefixes) {
    for (const b of prefixes) {
      if (a !== b && b.prefix.startsWith(a.prefix)) {
        throw new SnapshotStoreError(
          `${a.name} "${a.prefix}" and ${b.name} "${b.prefix}" overlap (one starts the other), so a ${b.role} key could be a ${a.role} key: ` +
            `pass a keyPrefix and a lockKeyPrefix that do not start one another (the checkpoints and event log prefixes are the keyPrefix with "-checkpoints:" and "-events:" for its trailing ":")`,
        );
      }
    }
  }
}

function milliseconds(seconds: number): string {
  return String(Math.max(1, Math.round(seconds * 1000)));
}
