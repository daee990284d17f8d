/**
 * The run queue's numbers, for a `/metrics` endpoint or a dashboard: jobs in each state now, and
 * how many jobs were found stalled (their worker died while running them) since the queue began.
 */
import { stalledKey, type RunQueue } from "./run-queue.js";

export interface QueueMetrics {
  /** Waiting for a worker (including prioritized ones). */
  waiting: number;
  /** Taken by a worker. */
  active: number;
  /** Waiting for a retry's backoff, or for another job's run in their session. */
  delayed: number;
  /** Finished jobs kept (an hour, at most 10 000): runs that finished, paused, failed or were cancelled as runs. */
  completed: number;
  /** Jobs given up, kept a week: every attempt failed, or their worker died too often. */
  failed: number;
  /** Jobs found stalled since the queue began (a counter: each is handed to another worker, or failed). */
  stalled: number;
}

export async function queueMetrics(queue: RunQueue): Promise<QueueMetrics> {
  const [counts, stalled] = await Promise.all([
    queue.queue.getJobCounts("waiting", "prioritized", "active", "delayed", "completed", "failed"),
    queue.redis.get(stalledKey(queue.names)),
  ]);
  const count = (state: string) => counts[state] ?? 0;
  return {
    waiting: count("waiting") + count("prioritized"),
    active: count("active"),
    delayed: count("delayed"),
    completed: count("completed"),
    failed: count("failed"),
    stalled: Number(stalled ?? 0),
  };
}
