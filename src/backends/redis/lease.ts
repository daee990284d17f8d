/**
 * Who holds a Redis session lock: the lock's value is `pid hostname token since-ms`. A lease runs
 * out on its own when its holder stops renewing it; a holder on this host whose process is gone
 * need not be waited for, so a restarted CLI takes its crashed predecessor's session at once.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { processRuns } from "../../util/process-runs.js";

export interface LeaseHolder {
  pid: number;
  host: string;
  token: string;
  sinceMs: number;
}

/**
 * Tokens of the locks this process holds, across stores (and across copies of this module, hence
 * the global): a lock with this process's pid and a token not in it was left by an earlier process
 * that had the same pid (pid 1 in a restarted container).
 */
const HELD_KEY = Symbol.for("canvasflow.redisLeaseTokens");
const held: Set<string> = ((globalThis as Record<symbol, unknown>)[HELD_KEY] as Set<string> | undefined) ?? new Set<string>();
(globalThis as Record<symbol, unknown>)[HELD_KEY] = held;

/** A fresh lock value for this process; the token is remembered as held until `forgetLease`. */
export function newLeaseValue(): { value: string; token: string } {
  const token = randomBytes(8).toString("hex");
  held.add(token);
  return { value: `${process.pid} ${hostname()} ${token} ${Date.now()}`, token };
}

export function forgetLease(token: string): void {
  held.delete(token);
}

export function parseLeaseHolder(value: string): LeaseHolder | undefined {
  const parts = value.split(" ");
  if (parts.length !== 4) return undefined;
  const [pidText, host, token, sinceText] = parts;
  if (!/^\d+$/.test(pidText) || !host || !token || !/^\d+$/.test(sinceText)) return undefined;
  return { pid: Number(pidText), host, token, sinceMs: Number(sinceText) };
}

/**
 * Whether the holder is certainly gone: on this host, and its process no longer runs (or it is
 * this pid but not one of this process's locks). A holder on another host cannot be checked: its
 * lease decides. A value that names no holder is never judged gone.
 */
export function leaseHolderIsGone(value: string): boolean {
  const holder = parseLeaseHolder(value);
  if (!holder || holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !held.has(holder.token);
  return !processRuns(holder.pid);
}

/** A lock value as words, for messages. */
export function describeLeaseHolder(value: string): string {
  const holder = parseLeaseHolder(value);
  if (!holder) return `lock value ${JSON.stringify(value)}`;
  const since = holder.sinceMs > 0 ? `, since ${new Date(holder.sinceMs).toISOString()}` : "";
  return `process ${holder.pid} on ${holder.host}${since}`;
}
