/**
 * Sessions in Redis (through ioredis), for backends where any worker may resume any session.
 *
 * Each session is one hash at `<keyPrefix><key>` (default prefix `canvasflow:session:`) with two
 * fields: `snapshot` (the JSON text) and `version` (a counter, 1 on the first save). A save runs as
 * one Lua script: it compares the version, bumps it, writes the snapshot and sets or clears the
 * expiry, so no other client can write in between. Inspect one with
 * `redis-cli HGET canvasflow:session:<key> snapshot`.
 */
import { Redis, type RedisOptions } from "ioredis";
import type { CanvasDsl } from "../dsl/types.js";
import {
  checkKey,
  checkSaveOptions,
  checkTtl,
  closedError,
  parseSnapshot,
  serializeSnapshot,
  SnapshotConflictError,
  SnapshotCorruptError,
  SnapshotStoreError,
  type SaveOptions,
  type SnapshotStore,
  type StoredSnapshot,
} from "./snapshot-store.js";

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0";
export const DEFAULT_KEY_PREFIX = "canvasflow:session:";

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
}

const SAVE_COMMAND = "canvasflowSaveSnapshot";

// KEYS[1] the session hash. ARGV[1] snapshot JSON, ARGV[2] 'any' | 'absent' | 'version',
// ARGV[3] the expected version, ARGV[4] expiry in ms ('0': none).
// Returns {'saved', version} | {'conflict', current version or ''} | {'corrupt', reason}.
const SAVE_SCRIPT = `
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

type SaveReply = [status: "saved" | "conflict" | "corrupt", detail: string];
type SaveCommand = (key: string, json: string, mode: string, expected: string, ttlMs: string) => Promise<SaveReply>;

export class RedisSnapshotStore implements SnapshotStore {
  readonly client: Redis;
  readonly keyPrefix: string;
  private readonly ownsClient: boolean;
  private readonly defaultTtlSeconds: number | undefined;
  private lastConnectionError: Error | undefined;
  private closed = false;

  constructor(options: RedisSnapshotStoreOptions = {}) {
    if (options.client && options.url !== undefined) throw new SnapshotStoreError("pass either url or client to RedisSnapshotStore, not both");
    this.keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    if (typeof this.keyPrefix !== "string") throw new SnapshotStoreError("keyPrefix must be a string");
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
    if (typeof (this.client as unknown as Record<string, unknown>)[SAVE_COMMAND] !== "function") {
      this.client.defineCommand(SAVE_COMMAND, { numberOfKeys: 1, lua: SAVE_SCRIPT });
    }
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
      return { snapshot: parseSnapshot(key, text, this.describe(key)), version };
    });
  }

  async save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string> {
    const redisKey = this.redisKey(key);
    const { expectedVersion, ttlSeconds = this.defaultTtlSeconds } = checkSaveOptions(options);
    const text = serializeSnapshot(key, snapshot);
    const mode = expectedVersion === undefined ? "any" : expectedVersion === null ? "absent" : "version";
    const ttlMs = ttlSeconds === undefined ? "0" : String(Math.max(1, Math.round(ttlSeconds * 1000)));
    const save = (this.client as unknown as Record<string, SaveCommand>)[SAVE_COMMAND];
    const [status, detail] = await this.command(key, () => save.call(this.client, redisKey, text, mode, expectedVersion ?? "", ttlMs));
    if (status === "conflict") throw new SnapshotConflictError(key, expectedVersion ?? null, detail === "" ? undefined : detail);
    if (status === "corrupt") throw new SnapshotCorruptError(`${this.describe(key)} is corrupt: ${detail}`, key);
    return detail;
  }

  async delete(key: string): Promise<boolean> {
    const redisKey = this.redisKey(key);
    return this.command(key, async () => (await this.client.del(redisKey)) > 0);
  }

  async close(): Promise<void> {
    if (this.closed) return;
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
