/**
 * Our retry policy for model requests (the openai client's own retries are off, so this is the
 * only one): only 429 and 5xx answers are retried, `maxRetries` times, with exponential backoff
 * starting at `delayMs`. Everything else — 4xx, timeouts, aborts, broken connections — fails at once.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** The longest single wait, unless the configured first delay is already longer. */
export const MAX_BACKOFF_MS = 60_000;

export function isRetryableStatus(status: number | undefined): boolean {
  return status === 429 || (status !== undefined && status >= 500 && status <= 599);
}

/** The wait before retry number `retry` (1-based): delayMs, 2·delayMs, 4·delayMs, … (capped). */
export function backoffDelay(retry: number, delayMs: number): number {
  const base = Math.max(0, delayMs);
  return Math.min(base * 2 ** Math.max(0, retry - 1), Math.max(base, MAX_BACKOFF_MS));
}

/** Wait, unless the signal fires first (then resolve early: the caller checks the signal). */
export async function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted) return;
  await sleep(ms, undefined, signal ? { signal } : undefined).catch(() => undefined);
}

/**
 * One attempt's signal: fires when the caller aborts or when `timeoutMs` passes, and remembers
 * which, so a timeout is reported as a timeout and not as a cancellation.
 */
export class AttemptScope {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);
  timedOut = false;

  constructor(
    private readonly caller: AbortSignal | undefined,
    readonly timeoutMs: number | undefined,
  ) {
    if (caller?.aborted) this.controller.abort(caller.reason);
    else caller?.addEventListener("abort", this.onCallerAbort, { once: true });
    if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      }, timeoutMs);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get callerAborted(): boolean {
    return this.caller?.aborted === true;
  }

  /** Ends the attempt: the timer and the listener go, and anything still in flight is cancelled. */
  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this.onCallerAbort);
    if (!this.controller.signal.aborted) this.controller.abort();
  }
}
