/**
 * Checkpoints: what changed in a session since the last one, never the whole state. A durable
 * run hands one to its store after every batch; a process that takes the session over replays
 * them onto the last base snapshot and gets exactly the session the run had at that point.
 *
 * What grows with a run's length travels as ops, in order (pool writes, history entries, reply
 * texts); what is bounded by the canvas's size (frontier, counters, open containers) is written
 * whole, and only when it changed. So the bytes per step do not grow with the run.
 */
import type { HistoryEntry } from "../dsl/types.js";
import { applyPoolOp, type PoolOp } from "../pool/journal.js";
import { unscopedId } from "../pool/pool.js";
import type { TokenUsage } from "./events.js";
import type { ReferenceBucket } from "./ledger.js";
import { countExecution, pathOf, uncountExecution, type CanvasSession } from "./session.js";
import type { PendingInput, RunInProgress, RunStatus } from "./state.js";

/** An op of the session beyond the pool's: the conversation and what the user was shown. */
type SessionOp = ["history", HistoryEntry] | ["reply", string] | ["replyReset"] | ["executionsReset"] | ["executionUndone", string] | ["schedule", unknown];
export type CheckpointOp = PoolOp | SessionOp;

/** One checkpoint's content. Optional fields are there only when they changed. */
export interface RunDelta {
  ops: CheckpointOp[];
  status: RunStatus;
  /** What runs next (producers whose stream nobody read, then the frontier). */
  path: string[];
  steps: number;
  epoch: number;
  component_state?: Record<string, unknown>;
  open_containers?: Record<string, number>;
  references?: ReferenceBucket;
  usage?: TokenUsage;
  /** null: cleared. */
  pending?: PendingInput | null;
  error?: string | null;
  run?: RunInProgress | null;
  /** The component whose outputs workflow_finished shows so far (changes almost every step, so apart from `run`). */
  last?: string;
  /** The traceparent of the run's span (set when a traced run starts; null: cleared). */
  traceparent?: string | null;
  /**
   * What the caller keeps of the run with its last checkpoint (a server: the turn's messages), so
   * that it is stored in the same write as the run's end (see DurableRunRequest.end). The engine
   * never reads it.
   */
  note?: unknown;
}

/** Receives each checkpoint of a run; a returned promise is awaited before the run goes on. */
export type CheckpointSink = (delta: RunDelta) => void | Promise<void>;

/**
 * Collects a run's changes between checkpoints. The run reports the ops; the bounded parts are
 * compared with what the last checkpoint carried.
 */
export class RunRecorder {
  private ops: CheckpointOp[] = [];
  // What the last checkpoint carried of the parts written whole (compared, so unchanged ones are left out).
  private state: string;
  private containers: string;
  private references: string;
  private usage: string;
  private pending: string;
  private error: string;
  private run: RunInProgress | undefined;
  private lastShown: string | undefined;
  private traceparent: string | undefined;

  constructor(private readonly session: CanvasSession) {
    const s = session;
    this.state = fingerprint(s.componentState);
    this.containers = fingerprint(s.openContainers);
    this.references = referencesText(s);
    this.usage = usageText(s);
    this.pending = pendingText(s);
    this.error = s.error ?? "";
    this.run = s.run;
    this.lastShown = s.run?.last;
    this.traceparent = s.traceparent;
    session.pool.journal = (op) => this.ops.push(op);
  }

  op(op: SessionOp): void {
    this.ops.push(op);
  }

  /** The delta since the last call. */
  take(): RunDelta {
    const s = this.session;
    // The frontier array is replaced, never changed, once a batch is done: it can be handed out as is.
    const path = s.status === "running" && s.unread.length === 0 ? s.frontier : pathOf(s);
    const delta: RunDelta = { ops: this.ops, status: s.status, path, steps: s.steps, epoch: s.epoch };
    this.ops = [];
    const state = fingerprint(s.componentState);
    if (state !== this.state) {
      delta.component_state = structuredClone(s.componentState);
      this.state = state;
    }
    const containers = fingerprint(s.openContainers);
    if (containers !== this.containers) {
      delta.open_containers = { ...s.openContainers };
      this.containers = containers;
    }
    const references = referencesText(s);
    if (references !== this.references) {
      delta.references = structuredClone(s.references);
      this.references = references;
    }
    const usage = usageText(s);
    if (usage !== this.usage) {
      delta.usage = { ...s.usage };
      this.usage = usage;
    }
    const pending = pendingText(s);
    if (pending !== this.pending) {
      delta.pending = s.pending ? structuredClone(s.pending) : null;
      this.pending = pending;
    }
    const error = s.error ?? "";
    if (error !== this.error) {
      delta.error = s.error ?? null;
      this.error = error;
    }
    // The run changes as a whole (a new object) when it starts, ends or hands its inputs on.
    if (s.run !== this.run) {
      delta.run = s.run ? structuredClone(s.run) : null;
      this.run = s.run;
      this.lastShown = s.run?.last;
    } else if (s.run?.last !== this.lastShown && s.run?.last !== undefined) {
      delta.last = s.run.last;
      this.lastShown = s.run.last;
    }
    if (s.traceparent !== this.traceparent) {
      delta.traceparent = s.traceparent ?? null;
      this.traceparent = s.traceparent;
    }
    return delta;
  }

  /** Stop recording (the run is over). */
  detach(): void {
    if (this.session.pool.journal) this.session.pool.journal = undefined;
  }
}

/**
 * Whether a delta from `RunRecorder.take` shares nothing that the run may still change, so it can
 * be kept as a value instead of being serialized at once. What `take` builds is its own: a fresh
 * ops array, copies (or clones) of every part written whole, strings, and the frontier array,
 * which is replaced and never changed once a batch is done. What it does not copy are the values
 * inside the ops (an output, a history entry): a component may go on changing an object it set,
 * or a list it appends to (VariableAssigner appends in place). So: every op holds only primitives.
 */
export function isSelfContained(delta: RunDelta): boolean {
  for (const op of delta.ops) {
    for (let i = 1; i < op.length; i++) {
      const part = op[i];
      if (typeof part === "object" && part !== null) return false;
    }
  }
  return true;
}

function referencesText(s: CanvasSession): string {
  return s.references.chunks.length === 0 && s.references.doc_aggs.length === 0 ? "" : JSON.stringify(s.references);
}

function usageText(s: CanvasSession): string {
  return s.usage.calls === 0 ? "" : JSON.stringify(s.usage);
}

function pendingText(s: CanvasSession): string {
  return s.pending === undefined ? "" : JSON.stringify(s.pending);
}

/** What a small record holds, as text to compare; an empty one (the common case) costs nothing. */
function fingerprint(record: Record<string, unknown>): string {
  for (const _ in record) return JSON.stringify(record);
  return "";
}

/**
 * Two consecutive checkpoints (without their ops) as one: applying the result is applying `a`
 * then `b`. What `b` carries wins; a `last` survives a later `run` only if
 * that `run` did not replace it.
 */
export function mergeDeltaParts(a: Omit<RunDelta, "ops">, b: Omit<RunDelta, "ops">): Omit<RunDelta, "ops"> {
  const merged: Omit<RunDelta, "ops"> = { ...a, ...b };
  if (b.run !== undefined && b.last === undefined) delete merged.last;
  return merged;
}

/** Apply one checkpoint (as JSON, e.g. read back from a store) to a session rebuilt from its base. */
export function applyDelta(session: CanvasSession, delta: RunDelta): void {
  for (const op of delta.ops) {
    switch (op[0]) {
      case "history":
        session.history.push(op[1]);
        break;
      case "reply":
        session.reply.push(op[1]);
        break;
      case "replyReset":
        session.reply = [];
        break;
      case "executionsReset":
        session.executions = new Map();
        break;
      case "executionUndone":
        uncountExecution(session.executions, op[1]);
        break;
      case "schedule":
        // The scheduling policy's own state changed (e.g. edge states): its policy replays it.
        session.graph.policy.replay(session, op[1]);
        break;
      case "reset":
        // A component started: one more execution of it in this turn.
        countExecution(session.executions, unscopedId(op[1]));
        applyPoolOp(session.pool, op);
        break;
      default:
        applyPoolOp(session.pool, op);
    }
  }
  session.status = delta.status;
  session.steps = delta.steps;
  session.epoch = delta.epoch;
  // Paused and running sessions keep their path; the rest have nothing pending.
  session.frontier = delta.path.filter((id) => session.graph.nodes.has(id));
  if (delta.component_state) session.componentState = delta.component_state;
  if (delta.open_containers) session.openContainers = delta.open_containers;
  if (delta.references) session.references = delta.references;
  if (delta.usage) session.usage = delta.usage;
  if (delta.pending !== undefined) session.pending = delta.pending ?? undefined;
  if (delta.error !== undefined) session.error = delta.error ?? undefined;
  if (delta.run !== undefined) session.run = delta.run ?? undefined;
  // A run that ended keeps no schedule (the live session drops it too).
  if (delta.status !== "running" && delta.status !== "paused") session.schedule = undefined;
  if (delta.last !== undefined && session.run) session.run.last = delta.last;
  if (delta.traceparent !== undefined) session.traceparent = delta.traceparent ?? undefined;
}
