/**
 * Cancel a task's run from any process: every process running that task hears it through its
 * CancelSignals and ends the run with workflow_finished error "cancelled", checkpointed.
 */
import type { CancelSignals } from "../backends/contracts.js";

export interface CancelRunOptions {
  /** Where the request goes (Redis, PostgreSQL, a folder, or this process's memory). */
  signals: CancelSignals;
  /** How long the request stands if no run picks it up (default 600 s). */
  ttlSeconds?: number;
}

export async function cancelRun(taskId: string, options: CancelRunOptions): Promise<void> {
  await options.signals.request(taskId, options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds });
}
