/**
 * A canvas's session: everything a run reads and changes besides the DSL, and its one plain-JSON
 * form (the snapshot `Canvas.toJSON()` returns and `loadCanvas()` resumes from). Building a
 * session from a snapshot and a snapshot from a session live here together, so that a snapshot,
 * a checkpoint replay and a live session always agree.
 */
import { nanoid } from "nanoid";
import { isTextStream } from "../components/text-stream.js";
import type { Outputs } from "../components/types.js";
import type { CanvasDsl, HistoryEntry } from "../dsl/types.js";
import { VariablePool } from "../pool/pool.js";
import { freshSessionGlobals, normalizeDeclarations } from "../pool/variables.js";
import { emptyUsage, type TokenUsage } from "./events.js";
import type { CanvasGraph } from "./graph.js";
import { emptyReferences, type ReferenceBucket } from "./ledger.js";
import { RUN_STATE_VERSION, readRunState, type PendingInput, type PersistedRunState, type RunInProgress, type RunStatus } from "./state.js";

/** The mutable state of a canvas between runs and during one. */
export interface CanvasSession {
  readonly graph: CanvasGraph;
  readonly pool: VariablePool;
  readonly taskId: string;
  history: HistoryEntry[];
  componentState: Record<string, unknown>;
  openContainers: Record<string, number>;
  frontier: string[];
  /** The scheduling policy's own state (plain JSON), while a run is under way or paused; undefined for the frontier policy. */
  schedule: unknown;
  status: RunStatus;
  pending: PendingInput | undefined;
  /** What the user has been shown so far in this turn (kept across a pause, for history). */
  reply: string[];
  /** References gathered since the last message_end (kept across a pause). */
  references: ReferenceBucket;
  steps: number;
  error: string | undefined;
  /** Runs started on this session (new turns and resumptions): the first part of event ids. */
  epoch: number;
  /**
   * How often each component ran in this turn: with the turn, its idempotency key. A Map: it
   * gains a key per component every turn, which a plain object turned dictionary paid for dearly
   * once checkpoints kept the young generation busy (a third of a durable run's cost).
   */
  executions: Map<string, number>;
  /** Tokens counted in this turn so far. */
  usage: TokenUsage;
  /** The run under way (status "running"): what a process resuming it after a crash needs. */
  run: RunInProgress | undefined;
  /** Producers whose streamed output nobody has read yet: they run again after a crash. */
  unread: string[];
  /** A run holds the session (a second concurrent run is refused). */
  running: boolean;
  /** The W3C traceparent of the last run's span, when it was traced (a run that goes on from it links to it). */
  traceparent: string | undefined;
}

interface FreshSessionOptions {
  userId?: string;
  taskId?: string;
}

/** A new conversation on a DSL: its declared variables and globals, nothing run yet. */
export function freshSession(dsl: CanvasDsl, graph: CanvasGraph, options: FreshSessionOptions = {}): CanvasSession {
  const globals = { ...freshSessionGlobals(dsl.globals, normalizeDeclarations(dsl.variables), { userId: options.userId }), ...structuredClone(graph.initialGlobals ?? {}) };
  return {
    graph,
    pool: new VariablePool((id) => graph.nodes.has(id), globals),
    taskId: options.taskId ?? nanoid(),
    history: [],
    componentState: {},
    openContainers: {},
    frontier: [],
    schedule: undefined,
    status: "idle",
    pending: undefined,
    reply: [],
    references: emptyReferences(),
    steps: 0,
    error: undefined,
    epoch: 0,
    executions: new Map(),
    usage: emptyUsage(),
    run: undefined,
    unread: [],
    running: false,
    traceparent: undefined,
  };
}

/** The session a snapshot holds (`dsl.canvasflow` must be there). */
export function sessionFromSnapshot(dsl: CanvasDsl, graph: CanvasGraph): CanvasSession {
  const state = readRunState(dsl.canvasflow);
  const pool = new VariablePool((id) => graph.nodes.has(id), { ...(dsl.globals ?? {}) });
  for (const [id, outputs] of Object.entries(state.outputs)) pool.replaceOutputs(id, outputs);
  const waiting = state.status === "paused" || state.status === "running";
  return {
    graph,
    pool,
    taskId: typeof dsl.task_id === "string" && dsl.task_id ? dsl.task_id : nanoid(),
    history: Array.isArray(dsl.history) ? [...dsl.history] : [],
    componentState: { ...state.component_state },
    openContainers: { ...state.open_containers },
    frontier: waiting ? [...(dsl.path ?? [])].filter((id) => graph.nodes.has(id)) : [],
    schedule: waiting && state.schedule !== undefined ? structuredClone(state.schedule) : undefined,
    status: state.status,
    pending: state.pending,
    reply: state.reply ?? [],
    references: state.references ?? emptyReferences(),
    steps: state.steps,
    error: state.error,
    epoch: state.epoch ?? 0,
    executions: new Map(Object.entries(state.executions ?? {})),
    usage: { ...emptyUsage(), ...(state.usage ?? {}) },
    run: state.run,
    unread: [],
    running: false,
    traceparent: state.traceparent,
  };
}

/** One more execution of a component in this turn. */
export function countExecution(executions: Map<string, number>, componentId: string): void {
  executions.set(componentId, (executions.get(componentId) ?? 0) + 1);
}

/** Take back the count of a start that did not execute (it paused from inside: it runs again on resume). */
export function uncountExecution(executions: Map<string, number>, componentId: string): void {
  const count = executions.get(componentId) ?? 0;
  if (count > 1) executions.set(componentId, count - 1);
  else executions.delete(componentId);
}

/**
 * The session as a snapshot of `dsl`: `path` (what runs next: producers whose stream nobody read,
 * then the frontier), `globals`, `history` and `task_id` in RAGFlow's places, the rest under
 * `canvasflow`. Everything is copied: the snapshot never shares an object with the session.
 */
export function snapshotOf(dsl: CanvasDsl, session: CanvasSession): CanvasDsl {
  const state: PersistedRunState = {
    version: RUN_STATE_VERSION,
    status: session.status,
    outputs: plainOutputs(session.pool.allOutputs()),
    component_state: structuredClone(session.componentState),
    open_containers: { ...session.openContainers },
    steps: session.steps,
    ...(session.pending ? { pending: structuredClone(session.pending) } : {}),
    ...(session.reply.length > 0 ? { reply: [...session.reply] } : {}),
    ...(session.references.chunks.length > 0 || session.references.doc_aggs.length > 0 ? { references: structuredClone(session.references) } : {}),
    ...(session.error !== undefined ? { error: session.error } : {}),
    ...(session.epoch > 0 ? { epoch: session.epoch } : {}),
    ...(session.executions.size > 0 ? { executions: Object.fromEntries(session.executions) } : {}),
    ...(session.usage.calls > 0 ? { usage: { ...session.usage } } : {}),
    ...(session.run ? { run: structuredClone(session.run) } : {}),
    ...(session.schedule !== undefined ? { schedule: structuredClone(session.schedule) } : {}),
    ...(session.traceparent !== undefined ? { traceparent: session.traceparent } : {}),
  };
  return {
    ...dsl,
    path: pathOf(session),
    history: structuredClone(session.history),
    globals: structuredClone(session.pool.globals),
    retrieval: [],
    task_id: session.taskId,
    canvasflow: state,
  };
}

/** What runs next when the session is resumed: nothing unless it is paused or was cut off mid-run. */
export function pathOf(session: CanvasSession): string[] {
  if (session.status === "paused") return [...session.frontier];
  if (session.status !== "running") return [];
  return session.unread.length === 0 ? [...session.frontier] : [...new Set([...session.unread, ...session.frontier])];
}

/** Outputs as JSON: a stream still in flight is saved as the text received so far. */
function plainOutputs(outputs: Record<string, Outputs>): Record<string, Outputs> {
  const out: Record<string, Outputs> = {};
  for (const [id, record] of Object.entries(outputs)) {
    const copy: Outputs = {};
    for (const [key, value] of Object.entries(record)) copy[key] = isTextStream(value) ? value.text : structuredClone(value);
    out[id] = copy;
  }
  return out;
}
