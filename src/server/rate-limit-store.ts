/**
 * A @fastify/rate-limit store over a ServerStore's shared counters (`rateLimitCounters`: a SQLite
 * file's), so the servers on that store count a key's requests together, as they do on Redis.
 * The plugin's `store` option takes a class it constructs itself; the counters are closed over.
 *
 * Only what the server asks of the plugin is kept: a fixed window. `continueExceeding` and
 * `exponentialBackoff` (which stretch a window past its end) are not.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { RateLimitCounters } from "../backends/contracts.js";

/** The store class for the plugin's `store` option; every counter's name starts with `nameSpace`. */
export function counterStoreClass(counters: RateLimitCounters, nameSpace: string): FastifyRateLimitStoreCtor {
  class CounterStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = nameSpace,
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counters.incr(this.prefix + key, timeWindow, Date.now()).then(
        ({ current, ttlMs }) => callback(null, { current, ttl: ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** A route with limits of its own counts apart (as the plugin's Redis store does). */
    child(routeOptions: object): FastifyRateLimitStore {
      // The plugin adds routeInfo (the route's method and url) to what its types say it passes.
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      const sub = route && typeof route.url === "string" ? `${String(route.method)}${route.url}-` : "";
      return new CounterStore(undefined, this.prefix + sub);
    }
  }
  return CounterStore;
}
