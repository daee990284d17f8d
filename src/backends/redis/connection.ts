/**
 * A Redis connection for the stores and cancel signals: made from a URL with bounded timeouts (or
 * borrowed from the caller), and failures put into words that name the server.
 *
 * Bounded, because ioredis by default queues a command while it reconnects, for as long as it
 * takes, and keeps a command that was in flight when the connection dropped until the connection
 * is back: a run would hang instead of stopping with an error it can act on.
 */
import type { Redis, RedisOptions } from "ioredis";
import { redisDriver } from "../drivers.js";

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0";

/**
 * The defaults of a connection made from a URL (`redisOptions` may override them):
 * - `maxRetriesPerRequest: 2` and `retryStrategy`: reconnect after 50, 100, 150, then every 200 ms;
 *   a command waiting for a reconnect fails after three failed attempts, so within 600 ms when
 *   the port is closed, however long the server has been gone (ioredis's default backoff grows
 *   to 2 s, and a command would wait three of those);
 * - `connectTimeout: 5000`: a server that does not accept the connection;
 * - `commandTimeout: 5000`: a server that accepted a command and never answers (gone away without
 *   closing the socket), and a command in flight when the connection dropped;
 * - `disconnectTimeout: 100`: otherwise a refused socket keeps a CLI process alive for 2 s.
 */
export const BOUNDED_REDIS_OPTIONS = {
  maxRetriesPerRequest: 2,
  retryStrategy: (attempt: number) => Math.min(attempt * 50, 200),
  connectTimeout: 5000,
  commandTimeout: 5000,
  disconnectTimeout: 100,
} as const satisfies RedisOptions;

export interface RedisConnectionOptions {
  /** Where Redis is (default `redis://127.0.0.1:6379/0`); the connection is made and owned here. */
  url?: string;
  /** Extra ioredis options for the connection made from `url`. */
  redisOptions?: RedisOptions;
  /** Or a client you own: closing leaves it open. */
  client?: Redis;
}

export class RedisConnection {
  readonly client: Redis;
  readonly owned: boolean;
  /** Why each connection made here last failed, until it is ready again. */
  private readonly lastErrors = new Map<Redis, Error>();
  /** Connections closed for good because the server refused the URL's database (see `watch`). */
  private readonly refusedDatabase = new Map<Redis, string>();

  /** `owner` names the class for the url-or-client message. */
  constructor(options: RedisConnectionOptions, owner: string, fail: (message: string) => Error) {
    if (options.client && options.url !== undefined) throw fail(`pass either url or client to ${owner}, not both`);
    if (options.client) {
      this.client = options.client;
      this.owned = false;
    } else {
      this.client = new (redisDriver().Redis)(options.url ?? DEFAULT_REDIS_URL, { ...BOUNDED_REDIS_OPTIONS, ...options.redisOptions });
      this.owned = true;
      this.watch(this.client);
    }
  }

  /** Another connection to the same server (for SUBSCRIBE), owned by the caller. */
  duplicate(): Redis {
    const copy = this.client.duplicate();
    this.watch(copy);
    return copy;
  }

  /**
   * Another connection to the same server with some options changed (a library that makes its
   * own commands, such as BullMQ's queue), watched as this one: `failure(error, it)` explains its
   * errors. Owned by the caller.
   */
  another(options: RedisOptions): Redis {
    const copy = this.client.duplicate(options);
    this.watch(copy);
    return copy;
  }

  /** Where Redis is, without credentials. */
  get location(): string {
    const { host, port, db, path } = this.client.options;
    return path ? `${path}/${db ?? 0}` : `${host}:${port}/${db ?? 0}`;
  }

  /**
   * A failed command's error in words naming the server when the connection is the cause (not
   * reachable, no answer in time); `undefined` when Redis answered with an error.
   */
  failure(error: Error, client: Redis = this.client): string | undefined {
    const refused = this.refusedDatabase.get(client);
    if (refused !== undefined) return refused;
    if (error.name === "ReplyError") return undefined;
    const lastError = this.lastErrors.get(client);
    const cause = lastError ? `: ${lastError.message}` : "";
    if (error.message === "Command timed out") {
      return `Redis at ${this.location} did not answer within ${client.options.commandTimeout} ms (commandTimeout)${cause}`;
    }
    if (lastError) return `cannot reach Redis at ${this.location}${cause}`;
    if (error.name === "MaxRetriesPerRequestError" || error.message === "Connection is closed.") {
      return `cannot reach Redis at ${this.location}: ${error.message}`;
    }
    return undefined;
  }

  /** Close an owned connection (a borrowed one stays open): QUIT when connected, else drop it. */
  static async end(client: Redis): Promise<void> {
    if (client.status === "ready") {
      await client.quit().catch(() => client.disconnect());
    } else {
      client.disconnect();
    }
  }

  async close(): Promise<void> {
    if (this.owned) await RedisConnection.end(this.client);
  }

  /**
   * Remember why the connection failed (commands only say "Connection is closed."); this also
   * keeps ioredis from printing it.
   *
   * A server that refuses the URL's database (`/99` on a server of 16) is a mistake in the URL,
   * not a passing failure: ioredis reports the failed SELECT as an event and goes on with the
   * commands waiting for the connection, in database 0. The connection is closed before they
   * are sent (the event comes while the connection is still being set up), so every command
   * fails with the reason instead of writing where the URL did not say.
   */
  private watch(client: Redis): void {
    client.on("error", (error: Error) => {
      this.lastErrors.set(client, error);
      if (isSelectRefusal(error)) {
        this.refusedDatabase.set(client, `the Redis URL ${shownUrl(client)} names database ${client.options.db ?? 0}, which the server refuses (SELECT ${client.options.db ?? 0}: ${error.message}); use a database the server has (0 to 15 unless its "databases" setting says otherwise)`);
        client.disconnect();
      }
    });
    client.on("ready", () => {
      this.lastErrors.delete(client);
    });
  }
}

/** The server's answer to the SELECT that ioredis sends while connecting (ReplyErrors carry their command). */
function isSelectRefusal(error: Error): boolean {
  const command = (error as Error & { command?: { name?: unknown } }).command;
  return error.name === "ReplyError" && command?.name === "select";
}

/** A connection's URL as it was given, without credentials. */
function shownUrl(client: Redis): string {
  const { host, port, db, path, tls } = client.options;
  if (path) return `${path} (database ${db ?? 0})`;
  return `${tls ? "rediss" : "redis"}://${host}:${port}/${db ?? 0}`;
}
