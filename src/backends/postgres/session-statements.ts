/**
 * The SQL of `PostgresSnapshotStore`, one statement per job. Every statement finds its rows by a
 * primary key (a session's rows are a range of it), so no operation's cost grows with the number
 * of sessions, and an append's does not grow with the number of checkpoints.
 */
import type { PostgresTables } from "./session-schema.js";

export interface SessionStatements {
  /**
   * One checkpoint, as one statement (so one transaction and one round trip). It writes only if
   * this caller's lease is live (the lease row is share-locked, so it cannot be taken over
   * meanwhile), the base exists and has not expired (its row is locked), and `seq` follows the
   * last one; then it bumps the session's version and last seq, inserts the delta and the events,
   * and drops the oldest events beyond the cap through the primary key. When nothing was written
   * `version` is null and the other columns say why.
   *
   * $1 key, $2 lease token, $3 seq, $4 delta, $5 event runs, $6 event numbers, $7 event JSON
   * texts, $8 the cap.
   */
  append: string;
  /**
   * Events ahead of their checkpoint (a live log), as one statement: written only under this
   * caller's live lease, for a live session, when the first comes after the last one logged;
   * the oldest events beyond the cap go. When nothing was written `logged` is false and the
   * other columns say why.
   *
   * $1 key, $2 lease token, $3 event runs, $4 event numbers, $5 event JSON texts, $6 the cap.
   */
  logEvents: string;
  /** The last logged event's id (`<run>-<n>`) of a live session. $1 key. */
  lastEvent: string;
  /** The base (seq 0) and the checkpoints in order, read in one statement so they agree. $1 key. */
  load: string;
  /** Delete an expired session with its checkpoints and events. $1 key. */
  deleteExpired: string;
  /** The session's lease and row, locked for a save or delete in this transaction. $1 key, $2 this caller's token ('' for none). */
  state: string;
  /** Replace a live base. $1 key, $2 snapshot, $3 expiry in ms or null. */
  replace: string;
  /** Create the row unless one exists. $1 key, $2 snapshot, $3 expiry in ms or null. */
  create: string;
  /** Create, or replace whatever is there (its event count is kept). $1 key, $2 snapshot, $3 expiry in ms or null. */
  upsert: string;
  /** $1 key. */
  dropCheckpoints: string;
  /** $1 key. The row's version, live or not. */
  version: string;
  /** The session, its checkpoints and its events. $1 key. */
  delete: string;
  /** Events after ($2, $3) in order, at most $4 (null: all). $1 key. */
  events: string;
}

export function sessionStatements(t: PostgresTables): SessionStatements {
  const expiry = (param: string) => `now() + ${param}::float8 * interval '1 millisecond'`;
  const expired = "(expires_at IS NOT NULL AND expires_at <= now())";
  return {
    append: `WITH lease AS (
        SELECT 1 FROM ${t.sql.locks} WHERE key = $1 AND token = $2 AND expires_at > now() FOR SHARE
      ), session AS (
        SELECT last_seq, event_count, ${expired} AS expired FROM ${t.sql.sessions} WHERE key = $1 FOR UPDATE
      ), latest AS (
        SELECT run, n FROM ${t.sql.events} WHERE key = $1 ORDER BY run DESC, n DESC LIMIT 1
      ), ordered AS (
        SELECT cardinality($5::bigint[]) = 0 OR NOT EXISTS (
          SELECT 1 FROM latest WHERE (latest.run, latest.n) >= (($5::bigint[])[1], ($6::bigint[])[1])
        ) AS ok
      ), bumped AS (
        UPDATE ${t.sql.sessions} AS s
        SET last_seq = $3::integer, version = nextval('${t.sql.versions}'),
            event_count = LEAST(session.event_count + cardinality($7::text[]), $8::integer)
        FROM session
        WHERE s.key = $1 AND NOT session.expired AND session.last_seq = $3::integer - 1 AND EXISTS (SELECT 1 FROM lease)
          AND (SELECT ok FROM ordered)
        RETURNING s.version, session.event_count + cardinality($7::text[]) - $8::integer AS excess
      ), delta AS (
        INSERT INTO ${t.sql.checkpoints} (key, seq, delta) SELECT $1, $3::integer, $4 FROM bumped
      ), logged AS (
        INSERT INTO ${t.sql.events} (key, run, n, event)
        SELECT $1, e.run, e.n, e.event FROM bumped, unnest($5::bigint[], $6::bigint[], $7::text[]) AS e(run, n, event)
      ), dropped AS (
        DELETE FROM ${t.sql.events} WHERE key = $1 AND (run, n) IN (
          SELECT run, n FROM ${t.sql.events} WHERE key = $1 ORDER BY run, n
          LIMIT COALESCE((SELECT GREATEST(excess, 0) FROM bumped), 0)
        )
      )
      SELECT (SELECT version::text FROM bumped) AS version, EXISTS (SELECT 1 FROM lease) AS leased,
        (SELECT last_seq FROM session) AS last_seq, (SELECT expired FROM session) AS expired,
        (SELECT run::text || '-' || n::text FROM latest) AS last_event, (SELECT ok FROM ordered) AS ordered`,
    logEvents: `WITH lease AS (
        SELECT 1 FROM ${t.sql.locks} WHERE key = $1 AND token = $2 AND expires_at > now() FOR SHARE
      ), session AS (
        SELECT event_count, ${expired} AS expired FROM ${t.sql.sessions} WHERE key = $1 FOR UPDATE
      ), latest AS (
        SELECT run, n FROM ${t.sql.events} WHERE key = $1 ORDER BY run DESC, n DESC LIMIT 1
      ), ordered AS (
        SELECT NOT EXISTS (
          SELECT 1 FROM latest WHERE (latest.run, latest.n) >= (($3::bigint[])[1], ($4::bigint[])[1])
        ) AS ok
      ), bumped AS (
        UPDATE ${t.sql.sessions} AS s SET event_count = LEAST(session.event_count + cardinality($5::text[]), $6::integer)
        FROM session
        WHERE s.key = $1 AND NOT session.expired AND EXISTS (SELECT 1 FROM lease) AND (SELECT ok FROM ordered)
        RETURNING session.event_count + cardinality($5::text[]) - $6::integer AS excess
      ), logged AS (
        INSERT INTO ${t.sql.events} (key, run, n, event)
        SELECT $1, e.run, e.n, e.event FROM bumped, unnest($3::bigint[], $4::bigint[], $5::text[]) AS e(run, n, event)
      ), dropped AS (
        DELETE FROM ${t.sql.events} WHERE key = $1 AND (run, n) IN (
          SELECT run, n FROM ${t.sql.events} WHERE key = $1 ORDER BY run, n
          LIMIT COALESCE((SELECT GREATEST(excess, 0) FROM bumped), 0)
        )
      )
      SELECT EXISTS (SELECT 1 FROM bumped) AS logged, EXISTS (SELECT 1 FROM lease) AS leased,
        EXISTS (SELECT 1 FROM session) AS found, (SELECT expired FROM session) AS expired,
        (SELECT run::text || '-' || n::text FROM latest) AS last_event, (SELECT ok FROM ordered) AS ordered`,
    lastEvent: `SELECT run::text || '-' || n::text AS id FROM ${t.sql.events}
      WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM ${t.sql.sessions} WHERE key = $1 AND ${expired})
      ORDER BY run DESC, n DESC LIMIT 1`,
    load: `SELECT 0 AS seq, snapshot AS body, version::text AS version, last_seq, ${expired} AS expired
        FROM ${t.sql.sessions} WHERE key = $1
      UNION ALL
      SELECT seq, delta, NULL, NULL, NULL FROM ${t.sql.checkpoints} WHERE key = $1
      ORDER BY seq`,
    deleteExpired: `WITH gone AS (
        DELETE FROM ${t.sql.sessions} WHERE key = $1 AND expires_at <= now() RETURNING key
      ), checkpoints AS (
        DELETE FROM ${t.sql.checkpoints} WHERE key = $1 AND EXISTS (SELECT 1 FROM gone)
      ), events AS (
        DELETE FROM ${t.sql.events} WHERE key = $1 AND EXISTS (SELECT 1 FROM gone)
      )
      SELECT count(*)::integer AS deleted FROM gone`,
    state: `WITH lease AS (
        SELECT token, pid, host, acquired_at, (extract(epoch FROM expires_at - now()) * 1000)::float8 AS left_ms
        FROM ${t.sql.locks} WHERE key = $1 FOR SHARE
      ), session AS (
        SELECT version::text AS version, last_seq, ${expired} AS expired FROM ${t.sql.sessions} WHERE key = $1 FOR UPDATE
      )
      SELECT lease.token, lease.pid, lease.host, lease.acquired_at, lease.left_ms,
        session.version, session.last_seq, session.expired
      FROM (SELECT 1) AS one LEFT JOIN lease ON true LEFT JOIN session ON true`,
    replace: `UPDATE ${t.sql.sessions} SET snapshot = $2, version = nextval('${t.sql.versions}'), last_seq = 0,
        saved_at = now(), expires_at = ${expiry("$3")}
      WHERE key = $1 RETURNING version::text AS version`,
    create: `INSERT INTO ${t.sql.sessions} (key, snapshot, version, expires_at)
      VALUES ($1, $2, nextval('${t.sql.versions}'), ${expiry("$3")})
      ON CONFLICT (key) DO NOTHING RETURNING version::text AS version`,
    upsert: `INSERT INTO ${t.sql.sessions} AS s (key, snapshot, version, expires_at)
      VALUES ($1, $2, nextval('${t.sql.versions}'), ${expiry("$3")})
      ON CONFLICT (key) DO UPDATE SET snapshot = EXCLUDED.snapshot, version = EXCLUDED.version, last_seq = 0,
        saved_at = now(), expires_at = EXCLUDED.expires_at
      RETURNING version::text AS version`,
    dropCheckpoints: `DELETE FROM ${t.sql.checkpoints} WHERE key = $1`,
    version: `SELECT version::text AS version FROM ${t.sql.sessions} WHERE key = $1`,
    delete: `WITH session AS (
        DELETE FROM ${t.sql.sessions} WHERE key = $1 RETURNING NOT ${expired} AS live
      ), checkpoints AS (
        DELETE FROM ${t.sql.checkpoints} WHERE key = $1
      ), events AS (
        DELETE FROM ${t.sql.events} WHERE key = $1
      )
      SELECT COALESCE((SELECT live FROM session), false) AS existed`,
    events: `SELECT run, n, event FROM ${t.sql.events}
      WHERE key = $1 AND (run, n) > ($2::bigint, $3::bigint)
        AND NOT EXISTS (SELECT 1 FROM ${t.sql.sessions} WHERE key = $1 AND ${expired})
      ORDER BY run, n LIMIT $4::bigint`, // run and n are bigint: pg hands them over as strings
  };
}
