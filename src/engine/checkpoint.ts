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
import type { TokenUsage } from "./events.js";
import type { ReferenceBucket } from "./ledger.js";
import { pathOf, type CanvasSession } from "./session.js";
import type { PendingInput, RunInProgress, RunStatus } from "./state.js";

/** An op of the session beyond the pool's: the conversation and what the user was shown. */
export type SessionOp = ["history", HistoryEntry] | ["reply", string] | ["replyReset"] | ["executionsReset"];
export type CheckpointOp = PoolOp | SessionOp;

/** One checkpoint's content. Optional fields are there only when they changed. */
export interface RunDelta {
  ops: CheckpointOp[];
  status: RunStatus;
  /** What runs next (producers whose stream nobody read, then the frontier). */
  path: string[];
  steps: number;
  epoch: number;
  /** Components whose execution count changed, with their new count. */
  executions?: Record<string, number>;
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
}

/** Receives each checkpoint of a run; a returned promise is awaited before the run goes on. */
export type CheckpointSink = (delta: RunDelta) => void | Promise<void>;

/**
 * Collects a run's changes between checkpoints. The run reports the ops; the bounded parts are
 * compared with what the last checkpoint carried.
 */
export class RunRecorder {
  private ops: CheckpointOp[] = [];
  private readonly executed = new Set<string>();
  private last: ReturnType<RunRecorder["fingerprints"]>;

  constructor(private readonly session: CanvasSession) {
    this.last = this.fingerprints();
    session.pool.journal = (op) => this.ops.push(op);
  }

  op(op: SessionOp): void {
    this.ops.push(op);
  }

  /** A component started: its execution count changed. */
  started(id: string): void {
    this.executed.add(id);
  }

  /** The delta since the last call. */
  take(): RunDelta {
    const session = this.session;
    const now = this.fingerprints();
    const delta: RunDelta = { ops: this.ops, status: session.status, path: pathOf(session), steps: session.steps, epoch: session.epoch };
    this.ops = [];
    if (this.executed.size > 0) {
      delta.executions = {};
      for (const id of this.executed) delta.executions[id] = session.executions[id] ?? 0;
      this.executed.clear();
    }
    if (now.state !== this.last.state) delta.component_state = structuredClone(session.componentState);
    if (now.containers !== this.last.containers) delta.open_containers = { ...session.openContainers };
    if (now.references !== this.last.references) delta.references = structuredClone(session.references);
    if (now.usage !== this.last.usage) delta.usage = { ...session.usage };
    if (now.pending !== this.last.pending) delta.pending = session.pending ? structuredClone(session.pending) : null;
    if (now.error !== this.last.error) delta.error = session.error ?? null;
    if (now.run !== this.last.run) delta.run = session.run ? structuredClone(session.run) : null;
    else if (now.lastShown !== this.last.lastShown && session.run?.last !== undefined) delta.last = session.run.last;
    this.last = now;
    return delta;
  }

  /** Stop recording (the run is over). */
  detach(): void {
    if (this.session.pool.journal) this.session.pool.journal = undefined;
  }

  private fingerprints() {
    const s = this.session;
    return {
      state: fingerprint(s.componentState),
      containers: fingerprint(s.openContainers),
      references: s.references.chunks.length === 0 && s.references.doc_aggs.length === 0 ? "" : JSON.stringify(s.references),
      usage: s.usage.calls === 0 ? "" : JSON.stringify(s.usage),
      pending: s.pending === undefined ? "" : JSON.stringify(s.pending),
      error: s.error ?? "",
      // The run changes as a whole (a new object) when it starts, ends or hands its inputs on.
      run: s.run,
      lastShown: s.run?.last,
    };
  }
}

/** What a small record holds, as text to compare; an empty one (the common case) costs nothing. */
function fingerprint(record: Record<string, unknown>): string {
  for (const _ in record) return JSON.stringify(record);
  return "";
}

/**
 * Two consecutive checkpoints (without their ops) as one: applying the result is applying `a`
 * then `b`. What `b` carries wins; executions add up; a `last` survives a later `run` only if
 * that `run` did not replace it.
 */
export function mergeDeltaParts(a: Omit<RunDelta, "ops">, b: Omit<RunDelta, "ops">): Omit<RunDelta, "ops"> {
  const merged: Omit<RunDelta, "ops"> = { ...a, ...b };
  if (a.executions && b.executions) merged.executions = { ...a.executions, ...b.executions };
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
        session.executions = {};
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
  if (delta.executions) Object.assign(session.executions, delta.executions);
  if (delta.component_state) session.componentState = delta.component_state;
  if (delta.open_containers) session.openContainers = delta.open_containers;
  if (delta.references) session.references = delta.references;
  if (delta.usage) session.usage = delta.usage;
  if (delta.pending !== undefined) session.pending = delta.pending ?? undefined;
  if (delta.error !== undefined) session.error = delta.error ?? undefined;
  if (delta.run !== undefined) session.run = delta.run ?? undefined;
  if (delta.last !== undefined && session.run) session.run.last = delta.last;
}
