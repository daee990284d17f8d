/**
 * Cancel signals within one process: for tests and single-process servers. A flag lives in a map,
 * and a request calls the watches of its task at once.
 */
import type { CancelSignals, WatchOptions } from "../contracts.js";
import { CancelSignalError } from "../errors.js";
import { CancelWatchers, checkTaskId, DEFAULT_CANCEL_TTL_SECONDS } from "../shared/cancel.js";

/** Cancel signals within one process: for tests and single-process servers. */
export class InProcessCancelSignals implements CancelSignals {
  private readonly flags = new Map<string, number>();
  private readonly watchers = new CancelWatchers();
  private closed = false;

  /** `now`: the clock a flag's time to live is measured by (default `Date.now`; tests pass their own). */
  constructor(private readonly now: () => number = Date.now) {}

  async request(taskId: string, options: { ttlSeconds?: number } = {}): Promise<void> {
    this.check(checkTaskId(taskId));
    this.flags.set(taskId, this.now() + (options.ttlSeconds ?? DEFAULT_CANCEL_TTL_SECONDS) * 1000);
    this.watchers.cancelled(taskId);
  }

  async isRequested(taskId: string): Promise<boolean> {
    this.check(checkTaskId(taskId));
    const until = this.flags.get(taskId);
    if (until === undefined) return false;
    if (until <= this.now()) {
      this.flags.delete(taskId);
      return false;
    }
    return true;
  }

  async watch(taskId: string, onCancel: () => void, options: WatchOptions = {}): Promise<() => Promise<void>> {
    this.check(checkTaskId(taskId));
    const stop = this.watchers.add(taskId, onCancel);
    if (!options.unseen && (await this.isRequested(taskId))) this.watchers.cancelled(taskId);
    return async () => stop();
  }

  async clear(taskId: string): Promise<void> {
    this.check(checkTaskId(taskId));
    this.flags.delete(taskId);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.flags.clear();
    this.watchers.clear();
  }

  private check(_taskId: string): void {
    if (this.closed) throw new CancelSignalError("the cancel signals are closed");
  }
}

/** @deprecated Renamed InProcessCancelSignals ("memory" names conversation memories only). */
export const MemoryCancelSignals = InProcessCancelSignals;
/** @deprecated Renamed InProcessCancelSignals ("memory" names conversation memories only). */
export type MemoryCancelSignals = InProcessCancelSignals;
