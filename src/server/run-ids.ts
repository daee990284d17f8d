/**
 * Ids of runs a client looks up later (Dify's task and workflow run ids, an ingestion pipeline's
 * message_id): the session's id and a random suffix, so the session is found from the id alone, in
 * any server process, and only within the caller's tenant (its record is read with the tenant).
 * An id whose prefix is a session's is not yet a run of it: each lookup checks that the session
 * made the run.
 */
import { randomBytes } from "node:crypto";

const RUN_ID = /^([0-9a-f]{32})-[0-9a-f]{12}$/;

/** A new run id of the session. */
export function newRunId(sessionId: string): string {
  return `${sessionId}-${randomBytes(6).toString("hex")}`;
}

/** The session a run id belongs to, or undefined when it is not a run id. */
export function sessionOfRun(runId: string): string | undefined {
  return RUN_ID.exec(runId)?.[1];
}
