/**
 * What every backend's cancel signals share (the contract is CancelSignals in contracts.ts): the
 * task id rule, the flag's name as RAGFlow has it (`{task_id}-cancel`), its default time to live,
 * and the watches of one CancelSignals object.
 */
import { CancelSignalError } from "../errors.js";

export const DEFAULT_CANCEL_TTL_SECONDS = 600;

/** A request's time to live in seconds (default 600), checked: every backend refuses the same values in the same words. */
export function cancelTtlSeconds(options: { ttlSeconds?: number }): number {
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_CANCEL_TTL_SECONDS;
  if (typeof ttlSeconds !== "number" || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new CancelSignalError(`ttlSeconds must be a positive number of seconds, got ${String(ttlSeconds)}`);
  }
  return ttlSeconds;
}

/** Task ids name keys, files and channels: non-empty, printable, bounded. */
export function checkTaskId(taskId: unknown): string {
  if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > 256 || /[\u0000-\u001f\u007f/\\]/.test(taskId)) {
    const shown = typeof taskId === "string" && taskId.length > 80 ? `${JSON.stringify(taskId.slice(0, 80))}… (${taskId.length} characters)` : JSON.stringify(taskId);
    throw new CancelSignalError(`task id must be 1 to 256 printable characters without "/" or "\\", got ${shown}`);
  }
  return taskId;
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
