/**
 * Memories in Redis, beside the sessions: a memory is a list of messages (JSON) at
 * `<prefix><id>`, with its total size at `<prefix><id>:bytes` and the source keys it holds at
 * `<prefix><id>:sources`. One Lua script adds a message, skips a duplicate and forgets the
 * oldest messages past the size limit, atomically, so concurrent writers never lose a message.
 */
import { RedisConnection, type RedisConnectionOptions } from "../stores/redis-connection.js";
import { checkMaxBytes, checkMemoryId, completeMessage, MemoryStoreError, messageBytes, newMessageId, parseMessage, type MemoryMessage, type MemoryStore, type NewMemoryMessage } from "./types.js";

export const DEFAULT_MEMORY_KEY_PREFIX = "canvasflow:memory:";

export interface RedisMemoryStoreOptions extends RedisConnectionOptions {
  keyPrefix?: string;
  maxBytes?: number;
}

/** KEYS: list, bytes, sources. ARGV: message JSON, its bytes, the limit, its source key. */
const ADD = `
if ARGV[4] ~= '' and redis.call('SISMEMBER', KEYS[3], ARGV[4]) == 1 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
if ARGV[4] ~= '' then redis.call('SADD', KEYS[3], ARGV[4]) end
local total = redis.call('INCRBY', KEYS[2], ARGV[2])
local limit = tonumber(ARGV[3])
while total > limit and redis.call('LLEN', KEYS[1]) > 1 do
  local old = cjson.decode(redis.call('LPOP', KEYS[1]))
  total = redis.call('DECRBY', KEYS[2], string.len(old.content))
  if type(old.source_key) == 'string' and old.source_key ~= '' then redis.call('SREM', KEYS[3], old.source_key) end
end
return 1
`;

export class RedisMemoryStore implements MemoryStore {
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  private readonly maxBytes: number;

  constructor(options: RedisMemoryStoreOptions = {}) {
    this.connection = new RedisConnection(options, "RedisMemoryStore", (message) => new MemoryStoreError(message));
    this.prefix = options.keyPrefix ?? DEFAULT_MEMORY_KEY_PREFIX;
    this.maxBytes = checkMaxBytes(options.maxBytes);
  }

  get location(): string {
    return `Redis at ${this.connection.location} (${this.prefix}*)`;
  }

  async add(memoryId: string, message: NewMemoryMessage): Promise<boolean> {
    const key = this.prefix + checkMemoryId(memoryId);
    const added = completeMessage(memoryId, message, newMessageId());
    const result = await this.command(memoryId, () => this.connection.client.eval(ADD, 3, key, `${key}:bytes`, `${key}:sources`, JSON.stringify(added), messageBytes(added), this.maxBytes, added.source_key));
    return result === 1;
  }

  async messages(memoryId: string): Promise<MemoryMessage[]> {
    const key = this.prefix + checkMemoryId(memoryId);
    const items = await this.command(memoryId, () => this.connection.client.lrange(key, 0, -1));
    return items.map((text, i) => parseMessage(text, `memory "${memoryId}" in Redis (${key}, item ${i})`));
  }

  private async command<T>(memoryId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const why = this.connection.failure(error as Error) ?? (error as Error).message;
      throw new MemoryStoreError(`memory "${memoryId}": ${why}`);
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
