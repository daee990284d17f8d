/**
 * The run queue on one Redis: a BullMQ queue of run jobs and the few keys canvasflow keeps beside
 * it. Its keys follow the layout of `canvasflow serve --redis` (the server's Redis store): under
 * one `prefix` (default `canvasflow:`),
 *
 *     <p>queue:<name>:…                    BullMQ's own keys (its prefix is `<p>queue`)
 *     <p>queue-runs:<name>:session:<key>   string: the id of the session's latest job (for cancel by session)
 *     <p>queue-runs:<name>:stalled         counter: jobs found stalled (their worker died)
 *
 * and the sessions and cancel flags where the server keeps them (`<p>session:…`).
 */
import type { ConnectionOptions, Queue } from "bullmq";
import { bullmq } from "./bullmq.js";
import type { Redis } from "ioredis";
import { RedisServerStore } from "../backends/redis/server-store.js";
import type { CancelSignals, CheckpointStore } from "../backends/contracts.js";
import { DEFAULT_REDIS_URL, RedisConnection } from "../backends/redis/connection.js";
import { RUN_JOB_NAME, type RunJobData } from "./job.js";

export const DEFAULT_QUEUE_NAME = "runs";
export const DEFAULT_QUEUE_PREFIX = "canvasflow:";
/** How long `<p>queue-runs:<name>:session:<key>` outlives its job's enqueue. */
const SESSION_JOB_TTL_MS = 24 * 60 * 60 * 1000;
const QUEUE_NAME = /^[A-Za-z0-9._-]{1,100}$/;

export interface RunQueueOptions {
  /** Where Redis is (default `redis://127.0.0.1:6379/0`). */
  redis?: string;
  /** Prepended to every key, as the server's Redis store's `prefix` (default `canvasflow:`). */
  prefix?: string;
  /** The queue's name (default `runs`): letters, digits, ".", "_" and "-". */
  queue?: string;
}

/** A run queue or a worker option that is not usable; the message names it. */
export class RunQueueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RunQueueError";
  }
}

/** Redis cannot be used (unreachable, or it refuses the URL's database): not a mistake in the options. */
export class RunQueueConnectionError extends RunQueueError {
  constructor(message: string) {
    super(message);
    this.name = "RunQueueConnectionError";
  }
}

/** The names a queue's keys are made from, checked. */
export interface QueueNames {
  redis: string;
  prefix: string;
  name: string;
}

function queueNames(options: RunQueueOptions): QueueNames {
  const prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;
  if (typeof prefix !== "string" || /[\s\u0000-\u001f]/.test(prefix)) throw new RunQueueError(`prefix must be a string without spaces or control characters, got ${JSON.stringify(prefix)}`);
  const name = options.queue ?? DEFAULT_QUEUE_NAME;
  if (typeof name !== "string" || !QUEUE_NAME.test(name)) {
    throw new RunQueueError(`the queue name must be 1 to 100 letters, digits, ".", "_" or "-", got ${JSON.stringify(name)}`);
  }
  const redis = options.redis ?? DEFAULT_REDIS_URL;
  if (typeof redis !== "string" || !/^rediss?:\/\//.test(redis)) throw new RunQueueError(`the Redis URL must start with redis:// or rediss://, got ${JSON.stringify(redis)}`);
  return { redis, prefix, name };
}

/** BullMQ's connection options for a Redis URL (BullMQ waits for Redis rather than fail a blocking command). */
export function bullConnection(names: QueueNames): ConnectionOptions {
  return { url: names.redis, maxRetriesPerRequest: null };
}

/** BullMQ's key prefix for the queue's jobs. */
export function bullPrefix(names: QueueNames): string {
  return `${names.prefix}queue`;
}

/** canvasflow's keys beside the queue. */
function sessionJobKey(names: QueueNames, session: string): string {
  return `${names.prefix}queue-runs:${names.name}:session:${session}`;
}

export function stalledKey(names: QueueNames): string {
  return `${names.prefix}queue-runs:${names.name}:stalled`;
}

/** The cancel "task" of one job: a cancel for the job reaches the worker that took it, however early. */
export function jobCancelId(names: QueueNames, jobId: string): string {
  return `queue-job:${names.name}:${jobId}`;
}

/** The durable store and cancel signals of `canvasflow serve --redis URL` with this prefix. */
export function serverRunBackends(names: QueueNames): { store: CheckpointStore; cancel: CancelSignals; close(): Promise<void> } {
  const server = new RedisServerStore({ url: names.redis, prefix: names.prefix });
  return { store: server.runs, cancel: server.cancel, close: () => server.close() };
}

/** A run queue opened for enqueueing, cancelling and counting. */
export class RunQueue {
  readonly names: QueueNames;
  readonly queue: Queue<RunJobData, unknown, typeof RUN_JOB_NAME>;
  private readonly connection: RedisConnection;
  /** The queue's own connection (BullMQ's options), made here: see the constructor. */
  private readonly queueClient: Redis;

  constructor(options: RunQueueOptions = {}) {
    this.names = queueNames(options);
    this.connection = new RedisConnection({ url: this.names.redis }, "RunQueue", (message) => new RunQueueError(message));
    // BullMQ writes the queue's meta key as soon as it connects. On a connection of its own making,
    // a database the server refuses (redis://…/99) would be reported and the write made in
    // database 0; on one made here, the refusal closes it first (RedisConnection.watch).
    this.queueClient = this.connection.another({ maxRetriesPerRequest: null, commandTimeout: undefined });
    this.queue = new (bullmq().Queue)(this.names.name, { connection: this.queueClient, prefix: bullPrefix(this.names) });
    // The queue reports a lost connection as an event; its commands fail on their own.
    this.queue.on("error", () => undefined);
  }

  get name(): string {
    return this.names.name;
  }

  /** Where Redis is, without credentials. */
  get location(): string {
    return this.connection.location;
  }

  /** canvasflow's own connection (for its keys beside the queue). */
  get redis(): Redis {
    return this.connection.client;
  }

  /**
   * Check that Redis answers on this connection; a RunQueueError naming the server and the cause
   * (unreachable, or a database in the URL that the server refuses) when it does not.
   */
  async ping(): Promise<void> {
    try {
      await this.redis.ping();
    } catch (error) {
      throw new RunQueueConnectionError(this.connection.failure(error as Error) ?? `cannot reach Redis at ${this.location}: ${(error as Error).message}`);
    }
  }

  /** Remember a session's latest job, for cancel by session. */
  async rememberJob(session: string, jobId: string): Promise<void> {
    await this.redis.set(sessionJobKey(this.names, session), jobId, "PX", SESSION_JOB_TTL_MS);
  }

  /** The session's latest job id, if one was enqueued within a day. */
  async latestJob(session: string): Promise<string | undefined> {
    return (await this.redis.get(sessionJobKey(this.names, session))) ?? undefined;
  }

  async close(): Promise<void> {
    await this.queue.close();
    await RedisConnection.end(this.queueClient);
    await this.connection.close();
  }
}
