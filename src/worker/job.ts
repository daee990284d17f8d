/**
 * What a run job carries on the queue: the session it runs in and this turn's request, never the
 * session's state (that is in the durable store, where any worker loads it from). The job's id is
 * also the run's message id, so the run's events can be told from other runs' in the session's log.
 *
 *     { "v": 1, "session": "<key>", "query": "…", "inputs": {…}, "files": […], "userId": "…",
 *       "after": "<run>-<n>", "tenant": "…", "agent": "…", "traceparent": "00-…-…-01", "tracestate": "…" }
 *
 * Every field but `v` and `session` may be left out. `after` is the last event id the session
 * had logged when the job was enqueued: the run's events come after it. `tenant` and `agent` say
 * whose run it is (for logs and the dashboard); the session key alone finds the session. The run
 * gets the memories of `tenant` (of the tenant "default" when the job names none). `traceparent`
 * and `tracestate` (W3C trace context) are the parent of the run's span: the span of the server
 * request that enqueued it, so the run is in that request's trace.
 */
import { MAX_DSL_DEPTH } from "../dsl/structure.js";
import { checkKey, parseEventId } from "../backends/shared/sessions.js";
import { SnapshotKeyError } from "../backends/errors.js";
import { pathDeeperThan } from "../util/nesting.js";
import { isPlainObject } from "../util/values.js";
import { isTraceparent, MAX_TRACESTATE_LENGTH } from "../tracing/w3c.js";

export const RUN_JOB_FORMAT = 1;
/** The BullMQ job name of a run. */
export const RUN_JOB_NAME = "run";

export interface RunJobData {
  v: typeof RUN_JOB_FORMAT;
  /** The durable session's key in the workers' store. */
  session: string;
  /** The user's message of this turn. */
  query?: string;
  /** Begin's form values on a new turn, or the answers a paused run waits for. */
  inputs?: Record<string, unknown>;
  files?: unknown[];
  userId?: string;
  /** The session's last logged event id when the job was enqueued. */
  after?: string;
  tenant?: string;
  agent?: string;
  /** The W3C traceparent of the run's parent span. */
  traceparent?: string;
  tracestate?: string;
}

/** Bounds on what a job may carry (a job is a Redis hash: it should stay small). */
export const RUN_JOB_LIMITS = {
  /** Bytes of the whole job as JSON. */
  jobBytes: 1024 * 1024,
  /** Characters of a tenant, agent or user id. */
  idLength: 256,
} as const;

/** A job that is not a run job: the message names the field and what is wrong with it. */
export class RunJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RunJobError";
  }
}

/** Check a job's data (from the queue, or about to go on it); RunJobError names what is wrong. */
export function readRunJob(data: unknown): RunJobData {
  if (!isPlainObject(data)) throw new RunJobError(`a run job's data must be an object, got ${data === null ? "null" : Array.isArray(data) ? "an array" : typeof data}`);
  if (data.v !== RUN_JOB_FORMAT) throw new RunJobError(`a run job's "v" must be ${RUN_JOB_FORMAT} (the job format this worker reads), got ${JSON.stringify(data.v) ?? "nothing"}`);
  const known = new Set(["v", "session", "query", "inputs", "files", "userId", "after", "tenant", "agent", "traceparent", "tracestate"]);
  const unknown = Object.keys(data).filter((field) => !known.has(field));
  if (unknown.length > 0) throw new RunJobError(`a run job has unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((f) => JSON.stringify(f)).join(", ")}`);
  try {
    checkKey(data.session);
  } catch (error) {
    if (error instanceof SnapshotKeyError) throw new RunJobError(`a run job's "session": ${error.message}`);
    throw error;
  }
  if (data.query !== undefined && typeof data.query !== "string") throw new RunJobError(`a run job's "query" must be a string, got ${typeName(data.query)}`);
  if (data.inputs !== undefined) {
    if (!isPlainObject(data.inputs)) throw new RunJobError(`a run job's "inputs" must be an object, got ${typeName(data.inputs)}`);
    const tooDeep = pathDeeperThan(data.inputs, MAX_DSL_DEPTH);
    if (tooDeep) throw new RunJobError(`a run job's "inputs" is nested deeper than ${MAX_DSL_DEPTH} levels (at inputs.${tooDeep.join(".")})`);
  }
  if (data.files !== undefined && !Array.isArray(data.files)) throw new RunJobError(`a run job's "files" must be a list, got ${typeName(data.files)}`);
  for (const field of ["userId", "tenant", "agent"] as const) {
    const value = data[field];
    if (value === undefined) continue;
    if (typeof value !== "string" || value.length === 0 || value.length > RUN_JOB_LIMITS.idLength) {
      throw new RunJobError(`a run job's "${field}" must be a string of 1 to ${RUN_JOB_LIMITS.idLength} characters, got ${typeName(value)}`);
    }
  }
  if (data.after !== undefined && !parseEventId(data.after)) throw new RunJobError(`a run job's "after" must be an event id (<run>-<n>), got ${JSON.stringify(data.after)}`);
  if (data.traceparent !== undefined && !isTraceparent(data.traceparent)) throw new RunJobError(`a run job's "traceparent" must be a W3C traceparent (00-<trace id>-<span id>-<flags>), got ${typeName(data.traceparent)}`);
  if (data.tracestate !== undefined && (typeof data.tracestate !== "string" || data.tracestate.length > MAX_TRACESTATE_LENGTH)) {
    throw new RunJobError(`a run job's "tracestate" must be a string of at most ${MAX_TRACESTATE_LENGTH} characters, got ${typeName(data.tracestate)}`);
  }
  if (data.tracestate !== undefined && data.traceparent === undefined) throw new RunJobError(`a run job's "tracestate" comes with a "traceparent"`);
  const bytes = Buffer.byteLength(JSON.stringify(data), "utf8");
  if (bytes > RUN_JOB_LIMITS.jobBytes) throw new RunJobError(`a run job is ${bytes} bytes as JSON; the limit is ${RUN_JOB_LIMITS.jobBytes} (send large files by reference)`);
  return data as unknown as RunJobData;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
