/**
 * Memories in Redis, beside the sessions: a tenant's memory is a list of messages (JSON) at
 * `<prefix><tenant>:<id>`, with its total size at `…:bytes` and the source keys it holds at
 * `…:sources` (tenant and id percent-encoded: neither holds a ":", so no two memories share a
 * key). One Lua script adds a message, skips a duplicate and forgets the oldest messages past the
 * size limit, atomically, so concurrent writers never lose a message.
 *
 * Releases before tenant scopes kept `<legacy prefix><id>` (default `canvasflow:memory:`); the two
 * prefixes must not start one another, so no legacy key is ever read as a tenant's. legacy.ts
 * moves legacy memories with one script each: it checks that the legacy memory and the tenants'
 * memories are as they were read and that every key it will write is of the right type before it
 * writes anything (a script that fails midway is not undone), then writes them all.
 */
import { RedisConnection, type RedisConnectionOptions } from "./connection.js";
import { mergeMoved, splitByTenant, type LegacyMemoryLayout, type LegacyMove, type LegacyRoute } from "../../memories/legacy.js";
import { keyPartOf } from "../shared/memory-names.js";
import { checkMaxBytes, checkMemoryRef, completeMessage, describeMemory, messageBytes, newMessageId, parseMessage } from "../shared/memories.js";
import { MemoryStoreError } from "../errors.js";
import type { MemoryMessage, MemoryRef, MemoryStore, NewMemoryMessage } from "../contracts.js";

/** Where tenants' memories are (default). */
export const DEFAULT_MEMORY_KEY_PREFIX = "canvasflow:tenant-memory:";
/** Where releases before tenant scopes kept memories (default). */
export const DEFAULT_LEGACY_MEMORY_KEY_PREFIX = "canvasflow:memory:";

export interface RedisMemoryStoreOptions extends RedisConnectionOptions {
  /** Prefix of the tenants' memories' keys (default `canvasflow:tenant-memory:`). */
  keyPrefix?: string;
  /** Prefix of the legacy (unscoped) memories' keys, which the migration moves (default `canvasflow:memory:`). */
  legacyKeyPrefix?: string;
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

/**
 * Replace several memories at once, each only if it is still as read. KEYS: per memory its list,
 * bytes and sources. ARGV: per memory the number of items read and those items, the number of
 * new items and those, the new byte total, the number of source keys and those. Returns "done",
 * "changed" (read again and retry) or "wrongtype <key>", the last two having written nothing.
 */
const REPLACE = `
local memories = #KEYS / 3
local at = 1
local plans = {}
for g = 0, memories - 1 do
  local kinds = { 'list', 'string', 'set' }
  for k = 1, 3 do
    local kind = redis.call('TYPE', KEYS[3 * g + k]).ok
    if kind ~= 'none' and kind ~= kinds[k] then return 'wrongtype ' .. KEYS[3 * g + k] end
  end
  local current = redis.call('LRANGE', KEYS[3 * g + 1], 0, -1)
  local read = tonumber(ARGV[at])
  if #current ~= read then return 'changed' end
  for i = 1, read do
    if current[i] ~= ARGV[at + i] then return 'changed' end
  end
  at = at + read + 1
  local plan = { items = at, count = tonumber(ARGV[at]) }
  at = at + plan.count + 1
  plan.bytes = ARGV[at]
  plan.sources = at + 1
  plan.sourceCount = tonumber(ARGV[at + 1])
  at = at + plan.sourceCount + 2
  plans[g] = plan
end
for g = 0, memories - 1 do
  local plan = plans[g]
  redis.call('DEL', KEYS[3 * g + 1], KEYS[3 * g + 2], KEYS[3 * g + 3])
  for i = 1, plan.count do redis.call('RPUSH', KEYS[3 * g + 1], ARGV[plan.items + i]) end
  if plan.count > 0 then redis.call('SET', KEYS[3 * g + 2], plan.bytes) end
  for i = 1, plan.sourceCount do redis.call('SADD', KEYS[3 * g + 3], ARGV[plan.sources + i]) end
end
return 'done'
`;

/** Times a legacy memory is read again when a writer of an older release changed it meanwhile. */
const MOVE_ATTEMPTS = 10;

/** REPLACE's arguments for one memory: the items read, then the new messages, their bytes and source keys. */
function replacement(read: readonly string[], messages: readonly MemoryMessage[]): Array<string | number> {
  const sources = [...new Set(messages.map((m) => m.source_key).filter((key) => typeof key === "string" && key !== ""))];
  const bytes = messages.reduce((sum, m) => sum + messageBytes(m), 0);
  return [read.length, ...read, messages.length, ...messages.map((m) => JSON.stringify(m)), bytes, sources.length, ...sources];
}

export class RedisMemoryStore implements MemoryStore, LegacyMemoryLayout {
  readonly scope = "tenant" as const;
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  private readonly legacyPrefix: string;
  private readonly maxBytes: number;

  constructor(options: RedisMemoryStoreOptions = {}) {
    this.prefix = options.keyPrefix ?? DEFAULT_MEMORY_KEY_PREFIX;
    this.legacyPrefix = options.legacyKeyPrefix ?? DEFAULT_LEGACY_MEMORY_KEY_PREFIX;
    for (const [name, value] of [["keyPrefix", this.prefix], ["legacyKeyPrefix", this.legacyPrefix]] as const) {
      if (typeof value !== "string" || value === "") throw new MemoryStoreError(`RedisMemoryStore: ${name} must be a non-empty string, got ${JSON.stringify(value) ?? String(value)}`);
    }
    if (this.prefix.startsWith(this.legacyPrefix) || this.legacyPrefix.startsWith(this.prefix)) {
      throw new MemoryStoreError(
        `RedisMemoryStore: keyPrefix "${this.prefix}" and legacyKeyPrefix "${this.legacyPrefix}" overlap (one starts the other), so a legacy memory's key could be read as a tenant's: ` +
          "give keyPrefix a prefix of its own (the legacy prefix is where releases before tenant scopes kept memories: their keyPrefix)",
      );
    }
    this.connection = new RedisConnection(options, "RedisMemoryStore", (message) => new MemoryStoreError(message));
    this.maxBytes = checkMaxBytes(options.maxBytes);
  }

  get location(): string {
    return `Redis at ${this.connection.location} (${this.prefix}*)`;
  }

  /** The list key of a tenant's memory (its size and source keys are at `:bytes` and `:sources`). */
  keyOf(memory: MemoryRef): string {
    const { tenant, id } = checkMemoryRef(memory);
    return `${this.prefix}${keyPartOf(tenant)}:${keyPartOf(id)}`;
  }

  async add(memory: MemoryRef, message: NewMemoryMessage): Promise<boolean> {
    const key = this.keyOf(memory);
    const added = completeMessage(memory.id, message, newMessageId());
    const result = await this.command(describeMemory(memory), () => this.connection.client.eval(ADD, 3, key, `${key}:bytes`, `${key}:sources`, JSON.stringify(added), messageBytes(added), this.maxBytes, added.source_key));
    return result === 1;
  }

  async messages(memory: MemoryRef): Promise<MemoryMessage[]> {
    const key = this.keyOf(memory);
    const items = await this.command(describeMemory(memory), () => this.connection.client.lrange(key, 0, -1));
    return items.map((text, i) => parseMessage(text, `${describeMemory(memory)} in Redis (${key}, item ${i})`));
  }

  async legacyMemoryIds(): Promise<string[]> {
    const pattern = `${this.legacyPrefix.replace(/[*?[\]\\]/g, (char) => `\\${char}`)}*`;
    const ids: string[] = [];
    await this.command("listing legacy memories", async () => {
      let cursor = "0";
      do {
        const [next, keys] = (await this.connection.client.call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000", "TYPE", "list")) as [string, string[]];
        cursor = next;
        for (const key of keys) ids.push(key.slice(this.legacyPrefix.length));
      } while (cursor !== "0");
    });
    return [...new Set(ids)].sort();
  }

  async moveLegacyMemory(id: string, route: LegacyRoute): Promise<LegacyMove> {
    const legacy = this.legacyPrefix + id;
    const what = `moving legacy memory ${JSON.stringify(id)} (${legacy})`;
    for (let attempt = 1; attempt <= MOVE_ATTEMPTS; attempt++) {
      const items = await this.command(what, () => this.connection.client.lrange(legacy, 0, -1));
      const messages = items.map((text, i) => parseMessage(text, `legacy memory ${JSON.stringify(id)} in Redis (${legacy}, item ${i})`));
      const tenants = await route(messages);
      const { byTenant, kept } = splitByTenant(messages, tenants);
      if (byTenant.size === 0) return { moved: new Map(), kept: kept.length };
      // Each tenant's memory as it is now, with the moved messages merged in; the legacy memory with what stays.
      const keys = [legacy];
      const args: Array<string | number> = [...replacement(items, kept)];
      for (const [tenant, moving] of byTenant) {
        const key = this.keyOf({ tenant, id });
        const own = await this.command(what, () => this.connection.client.lrange(key, 0, -1));
        const ownMessages = own.map((text, i) => parseMessage(text, `${describeMemory({ tenant, id })} in Redis (${key}, item ${i})`));
        keys.push(key);
        args.push(...replacement(own, mergeMoved(ownMessages, moving)));
      }
      const reply = String(await this.command(what, () => this.connection.client.eval(REPLACE, keys.length * 3, ...keys.flatMap((key) => [key, `${key}:bytes`, `${key}:sources`]), ...args)));
      if (reply === "done") return { moved: new Map([...byTenant].map(([tenant, list]) => [tenant, list.length])), kept: kept.length };
      if (reply.startsWith("wrongtype ")) throw new MemoryStoreError(`Redis key ${reply.slice("wrongtype ".length)} is not of the type a memory's key has: nothing was moved`);
    }
    throw new MemoryStoreError(`${what}: it kept changing while being moved (${MOVE_ATTEMPTS} attempts); is a server of an older release still writing to it?`);
  }

  private async command<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof MemoryStoreError) throw error;
      const why = this.connection.failure(error as Error) ?? (error as Error).message;
      throw new MemoryStoreError(`${what}: ${why}`);
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
