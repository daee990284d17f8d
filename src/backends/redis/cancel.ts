/**
 * Cancel signals in Redis, heard by every process that runs the task.
 *
 * A request sets RAGFlow's flag, `{task_id}-cancel` (value "x", as RAGFlow writes it; with a time
 * to live), so RAGFlow-style pollers see it too, and publishes the task id on one channel
 * (`canvasflow:cancel`) so that watchers hear it at once instead of polling. Each instance keeps
 * one subscriber connection, shared by all its watches, and a watch checks the flag once it is
 * subscribed, so a request made just before is not missed. After the subscriber reconnects, the
 * flags of all watched tasks are checked again (a message published meanwhile is lost).
 */
import type { Redis } from "ioredis";
import { cancelKey, CancelWatchers, checkTaskId, cancelTtlSeconds } from "../shared/cancel.js";
import { CancelSignalError } from "../errors.js";
import type { CancelSignals, WatchOptions } from "../contracts.js";
import { RedisConnection, type RedisConnectionOptions } from "./connection.js";

export const DEFAULT_CANCEL_CHANNEL = "canvasflow:cancel";

export interface RedisCancelSignalsOptions extends RedisConnectionOptions {
  /** Prepended to the flag's key `{task_id}-cancel` (default none: RAGFlow's key as it is). */
  keyPrefix?: string;
  /** The channel requests are published on (default `canvasflow:cancel`). */
  channel?: string;
}

export class RedisCancelSignals implements CancelSignals {
  readonly keyPrefix: string;
  readonly channel: string;
  private readonly connection: RedisConnection;
  /** Task id → the notify functions of its watches. */
  private readonly watchers = new CancelWatchers();
  private subscriber: Redis | undefined;
  private subscribed: Promise<void> | undefined;
  private closed = false;

  constructor(options: RedisCancelSignalsOptions = {}) {
    this.keyPrefix = options.keyPrefix ?? "";
    this.channel = options.channel ?? DEFAULT_CANCEL_CHANNEL;
    if (typeof this.keyPrefix !== "string") throw new CancelSignalError("keyPrefix must be a string");
    if (typeof this.channel !== "string" || this.channel === "") throw new CancelSignalError("channel must be a non-empty string");
    this.connection = new RedisConnection(options, "RedisCancelSignals", (message) => new CancelSignalError(message));
  }

  /** The Redis key of a task's flag. */
  flagKey(taskId: string): string {
    return this.keyPrefix + cancelKey(checkTaskId(taskId));
  }

  async request(taskId: string, options: { ttlSeconds?: number } = {}): Promise<void> {
    const key = this.flagKey(taskId);
    const ttlSeconds = cancelTtlSeconds(options);
    // One round trip; the flag is set before the message goes out, so a watcher that hears it finds it set.
    const results = await this.command(taskId, () =>
      this.connection.client.pipeline().set(key, "x", "PX", Math.max(1, Math.round(ttlSeconds * 1000))).publish(this.channel, taskId).exec(),
    );
    const failed = results?.find(([error]) => error)?.[0];
    if (failed) throw this.failure(taskId, failed);
  }

  async isRequested(taskId: string): Promise<boolean> {
    const key = this.flagKey(taskId);
    return (await this.command(taskId, () => this.connection.client.exists(key))) === 1;
  }

  async watch(taskId: string, onCancel: () => void, options: WatchOptions = {}): Promise<() => Promise<void>> {
    const key = this.flagKey(taskId);
    this.checkOpen();
    const stop = this.watchers.add(taskId, onCancel);
    try {
      await this.subscribe(taskId);
      if (!options.unseen && (await this.command(taskId, () => this.connection.client.exists(key))) === 1) this.watchers.cancelled(taskId);
    } catch (error) {
      stop();
      throw error;
    }
    return async () => stop();
  }

  async clear(taskId: string): Promise<void> {
    const key = this.flagKey(taskId);
    await this.command(taskId, () => this.connection.client.del(key));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watchers.clear();
    if (this.subscriber) await RedisConnection.end(this.subscriber);
    await this.connection.close();
  }

  /** Where Redis is, without credentials. */
  get location(): string {
    return this.connection.location;
  }

  /** Subscribe this instance's one subscriber connection to the channel (once). */
  private subscribe(taskId: string): Promise<void> {
    if (!this.subscribed) {
      const subscriber = this.connection.duplicate();
      this.subscriber = subscriber;
      subscriber.on("message", (channel: string, task: string) => {
        if (channel !== this.channel) return;
        this.watchers.cancelled(task);
      });
      let ready = false;
      subscriber.on("ready", () => {
        if (ready) void this.recheck();
        ready = true;
      });
      this.subscribed = subscriber.subscribe(this.channel).then(() => undefined);
      // A failed subscribe is tried again by the next watch.
      this.subscribed.catch(() => {
        this.subscribed = undefined;
        this.subscriber = undefined;
        subscriber.disconnect();
      });
    }
    const subscribed = this.subscribed;
    return this.command(taskId, () => subscribed, this.subscriber);
  }

  /** After a reconnect: the flags of the watched tasks, in case a request was published while the subscriber was away. */
  private async recheck(): Promise<void> {
    for (const taskId of this.watchers.tasks()) {
      const set = await this.connection.client.exists(this.flagKey(taskId)).catch(() => 0);
      if (set === 1) this.watchers.cancelled(taskId);
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new CancelSignalError("the Redis cancel signals are closed");
  }

  private async command<T>(taskId: string, run: () => Promise<T>, client?: Redis): Promise<T> {
    this.checkOpen();
    try {
      return await run();
    } catch (error) {
      throw this.failure(taskId, error as Error, client);
    }
  }

  private failure(taskId: string, error: Error, client?: Redis): CancelSignalError {
    if (error instanceof CancelSignalError) return error;
    const failure = this.connection.failure(error, client);
    const what = `the cancel flag of task "${taskId}" (redis key ${this.keyPrefix}${cancelKey(taskId)})`;
    // When the connection is the cause, the server is what is wrong: the message names it only.
    return new CancelSignalError(failure ?? `Redis at ${this.location}, ${what}: ${error.message}`);
  }
}
