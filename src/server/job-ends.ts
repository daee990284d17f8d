/**
 * Hear when run jobs end (BullMQ's queue events, one blocking connection per server), so a
 * follower reads the run's last events at once instead of at its next poll: a short run's answer
 * then costs the queue a few Redis round trips, not a poll interval. Polling still does the work
 * when an event is missed (a reconnect): this only ends waits early.
 */
import type { QueueEvents } from "bullmq";
import { bullmq } from "../worker/bullmq.js";
import { bullConnection, bullPrefix, type RunQueue } from "../worker/run-queue.js";

/** Jobs whose end was heard while nobody waited, kept for the follower's next wait (at most this many). */
const KEEP_ENDED = 10_000;

export class JobEnds {
  private readonly events: QueueEvents;
  private readonly waiting = new Map<string, Set<() => void>>();
  /** Ended jobs not yet told to a wait: a job may end while its follower reads the log. */
  private readonly unheard = new Set<string>();

  constructor(queue: RunQueue) {
    this.events = new (bullmq().QueueEvents)(queue.name, { connection: bullConnection(queue.names), prefix: bullPrefix(queue.names) });
    // A lost connection is reported as an event and retried; the followers poll meanwhile.
    this.events.on("error", () => undefined);
    const ended = ({ jobId }: { jobId: string }) => {
      const wakes = this.waiting.get(jobId);
      if (!wakes) return this.remember(jobId);
      this.waiting.delete(jobId);
      for (const wake of wakes) wake();
    };
    this.events.on("completed", ended);
    this.events.on("failed", ended);
  }

  /** Resolves once the queue events are read (jobs that end before may only be found by polling). */
  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  /**
   * A wait for `followEvents`: `ms`, or less when the job ends (or the signal aborts). The end
   * wakes one wait: later waits are the plain poll interval again.
   */
  waitFor(jobId: string): (ms: number, signal: AbortSignal | undefined) => Promise<void> {
    return (ms, signal) =>
      new Promise((resolve) => {
        if (signal?.aborted || this.unheard.delete(jobId)) return resolve();
        const wakes = this.waiting.get(jobId) ?? new Set<() => void>();
        this.waiting.set(jobId, wakes);
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          wakes.delete(done);
          if (wakes.size === 0 && this.waiting.get(jobId) === wakes) this.waiting.delete(jobId);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener("abort", done, { once: true });
        wakes.add(done);
      });
  }

  /** Forget a job (its follower is done). */
  forget(jobId: string): void {
    this.unheard.delete(jobId);
  }

  close(): Promise<void> {
    return this.events.close();
  }

  private remember(jobId: string): void {
    // Jobs other servers follow end here too: the oldest are dropped.
    if (this.unheard.size >= KEEP_ENDED) this.unheard.delete(this.unheard.values().next().value!);
    this.unheard.add(jobId);
  }
}
