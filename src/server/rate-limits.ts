/**
 * Requests per minute per API key (@fastify/rate-limit, a fixed one-minute window): completions
 * count against `completionsPerMinute`, every other keyed request against `requestsPerMinute`.
 * With Redis (the store's connection, or one given) the counts are shared by every server on it;
 * else with the store's own shared counters (a SQLite file's: rate-limit-store.ts) by every
 * server on that store; otherwise each process counts its own.
 *
 * A key is counted by its rate-limit identity (`request.caller`: the key's id, or a prefix of its
 * SHA-256), never by the key itself. The limit is checked after the key: a request with a bad key
 * is refused (401) before it counts.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { RateLimitCounters } from "../backends/contracts.js";
import { counterStoreClass } from "./rate-limit-store.js";
import { TooManyRequestsError } from "./envelope.js";
import type { ServerMetrics } from "./metrics.js";
import type { RateLimits } from "./settings.js";
import { serverPackages } from "./packages.js";

const MINUTE_MS = 60_000;

type MinuteKind = "completions" | "requests";

interface RateLimitOptions {
  limits: RateLimits;
  /** The shared counters: a Redis client and the prefix of their keys; none: this process counts. */
  redis?: { client: Redis; prefix: string };
  /** Without Redis: counters the store shares between servers (ServerStore.rateLimitCounters). */
  counters?: RateLimitCounters;
  /** Route paths (as declared) that count as completions. */
  completionRoutes: ReadonlySet<string>;
  metrics: ServerMetrics;
}

/** Register the per-minute limits on `api` (before its routes, after its key check). */
export async function installRateLimits(api: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const { limits, completionRoutes } = options;
  const kindOf = (request: FastifyRequest): MinuteKind => (completionRoutes.has(request.routeOptions.url ?? "") ? "completions" : "requests");
  const maxOf = (kind: MinuteKind) => (kind === "completions" ? limits.completionsPerMinute : limits.requestsPerMinute);
  await api.register(serverPackages().rateLimit, {
    global: true,
    timeWindow: MINUTE_MS,
    max: (request) => maxOf(kindOf(request)),
    keyGenerator: (request) => `${kindOf(request)}:${request.caller}`,
    // 0 turns a limit off.
    allowList: (request) => maxOf(kindOf(request)) === 0,
    ...(options.redis ? { redis: options.redis.client, nameSpace: `${options.redis.prefix}ratelimit:` } : options.counters ? { store: counterStoreClass(options.counters, "ratelimit:") } : {}),
    onExceeded: (request) => options.metrics.rateLimited(kindOf(request)),
    errorResponseBuilder: (request, context) => {
      const kind = kindOf(request);
      const what = kind === "completions" ? "completions" : "requests";
      const setting = kind === "completions" ? "completionsPerMinute" : "requestsPerMinute";
      return new TooManyRequestsError(
        `Too many requests: this API key may send ${context.max} ${what} a minute (server.rateLimits.${setting}); retry in ${context.after}`,
        Math.max(1, Math.ceil(context.ttl / 1000)),
      );
    },
  });
}
