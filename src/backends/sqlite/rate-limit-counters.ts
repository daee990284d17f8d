/**
 * The server's rate-limit counters in a SQLite database file (table `rate_limits`, migration 3 of
 * schema.ts), so every server process on the file counts a key's requests together, as they would
 * on Redis. A counter is a row: its name, when its window started and runs out, and its count. A
 * hit is one upsert: a row whose window ran out starts again at 1. Rows that ran out are deleted
 * now and then (at most once a minute per store), not on every hit.
 */
import type { RateLimitCounters } from "../contracts.js";
import { ServerStoreError } from "../errors.js";
import type { ServerDatabase } from "./server-database.js";

/** How often a store deletes the counters whose window ran out. */
export const RATE_LIMIT_PRUNE_EVERY_MS = 60_000;

/** Longest counter name kept (the server's are `requests:key:<id>` and the like). */
const MAX_NAME_LENGTH = 512;

export class SqliteRateLimitCounters implements RateLimitCounters {
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(private readonly store: ServerDatabase) {}

  async incr(name: string, windowMs: number, now: number): Promise<{ current: number; ttlMs: number }> {
    if (typeof name !== "string" || name === "" || name.length > MAX_NAME_LENGTH) {
      throw new ServerStoreError(`${this.store.location}: a rate-limit counter's name must be 1 to ${MAX_NAME_LENGTH} characters, got ${typeof name === "string" ? `${name.length} characters` : typeof name}`);
    }
    if (!Number.isSafeInteger(windowMs) || windowMs <= 0) throw new ServerStoreError(`${this.store.location}: rate-limit counter "${name}": windowMs must be a positive whole number of milliseconds, got ${String(windowMs)}`);
    if (!Number.isSafeInteger(now) || now < 0) throw new ServerStoreError(`${this.store.location}: rate-limit counter "${name}": now must be a time in epoch milliseconds, got ${String(now)}`);
    const prune = now - this.lastPrune >= RATE_LIMIT_PRUNE_EVERY_MS;
    const row = this.store.write(`counting rate-limit counter "${name}"`, () => {
      if (prune) this.store.sql("DELETE FROM rate_limits WHERE expires_at <= ?").run(now);
      // In an upsert's SET every column on the right is the row as it was: one test of its expiry decides all three.
      return this.store
        .sql<[string, number, number], { count: number; expires_at: number }>(
          `INSERT INTO rate_limits (name, window_start, expires_at, count) VALUES (?, ?, ?, 1)
           ON CONFLICT (name) DO UPDATE SET
             window_start = CASE WHEN expires_at <= excluded.window_start THEN excluded.window_start ELSE window_start END,
             expires_at = CASE WHEN expires_at <= excluded.window_start THEN excluded.expires_at ELSE expires_at END,
             count = CASE WHEN expires_at <= excluded.window_start THEN 1 ELSE count + 1 END
           RETURNING count, expires_at`,
        )
        .get(name, now, now + windowMs)!;
    });
    if (prune) this.lastPrune = now;
    return { current: row.count, ttlMs: Math.max(0, row.expires_at - now) };
  }
}
