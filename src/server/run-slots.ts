/**
 * How many runs may go at once: per API key (across every server sharing the store's Redis, else
 * in this process) and per process. A run takes a slot of each before it starts and gives them
 * back when it ends; a full one refuses the run with HTTP 429.
 *
 * In Redis a key's slots are a sorted set of run ids scored by when their lease runs out (the
 * run's wall-clock limit and a margin): a server that dies while running gives its slots back
 * when their leases run out, instead of holding them for ever.
 */
import type { Redis } from "ioredis";
import { TooManyRequestsError } from "./envelope.js";
import type { RateLimitKind } from "./metrics.js";
import type { RateLimits } from "./settings.js";

/** The slots of each API key. */
interface KeySlots {
  /** Take one of `owner`'s slots for `runId`; false when `limit` of its runs are going. */
  take(owner: string, runId: string, limit: number): Promise<boolean>;
  give(owner: string, runId: string): Promise<void>;
}

export class MemoryKeySlots implements KeySlots {
  private readonly taken = new Map<string, Set<string>>();

  async take(owner: string, runId: string, limit: number): Promise<boolean> {
    const runs = this.taken.get(owner) ?? new Set<string>();
    if (runs.size >= limit) return false;
    runs.add(runId);
    this.taken.set(owner, runs);
    return true;
  }

  async give(owner: string, runId: string): Promise<void> {
    const runs = this.taken.get(owner);
    runs?.delete(runId);
    if (runs?.size === 0) this.taken.delete(owner);
  }
}

/** Drop expired leases, count, add: one step, so two servers never both take the last slot. Redis's clock decides. */
const TAKE = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local lease = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
if redis.call('ZCARD', key) >= limit then return 0 end
redis.call('ZADD', key, now + lease, ARGV[2])
redis.call('PEXPIRE', key, lease)
return 1
`;

const TAKE_COMMAND = "cfRunSlotTake1";

export class RedisKeySlots implements KeySlots {
  /**
   * `prefix` heads every key (`<prefix><owner>`); `leaseMs` is how long a slot is kept by a run
   * whose server never gave it back.
   */
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly leaseMs: number,
  ) {
    if (typeof (client as unknown as Record<string, unknown>)[TAKE_COMMAND] !== "function") client.defineCommand(TAKE_COMMAND, { numberOfKeys: 1, lua: TAKE });
  }

  async take(owner: string, runId: string, limit: number): Promise<boolean> {
    const take = (this.client as unknown as Record<string, (...args: Array<string | number>) => Promise<number>>)[TAKE_COMMAND];
    return (await take.call(this.client, this.prefix + owner, limit, runId, this.leaseMs)) === 1;
  }

  async give(owner: string, runId: string): Promise<void> {
    await this.client.zrem(this.prefix + owner, runId);
  }
}

/** What a refused run was refused by, for the metrics. */
type RunRefusal = (kind: RateLimitKind) => void;

/** Both limits, checked before a run starts. */
export class RunAdmission {
  private running = 0;

  constructor(
    private readonly limits: Pick<RateLimits, "runsPerKey" | "runsPerServer">,
    private readonly keySlots: KeySlots,
    private readonly refused: RunRefusal,
  ) {}

  /**
   * Admit a run of `owner` (an API key's rate-limit identity): resolves to the function that
   * gives its slots back (call it once, when the run has ended). Throws TooManyRequestsError when
   * a limit is reached.
   */
  async admit(owner: string, runId: string): Promise<() => Promise<void>> {
    const { runsPerKey, runsPerServer } = this.limits;
    // The process's slot first: it is taken without waiting, so no run slips in between.
    if (runsPerServer > 0 && this.running >= runsPerServer) {
      this.refused("server_runs");
      throw new TooManyRequestsError(`The server is running as many runs as it takes at once (${runsPerServer}, server.rateLimits.runsPerServer); retry shortly`, 1);
    }
    this.running++;
    let keySlot = false;
    try {
      if (runsPerKey > 0) {
        keySlot = await this.keySlots.take(owner, runId, runsPerKey);
        if (!keySlot) {
          this.refused("key_runs");
          throw new TooManyRequestsError(`Too many runs at once for this API key: ${runsPerKey} are going (server.rateLimits.runsPerKey); retry when one has ended`, 1);
        }
      }
    } catch (error) {
      this.running--;
      throw error;
    }
    let given = false;
    return async () => {
      if (given) return;
      given = true;
      this.running--;
      if (keySlot) await this.keySlots.give(owner, runId);
    };
  }

  /** Runs admitted in this process and not yet ended. */
  get size(): number {
    return this.running;
  }
}
