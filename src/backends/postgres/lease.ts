/**
 * Session leases in PostgreSQL: one row per locked session in `<schema>.locks` naming its holder
 * (a random token, the process id and host) and when the lease runs out. The holder renews it
 * while it runs; a lease that ran out, or whose holder is a dead process on this host, is taken
 * over in one statement (`INSERT … ON CONFLICT … DO UPDATE … WHERE`), so two processes racing for
 * a stale lock cannot both win.
 */
import { hostname } from "node:os";
import type pg from "pg";
import { SessionLockedError, SnapshotStoreError } from "../errors.js";
import { describeHolder, describeLeft, holderIsGone, type LeaseHolder } from "../shared/lease.js";
import type { PostgresTables } from "./session-schema.js";

export { describeHolder, describeLeft, holderIsGone, newLeaseToken, noteLeaseHeld, type LeaseHolder } from "../shared/lease.js";

export interface LeaseStatements {
  /** $1 key, $2 token, $3 pid, $4 host, $5 lease ms, $6 the stale holder's token to replace (or null). */
  take: string;
  /** $1 key. */
  holder: string;
  /** $1 key, $2 token, $3 lease ms: extends a lease still held and not run out. */
  renew: string;
  /** $1 key, $2 token. */
  release: string;
}

export function leaseStatements(t: PostgresTables): LeaseStatements {
  return {
    take: `INSERT INTO ${t.sql.locks} AS l (key, token, pid, host, acquired_at, expires_at)
      VALUES ($1, $2, $3, $4, now(), now() + $5::integer * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, pid = EXCLUDED.pid, host = EXCLUDED.host,
        acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
      WHERE l.expires_at <= now() OR l.token = $6
      RETURNING token`,
    holder: `SELECT token, pid, host, acquired_at, (extract(epoch FROM expires_at - now()) * 1000)::float8 AS left_ms
      FROM ${t.sql.locks} WHERE key = $1`,
    renew: `UPDATE ${t.sql.locks} SET expires_at = now() + $3::integer * interval '1 millisecond'
      WHERE key = $1 AND token = $2 AND expires_at > now()`,
    release: `DELETE FROM ${t.sql.locks} WHERE key = $1 AND token = $2`,
  };
}

export interface HolderRow {
  token: string;
  pid: number;
  host: string;
  acquired_at: Date;
  left_ms: number;
}

export function holderFromRow(row: Partial<Record<keyof HolderRow, unknown>> | undefined): LeaseHolder | undefined {
  if (!row || typeof row.token !== "string") return undefined;
  return { token: row.token, pid: Number(row.pid), host: String(row.host), acquiredAt: row.acquired_at as Date, leftMs: Number(row.left_ms) };
}

export async function readHolder(client: pg.ClientBase, statements: LeaseStatements, key: string): Promise<LeaseHolder | undefined> {
  const result = await client.query<HolderRow>(statements.holder, [key]);
  return holderFromRow(result.rows[0]);
}

/**
 * Take the lease of `key` for `token`: free, ran out, or held by a dead process on this host.
 * Resolves to undefined when it is taken, else to the live holder.
 */
export async function takeLease(client: pg.ClientBase, statements: LeaseStatements, key: string, token: string, leaseMs: number): Promise<LeaseHolder | undefined> {
  let stale: string | null = null;
  // A few tries: a holder that lets go, or runs out, between our attempt and our look is simply gone.
  for (let attempt = 0; attempt < 4; attempt++) {
    const taken = await client.query(statements.take, [key, token, process.pid, hostname(), leaseMs, stale]);
    if (taken.rowCount === 1) return undefined;
    const holder = await readHolder(client, statements, key);
    if (holder && !holderIsGone(holder)) return holder;
    stale = holder?.token ?? null;
  }
  throw new SnapshotStoreError(`the lease of session "${key}" changed hands four times while this process tried to take it; try again`, key);
}

export function lockedError(session: string, key: string, location: string, tables: PostgresTables, holder: LeaseHolder, suffix = ""): SessionLockedError {
  return new SessionLockedError(
    `${session} is locked by another run (${describeHolder(holder)}): ${location}. ${describeLeft(holder)} ` +
      `If no canvasflow run is using this session, clear it with the SQL: DELETE FROM ${tables.shown.locks} WHERE key = ${quoteLiteral(key)};${suffix}`,
    key,
    location,
  );
}

/** An SQL string literal (standard_conforming_strings: only quotes are doubled). */
function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
