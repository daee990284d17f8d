/**
 * Leases held in a database row (PostgreSQL, SQLite): who holds one, in words, and whether its
 * holder is a process of this host that is gone, so its lease can be taken over at once.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { processRuns } from "../../util/process-runs.js";
import { SessionLockLostError } from "../errors.js";

/** Who holds a lease, as the row says. */
export interface LeaseHolder {
  token: string;
  pid: number;
  host: string;
  acquiredAt: Date;
  /** Milliseconds until the lease runs out (negative: it has). */
  leftMs: number;
}

/** Tokens of the leases held by this process: a lease with this pid and another token was left by an earlier process that had the same pid. */
const heldHere = new Set<string>();

export function newLeaseToken(): string {
  return randomBytes(8).toString("hex");
}

export function noteLeaseHeld(token: string, held: boolean): void {
  if (held) heldHere.add(token);
  else heldHere.delete(token);
}

/** A holder on this host whose process no longer runs (or this process's pid with a token it does not hold). */
export function holderIsGone(holder: LeaseHolder): boolean {
  if (holder.host !== hostname()) return false; // another machine: only its lease can tell
  if (holder.pid === process.pid) return !heldHere.has(holder.token);
  return !processRuns(holder.pid);
}

/** The holder in words: "process 123 on host, since …". */
export function describeHolder(holder: LeaseHolder): string {
  const elsewhere = holder.host === hostname() ? "" : ", another machine";
  return `process ${holder.pid} on ${holder.host}${elsewhere}, since ${holder.acquiredAt.toISOString()}`;
}

/** How long a lease has left, in words. */
export function describeLeft(holder: LeaseHolder): string {
  return holder.leftMs > 0 ? `It expires in ${Math.max(1, Math.ceil(holder.leftMs / 1000))} s unless its holder renews it.` : "Its lease has run out.";
}

/** A write under a lease this run no longer holds: why (released, ran out, taken), in words. */
export function leaseLostError(session: string, location: string, key: string, holder: LeaseHolder | undefined, token: string): SessionLockLostError {
  const now =
    holder === undefined
      ? "it is gone (it was released or deleted)"
      : holder.token === token
        ? `its lease ran out ${Math.max(0, Math.round(-holder.leftMs / 1000))} s ago (this process stalled for longer than the lease)`
        : `it is now held by ${describeHolder(holder)}`;
  return new SessionLockLostError(`${session}: this run no longer holds its lock (${location}): ${now}; nothing was written`, key);
}
