/**
 * PostgreSQL and Redis together (`--postgres` and `--redis`): agents, session records, keys and the
 * run state stay in PostgreSQL, the store that keeps data on disk and answers queries; cancel
 * requests go through Redis, whose pub/sub reaches every server at once without holding a
 * PostgreSQL connection per process for LISTEN. (The server also keeps its rate-limit counters in
 * that Redis.) `ping` checks both.
 */
import type { Redis, RedisOptions } from "ioredis";
import { RedisCancelSignals } from "../redis/cancel.js";
import { RedisConnection } from "../redis/connection.js";
import { DEFAULT_POSTGRES_SCHEMA } from "./session-schema.js";
import { serverTables } from "./server-schema.js";
import { PostgresServerStore, type PostgresServerStoreOptions } from "./server-store.js";
import { DEFAULT_REDIS_SERVER_PREFIX, serverCancelLayout } from "../redis/server-store.js";
import { ServerStoreError } from "../errors.js";

export interface PostgresWithRedisServerStoreOptions extends Omit<PostgresServerStoreOptions, "cancel" | "locationSuffix"> {
  /** Where Redis is (the store owns this connection). */
  redisUrl: string;
  redisOptions?: RedisOptions;
  /** Prefix of the cancel flags and channel (default `canvasflow:`: RAGFlow's `{task_id}-cancel` keys and `canvasflow:cancel`). */
  redisPrefix?: string;
}

export class PostgresWithRedisServerStore extends PostgresServerStore {
  private readonly redisConnection: RedisConnection;
  /** The Redis connection (cancel signals; the server's rate limits share it) and the prefix of its keys. */
  readonly redis: { client: Redis; prefix: string };

  constructor(options: PostgresWithRedisServerStoreOptions) {
    // Refuse a bad schema name before a Redis connection is made (it would be left open).
    try {
      serverTables(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
    } catch (error) {
      throw new ServerStoreError((error as Error).message);
    }
    const redis = new RedisConnection({ url: options.redisUrl, redisOptions: options.redisOptions }, "PostgresWithRedisServerStore", (message) => new ServerStoreError(message));
    const prefix = options.redisPrefix ?? DEFAULT_REDIS_SERVER_PREFIX;
    const cancel = new RedisCancelSignals({ client: redis.client, ...serverCancelLayout(prefix) });
    super({ ...options, cancel, locationSuffix: `; cancel signals through Redis at ${redis.location}` });
    this.redisConnection = redis;
    this.redis = { client: redis.client, prefix };
  }

  override async ping(): Promise<void> {
    await super.ping();
    try {
      await this.redisConnection.client.ping();
    } catch (error) {
      throw new ServerStoreError(this.redisConnection.failure(error as Error) ?? `Redis at ${this.redisConnection.location}: ${(error as Error).message}`);
    }
  }

  override async close(): Promise<void> {
    await super.close();
    await this.redisConnection.close();
  }
}
