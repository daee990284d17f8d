/**
 * Bounded waits. Everything the engine awaits on a component's behalf (an upstream stream being
 * drained, the next chunk of a message, a producer's stream at the end of a run) races the run's
 * AbortSignal and the component's deadline, so no wait can outlive a cancellation or a timeout.
 */
export class ComponentTimeoutError extends Error {
  constructor(readonly seconds: number) {
    super(`timed out after ${formatSeconds(seconds)}`);
    this.name = "ComponentTimeoutError";
  }
}

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CancelledError";
  }
}

function formatSeconds(seconds: number): string {
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(3)}s`;
}

/** When a component's time is up: `performance.now()` milliseconds, and its timeout for messages. */
export interface Deadline {
  readonly at: number;
  readonly timeoutMs: number;
}

export function deadlineAfter(startedMs: number, timeoutMs: number): Deadline {
  return { at: startedMs + timeoutMs, timeoutMs };
}

/**
 * Settle with `promise`, or reject with CancelledError when `signal` aborts, or with
 * ComponentTimeoutError when the deadline passes (then `onTimeout` runs, e.g. to abort the
 * producer). The timer and the listener are removed as soon as one of them wins.
 */
export function within<T>(promise: Promise<T>, signal: AbortSignal, deadline: Deadline, onTimeout?: (error: ComponentTimeoutError) => void): Promise<T> {
  const remaining = deadline.at - performance.now();
  if (signal.aborted || remaining <= 0) {
    // Nobody waits for it any more: its own failure must not surface as an unhandled rejection.
    promise.catch(() => undefined);
    if (signal.aborted) return Promise.reject(new CancelledError());
    const error = new ComponentTimeoutError(deadline.timeoutMs / 1000);
    onTimeout?.(error);
    return Promise.reject(error);
  }
  return new Promise<T>((resolve, reject) => {
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      finish();
    };
    const timer = setTimeout(() => {
      const error = new ComponentTimeoutError(deadline.timeoutMs / 1000);
      onTimeout?.(error);
      settle(() => reject(error));
    }, remaining);
    const onAbort = () => settle(() => reject(new CancelledError()));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => settle(() => resolve(value)),
      (reason) => settle(() => reject(reason)),
    );
  });
}

/** Iterate an async iterable, each step bounded by `within`. */
export async function* iterateWithin<T>(source: AsyncIterable<T>, signal: AbortSignal, deadline: Deadline, onTimeout?: (error: ComponentTimeoutError) => void): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = await within(iterator.next(), signal, deadline, onTimeout);
      if (step.done) return;
      yield step.value;
    }
  } finally {
    // Tell the source we stopped early; a source stuck in its own wait must not hold us here.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
