/**
 * One request to an embedding or rerank endpoint, retried as the chat client retries (llm/retry.ts):
 * 429 and 5xx answers, with exponential backoff — and a connection reset, which a kept-alive
 * connection meets when the server closes it as a request goes out; anything else fails at once. Every failure
 * is an UnavailableError naming the endpoint: an embedding or rerank service that cannot answer
 * is this machine's configuration, not the canvas's fault, so a Retrieval fails and the run goes on.
 */
import { UnavailableError } from "../components/unavailable.js";
import { AttemptScope, backoffDelay, isRetryableStatus, waitUnlessAborted } from "../llm/retry.js";

export interface RetryPolicy {
  maxRetries: number;
  /** The first wait; later ones double. */
  delayMs: number;
  /** Per attempt. */
  timeoutMs: number;
}

/** Three retries from half a second (0.5 + 1 + 2 s of waiting at most), a minute per attempt. */
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, delayMs: 500, timeoutMs: 60_000 };

/** A failed attempt: the HTTP status when the server answered, and what it said. */
export class AttemptFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the caller's signal fires (then the
 * signal's reason is thrown as it is, so a cancelled run is not reported as a broken service).
 */
export async function withRetries<T>(label: string, policy: RetryPolicy, signal: AbortSignal | undefined, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    const scope = new AttemptScope(signal, policy.timeoutMs);
    try {
      return await attempt(scope.signal);
    } catch (error) {
      if (scope.callerAborted) throw signal?.reason ?? error;
      const status = error instanceof AttemptFailure ? error.status : undefined;
      const tries = n > 1 ? ` (after ${n} attempts)` : "";
      if (scope.timedOut) throw new UnavailableError(`${label} did not answer within ${policy.timeoutMs} ms`);
      if ((isRetryableStatus(status) || isConnectionReset(error)) && n <= policy.maxRetries) {
        await waitUnlessAborted(backoffDelay(n, policy.delayMs), signal);
        if (signal?.aborted) throw signal.reason;
        continue;
      }
      if (error instanceof AttemptFailure) throw new UnavailableError(`${label} ${error.message}${tries}`);
      throw new UnavailableError(`${label} could not be reached: ${reasonOf(error)}`);
    } finally {
      scope.dispose();
    }
  }
}

/**
 * A kept-alive connection the server closed just as the request went out: the request was not
 * served, and embedding and rerank requests can be sent again safely.
 */
function isConnectionReset(error: unknown): boolean {
  const reason = reasonOf(error);
  return reason === "ECONNRESET" || reason === "EPIPE" || reason === "UND_ERR_SOCKET" || /socket hang up/i.test(reason);
}

/** The network error's own words (ECONNREFUSED, ENOTFOUND…), not fetch's "fetch failed". */
function reasonOf(error: unknown): string {
  let deepest: unknown = error;
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    deepest = e;
  }
  return deepest instanceof Error ? deepest.message : String(deepest);
}
