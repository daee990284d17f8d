/**
 * Sessions in Redis (through ioredis), for backends where any worker may resume any session.
 *
 * Each session is one hash at `<keyPrefix><key>` (default prefix `canvasflow:session:`) with two
 * fields: `snapshot` (the JSON text) and `version` (a counter, 1 on the first save). A save runs as
 * one Lua script: it compares the version, bumps it, writes the snapshot and sets or clears the
 * expiry, so no other client can write in between. Inspect one with
 * `redis-cli HGET canvasflow:session:<key> snapshot`.
 *
 * A session's lock is a string at `<lockKeyPrefix><key>` (default `canvasflow:session-lock:`)
 * holding `pid hostname token since-ms`, set with NX and a lease (`lockLeaseMs`, default 15 s)
 * that the holder renews while it runs; a holder that died loses it when the lease runs out. The
 * save script checks the lock in the same step as the version.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { Redis, type RedisOptions } from "ioredis";
import type { CanvasDsl } from "../dsl/types.js";
import {
  checkKey,
  checkSaveOptions,
  checkTtl,
  closedError,
  IssuedLocks,
  parseSnapshot,
  serializeSnapshot,
  SessionLockedError,
  SessionLockLostError,
  SnapshotConflictError,
  SnapshotCorruptError,
  SnapshotStoreError,
  type DeleteOptions,
  type SaveOptions,
  type SessionLock,
  type SnapshotStore,
  type StoredSnapshot,
} from "./snapshot-store.js";

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0";
export const DEFAULT_KEY_PREFIX = "canvasflow:session:";
export const DEFAULT_LOCK_LEASE_MS = 15_000;

export interface RedisSnapshotStoreOptions {
  /** Where Redis is (default `redis://127.0.0.1:6379/0`); the store owns this connection. */
  url?: string;
  /** Extra ioredis options for the connection made from `url`. */
  redisOptions?: RedisOptions;
  /** Or a client you own: `close()` leaves it open. */
  client?: Redis;
  /** Prepended to every key (default `canvasflow:session:`). */
  keyPrefix?: string;
  /** Expiry for every save that does not pass its own `ttlSeconds` (default: none). */
  ttlSeconds?: number;
  /**
   * Prepended to a session key for its lock (default: `keyPrefix` with its trailing ":" replaced
   * by "-lock:", so `canvasflow:session-lock:`). Neither prefix may start the other, so a lock
   * key is never a session key.
   */
  lockKeyPrefix?: string;
  /** How long a lock lives unless its holder renews it (default 15 s; renewed every third of it). */
  lockLeaseMs?: number;
}

const SAVE_COMMAND = "canvasflowSaveSnapshot";
const DELETE_COMMAND = "canvasflowDeleteSnapshot";
const RENEW_COMMAND = "canvasflowRenewLock";
const RELEASE_COMMAND = "canvasflowReleaseLock";

// The lock check shared by the scripts: KEYS[2] the lock key, `lock` the caller's lock value
// ('': none). Another holder's lock refuses a caller without one; a caller's lock must still be there.
const LOCK_CHECK = `
local holder = redis.call('GET', KEYS[2])
if lock == '' then
  if holder then return {'locked', holder} end
elseif holder ~= lock then
  return {'lost', holder or ''}
end
`;

// KEYS[1] the session hash, KEYS[2] its lock. ARGV[1] snapshot JSON, ARGV[2] 'any' | 'absent' |
// 'version', ARGV[3] the expected version, ARGV[4] expiry in ms ('0': none), ARGV[5] the lock value.
// Returns {'saved', version} | {'conflict', current version or ''} | {'corrupt', reason}
// | {'locked', holder} | {'lost', holder or ''}.
const SAVE_SCRIPT = `
local lock = ARGV[5]
${LOCK_CHECK}
local current = redis.call('HGET', KEYS[1], 'version')
if not current then
  if redis.call('EXISTS', KEYS[1]) == 1 then return {'corrupt', 'the hash has no version field'} end
  current = ''
elseif not string.match(current, '^%d+$') then
  return {'corrupt', 'its version field is not a counter: ' .. current}
end
if (ARGV[2] == 'absent' and current ~= '') or (ARGV[2] == 'version' and current ~= ARGV[3]) then
  return {'conflict', current}
end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'snapshot', ARGV[1])
if ARGV[4] ~= '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
else
  redis.call('PERSIST', KEYS[1])
end
return {'saved', tostring(version)}
`;

// KEYS[1] the session hash, KEYS[2] its lock; ARGV[1] the lock value. Returns {'deleted', count} or a lock refusal.
const DELETE_SCRIPT = `
local lock = ARGV[1]
${LOCK_CHECK}
return {'deleted', tostring(redis.call('DEL', KEYS[1]))}
`;

// KEYS[1] the lock key; ARGV[1] the lock value, ARGV[2] the lease in ms. 1 renewed, 0 not ours.
const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

// KEYS[1] the lock key; ARGV[1] the lock value. Deletes it only if it is still ours.
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

type Reply = [status: "saved" | "deleted" | "conflict" | "corrupt" | "locked" | "lost", detail: string];
type Scripts = {
  [SAVE_COMMAND](key: string, lockKey: string, json: string, mode: string, expected: string, ttlMs: string, lock: string): Promise<Reply>;
  [DELETE_COMMAND](key: string, lockKey: string, lock: string): Promise<Reply>;
  [RENEW_COMMAND](lockKey: string, lock: string, leaseMs: string): Promise<number>;
  [RELEASE_COMMAND](lockKey: string, lock: string): Promise<number>;
};

/** A lock this store holds: its value in Redis and the timer that renews its lease. */
interface HeldRedisLock {
  value: string;
  renew: NodeJS.Timeout;
}

export class RedisSnapshotStore implements SnapshotStore {
  readonly client: Redis;
  readonly keyPrefix: string;
  readonly lockKeyPrefix: string;
  private readonly lockLeaseMs: number;
  private readonly issued = new IssuedLocks<HeldRedisLock>();
  private readonly ownsClient: boolean;
  private readonly defaultTtlSeconds: number | undefined;
  private lastConnectionError: Error | undefined;
  private closed = false;

  constructor(options: RedisSnapshotStoreOptions = {}) {
    if (options.client && options.url !== undefined) throw new SnapshotStoreError("pass either url or client to RedisSnapshotStore, not both");
    this.keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    if (typeof this.keyPrefix !== "string") throw new SnapshotStoreError("keyPrefix must be a string");
    this.lockKeyPrefix = options.lockKeyPrefix ?? defaultLockKeyPrefix(this.keyPrefix);
    if (typeof this.lockKeyPrefix !== "string") throw new SnapshotStoreError("lockKeyPrefix must be a string");
    if (this.lockKeyPrefix.startsWith(this.keyPrefix) || this.keyPrefix.startsWith(this.lockKeyPrefix)) {
      throw new SnapshotStoreError(
        `keyPrefix "${this.keyPrefix}" and lockKeyPrefix "${this.lockKeyPrefix}" overlap (one starts the other), so a lock key could be a session key: pass a lockKeyPrefix that neither starts nor is started by keyPrefix`,
      );
    }
    this.lockLeaseMs = options.lockLeaseMs ?? DEFAULT_LOCK_LEASE_MS;
    if (!Number.isInteger(this.lockLeaseMs) || this.lockLeaseMs < 30) {
      throw new SnapshotStoreError(`lockLeaseMs must be a whole number of milliseconds, at least 30; got ${String(options.lockLeaseMs)}`);
    }
    this.defaultTtlSeconds = options.ttlSeconds === undefined ? undefined : checkTtl("ttlSeconds", options.ttlSeconds);
    if (options.client) {
      this.client = options.client;
      this.ownsClient = false;
    } else {
      // Fail a command after two reconnect attempts instead of queueing it for minutes: a caller
      // saving a session wants a clear error it can act on. A short disconnectTimeout: ioredis
      // otherwise waits 2 s on a refused socket before a CLI process can exit.
      this.client = new Redis(options.url ?? DEFAULT_REDIS_URL, {
        maxRetriesPerRequest: 2,
        connectTimeout: 5000,
        disconnectTimeout: 100,
        ...options.redisOptions,
      });
      this.ownsClient = true;
      this.client.on("error", (error: Error) => {
        this.lastConnectionError = error;
      });
      this.client.on("ready", () => {
        this.lastConnectionError = undefined;
      });
    }
    const defined = this.client as unknown as Record<string, unknown>;
    if (typeof defined[SAVE_COMMAND] !== "function") this.client.defineCommand(SAVE_COMMAND, { numberOfKeys: 2, lua: SAVE_SCRIPT });
    if (typeof defined[DELETE_COMMAND] !== "function") this.client.defineCommand(DELETE_COMMAND, { numberOfKeys: 2, lua: DELETE_SCRIPT });
    if (typeof defined[RENEW_COMMAND] !== "function") this.client.defineCommand(RENEW_COMMAND, { numberOfKeys: 1, lua: RENEW_SCRIPT });
    if (typeof defined[RELEASE_COMMAND] !== "function") this.client.defineCommand(RELEASE_COMMAND, { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  }

  /** The Redis key a session's lock is kept under. */
  lockKey(key: string): string {
    return this.lockKeyPrefix + checkKey(key);
  }

  /** The Redis key a session is kept under. */
  redisKey(key: string): string {
    return this.keyPrefix + checkKey(key);
  }

  async load(key: string): Promise<StoredSnapshot | undefined> {
    const redisKey = this.redisKey(key);
    return this.command(key, async () => {
      const [text, version] = await this.client.hmget(redisKey, "snapshot", "version");
      if (text === null && version === null) {
        if ((await this.client.exists(redisKey)) === 0) return undefined;
        throw new SnapshotCorruptError(`${this.describe(key)} is corrupt: the hash has neither a snapshot nor a version field`, key);
      }
      if (text === null || version === null) {
        throw new SnapshotCorruptError(`${this.describe(key)} is corrupt: the hash has no ${text === null ? "snapshot" : "version"} field`, key);
      }
      return { snapshot: parseSnapshot(key, text, this.describe(key)), version, deltas: [] };
    });
  }

  async save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string> {
    const redisKey = this.redisKey(key);
    const { expectedVersion, ttlSeconds = this.defaultTtlSeconds, lock } = checkSaveOptions(options);
    const text = serializeSnapshot(key, snapshot);
    const mode = expectedVersion === undefined ? "any" : expectedVersion === null ? "absent" : "version";
    const ttlMs = ttlSeconds === undefined ? "0" : String(Math.max(1, Math.round(ttlSeconds * 1000)));
    const lockValue = lock === undefined ? "" : this.issued.check(lock, key, this.describe(key)).value;
    const [status, detail] = await this.command(key, () =>
      this.scripts[SAVE_COMMAND](redisKey, this.lockKey(key), text, mode, expectedVersion ?? "", ttlMs, lockValue),
    );
    this.refuseForLock(key, status, detail);
    if (status === "conflict") throw new SnapshotConflictError(key, expectedVersion ?? null, detail === "" ? undefined : detail);
    if (status === "corrupt") throw new SnapshotCorruptError(`${this.describe(key)} is corrupt: ${detail}`, key);
    return detail;
  }

  async delete(key: string, options?: DeleteOptions): Promise<boolean> {
    const redisKey = this.redisKey(key);
    const lockValue = options?.lock === undefined ? "" : this.issued.check(options.lock, key, this.describe(key)).value;
    const [status, detail] = await this.command(key, () => this.scripts[DELETE_COMMAND](redisKey, this.lockKey(key), lockValue));
    this.refuseForLock(key, status, detail);
    return Number(detail) > 0;
  }

  async lock(key: string): Promise<SessionLock> {
    const lockKey = this.lockKey(key);
    const value = `${process.pid} ${hostname()} ${randomBytes(8).toString("hex")} ${Date.now()}`;
    // A few tries: a lock that expires between our SET and our look at it is simply gone.
    for (let attempt = 0; ; attempt++) {
      const set = await this.command(key, () => this.client.set(lockKey, value, "PX", this.lockLeaseMs, "NX"));
      if (set === "OK") break;
      const [holder, ttl] = await this.command(key, async () => [await this.client.get(lockKey), await this.client.pttl(lockKey)] as const);
      if (holder !== null || attempt >= 3) throw new SessionLockedError(this.lockedMessage(key, holder ?? "", ttl), key, lockKey);
    }
    const held: HeldRedisLock = { value, renew: setInterval(() => void this.renew(lock, lockKey), Math.floor(this.lockLeaseMs / 3)) };
    // Renewal must not keep a process alive that has nothing else to do.
    held.renew.unref();
    const lock: SessionLock = {
      key,
      location: `redis key ${lockKey}`,
      release: async () => {
        if (!this.issued.has(lock)) return;
        this.issued.remove(lock);
        clearInterval(held.renew);
        if (!this.closed || this.client.status === "ready") {
          await this.scripts[RELEASE_COMMAND](lockKey, value).catch(() => undefined);
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
    if (!this.ownsClient) return;
    if (this.client.status === "ready") {
      await this.client.quit().catch(() => this.client.disconnect());
    } else {
      this.client.disconnect();
    }
  }

  /** Where Redis is, without credentials. */
  get location(): string {
    const { host, port, db, path } = this.client.options;
    return path ? `${path}/${db ?? 0}` : `${host}:${port}/${db ?? 0}`;
  }

  private describe(key: string): string {
    return `session "${key}" (redis key ${this.keyPrefix}${key})`;
  }

  private get scripts(): Scripts {
    const client = this.client as unknown as Scripts;
    return {
      [SAVE_COMMAND]: (...args) => client[SAVE_COMMAND].call(this.client, ...args),
      [DELETE_COMMAND]: (...args) => client[DELETE_COMMAND].call(this.client, ...args),
      [RENEW_COMMAND]: (...args) => client[RENEW_COMMAND].call(this.client, ...args),
      [RELEASE_COMMAND]: (...args) => client[RELEASE_COMMAND].call(this.client, ...args),
    };
  }

  /** Extend a held lock's lease; a lock found gone or taken stops renewing (the next save reports it). */
  private async renew(lock: SessionLock, lockKey: string): Promise<void> {
    const held = this.issued.has(lock) ? this.issued.check(lock, lock.key, this.describe(lock.key)) : undefined;
    if (!held || this.closed) return;
    const renewed = await this.scripts[RENEW_COMMAND](lockKey, held.value, String(this.lockLeaseMs)).catch(() => undefined);
    if (renewed === 0) clearInterval(held.renew);
  }

  /** A save or delete the lock check refused. */
  private refuseForLock(key: string, status: Reply[0], detail: string): void {
    if (status === "locked") throw new SessionLockedError(`${this.lockedMessage(key, detail, undefined)}; nothing was written`, key, this.lockKey(key));
    if (status === "lost") {
      const now = detail === "" ? "it is gone (its lease ran out, or it was deleted)" : `it is now held by ${describeLockHolder(detail)}`;
      throw new SessionLockLostError(`${this.describe(key)}: this run no longer holds its lock ${this.lockKey(key)}: ${now}; nothing was written`, key);
    }
  }

  private lockedMessage(key: string, holder: string, ttlMs: number | undefined): string {
    const lockKey = this.lockKey(key);
    const expiry = ttlMs === undefined ? "" : ttlMs < 0 ? " It has no expiry." : ` It expires in ${Math.max(1, Math.ceil(ttlMs / 1000))} s unless its holder renews it.`;
    return (
      `${this.describe(key)} is locked by another run (${describeLockHolder(holder)}): lock key ${lockKey}.${expiry} ` +
      `If no canvasflow run is using this session, clear it with: redis-cli DEL ${lockKey}`
    );
  }

  /** Run Redis commands, turning what Redis reports into errors that name the session. */
  private async command<T>(key: string, run: () => Promise<T>): Promise<T> {
    if (this.closed) throw closedError("Redis");
    try {
      return await run();
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw error;
      const message = (error as Error).message;
      if (message.startsWith("WRONGTYPE")) {
        throw new SnapshotCorruptError(`${this.describe(key)} is corrupt: it is not a hash (a session is a hash with snapshot and version fields)`, key);
      }
      const unreachable = this.lastConnectionError;
      if (unreachable) throw new SnapshotStoreError(`cannot reach Redis at ${this.location}: ${unreachable.message}`, key);
      throw new SnapshotStoreError(`Redis at ${this.location}, ${this.describe(key)}: ${message}`, key);
    }
  }
}

/** `canvasflow:session:` → `canvasflow:session-lock:`; any other prefix gets "-lock:" in place of its trailing ":". */
function defaultLockKeyPrefix(keyPrefix: string): string {
  return `${keyPrefix.endsWith(":") ? keyPrefix.slice(0, -1) : keyPrefix}-lock:`;
}

/** A lock value (`pid hostname token since-ms`) as words. */
function describeLockHolder(value: string): string {
  const parts = value.split(" ");
  const [pid, host, , since] = parts;
  const sinceMs = Number(since);
  if (parts.length !== 4 || !/^\d+$/.test(pid) || !host) return `lock value ${JSON.stringify(value)}`;
  return `process ${pid} on ${host}${Number.isFinite(sinceMs) && sinceMs > 0 ? `, since ${new Date(sinceMs).toISOString()}` : ""}`;
}
