/**
 * A run's scope: resources a component opens for the run (MCP sessions) register their clean-up
 * here, and the canvas runs it when the run's event stream ends — finished, paused, failed,
 * cancelled, or abandoned by its reader. Components find it as `ctx.services.runScope`.
 */
import type { RuntimeServices } from "./types.js";

export interface RunScope {
  /** Run `cleanup` when the run ends (at once if it already has). */
  defer(cleanup: () => unknown): void;
  readonly ended: boolean;
}

export const RUN_SCOPE_SERVICE = "runScope";

export function runScopeOf(services: RuntimeServices): RunScope | undefined {
  const scope = services[RUN_SCOPE_SERVICE];
  return typeof scope === "object" && scope !== null && typeof (scope as RunScope).defer === "function" ? (scope as RunScope) : undefined;
}

/** A scope and the function that ends it (clean-ups run in reverse order; their failures are dropped). */
export function createRunScope(): { scope: RunScope; end(): Promise<void> } {
  const cleanups: Array<() => unknown> = [];
  let ended = false;
  const scope: RunScope = {
    defer(cleanup) {
      if (ended) void Promise.resolve().then(cleanup).catch(() => undefined);
      else cleanups.push(cleanup);
    },
    get ended() {
      return ended;
    },
  };
  return {
    scope,
    async end() {
      ended = true;
      for (const cleanup of cleanups.splice(0).reverse()) {
        try {
          await cleanup();
        } catch {
          // A clean-up that fails must not hide how the run ended.
        }
      }
    },
  };
}

/** The events of a run with the scope ended after the last one (or when the reader stops early). */
export async function* endingScope<T>(events: AsyncIterable<T>, end: () => Promise<void>): AsyncGenerator<T, void, undefined> {
  try {
    yield* events;
  } finally {
    await end();
  }
}
