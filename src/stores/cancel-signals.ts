/**
 * Cancel signals: any process may ask for a task's run to stop, and every process running that
 * task hears it (within 100 ms). As in RAGFlow, a request is a flag under the task's id
 * (`{task_id}-cancel`, with a time to live); unlike RAGFlow, the flag is cleared when the next
 * turn of the session starts, so one cancel does not kill every later turn.
 */

export interface CancelSignals {
  /** Ask for the task's run to stop (the flag lives `ttlSeconds`, default 600). */
  request(taskId: string, options?: { ttlSeconds?: number }): Promise<void>;
  /** Whether a cancel was asked for and not cleared. */
  isRequested(taskId: string): Promise<boolean>;
  /**
   * Call `onCancel` once when a cancel is asked for (at once if it already was). Resolves when
   * listening has begun; the returned function stops listening.
   */
  watch(taskId: string, onCancel: () => void, options?: WatchOptions): Promise<() => Promise<void>>;
  /** Clear the flag (a new turn starts). */
  clear(taskId: string): Promise<void>;
  close(): Promise<void>;
}

export interface WatchOptions {
  /**
   * The task id was made just now and nobody has seen it yet (a new session's own random id): no
   * cancel can be waiting for it, so the flag is not looked up first (one store round trip less).
   */
  unseen?: boolean;
}

export const DEFAULT_CANCEL_TTL_SECONDS = 600;

/** Task ids name keys, files and channels: non-empty, printable, bounded. */
export function checkTaskId(taskId: unknown): string {
  if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > 256 || /[\u0000-\u001f\u007f/\\]/.test(taskId)) {
    const shown = typeof taskId === "string" && taskId.length > 80 ? `${JSON.stringify(taskId.slice(0, 80))}… (${taskId.length} characters)` : JSON.stringify(taskId);
    throw new CancelSignalError(`task id must be 1 to 256 printable characters without "/" or "\\", got ${shown}`);
  }
  return taskId;
}

export class CancelSignalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CancelSignalError";
  }
}

/** The flag's key, as RAGFlow names it. */
export function cancelKey(taskId: string): string {
  return `${taskId}-cancel`;
}

/**
 * The watches of one CancelSignals object, by task: each watch's callback runs at most once, and a
 * watch is forgotten once it ran or was stopped. Backends only say which task was cancelled.
 */
export class CancelWatchers {
  private readonly byTask = new Map<string, Set<() => void>>();

  /** `onIdle` runs when the last watch goes (a backend may stop listening then). */
  constructor(private readonly onIdle: () => void = () => undefined) {}

  /** Watch a task: `onCancel` runs once, on the first `cancelled(taskId)`. Returns what stops the watch. */
  add(taskId: string, onCancel: () => void): () => void {
    const set = this.byTask.get(taskId) ?? new Set<() => void>();
    this.byTask.set(taskId, set);
    const watch = () => {
      this.remove(taskId, watch);
      onCancel();
    };
    set.add(watch);
    return () => this.remove(taskId, watch);
  }

  /** The task was cancelled: every watch of it runs. */
  cancelled(taskId: string): void {
    for (const watch of [...(this.byTask.get(taskId) ?? [])]) watch();
  }

  has(taskId: string): boolean {
    return this.byTask.has(taskId);
  }

  /** The tasks being watched. */
  tasks(): string[] {
    return [...this.byTask.keys()];
  }

  get size(): number {
    return this.byTask.size;
  }

  clear(): void {
    this.byTask.clear();
  }

  private remove(taskId: string, watch: () => void): void {
    const set = this.byTask.get(taskId);
    if (!set?.delete(watch)) return;
    if (set.size === 0) this.byTask.delete(taskId);
    if (this.byTask.size === 0) this.onIdle();
  }
}

/** Cancel signals within one process: for tests and single-process servers. */
export class MemoryCancelSignals implements CancelSignals {
  private readonly flags = new Map<string, number>();
  private readonly watchers = new CancelWatchers();
  private closed = false;

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
