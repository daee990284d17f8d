/**
 * The edge policy's run state: plain JSON kept in the session (`session.schedule`) while a run
 * is under way or paused, and saved with it. Every change is an op, applied by one function
 * both live and when a checkpoint is replayed, so a replayed state is the live one.
 */
import type { Outputs } from "../../components/types.js";
import type { EdgeCounts, EdgeMark, NodeMark } from "./plan.js";

/** One frame: the top of the graph ("") or a container's round. */
export interface FrameState {
  /** The enclosing frame's key (none at the top). */
  parent?: string;
  /** The container whose round this is, and the round (from 0). */
  container?: string;
  round?: number;
  /** Edge marks by edge index (absent: unknown). */
  edges: Record<string, EdgeMark>;
  /** Node marks (absent: not reached). */
  nodes: Record<string, NodeMark>;
  /** `[unknown, taken]` incoming edges of the nodes with a resolved incoming edge. */
  counts: Record<string, [number, number]>;
  /** Nodes ready to run, in order. */
  ready: string[];
  /** Nodes running: in the batch under way, or containers waiting for their rounds. */
  active: number;
  /** The first failure in this frame that nothing handled (a round's body stops there). */
  failed?: string;
  /** A node that exits its container ran in this frame. */
  exited?: boolean;
  /** Response nodes whose stream began in this frame. */
  activated: Record<string, 1>;
}

/** A container whose rounds are under way. Keyed by the container's output key (`id` or `id#frame`). */
export interface ContainerRun {
  /** The frame the container runs in, and its id. */
  frame: string;
  node: string;
  count: number;
  parallel: number;
  /** The next round to open. */
  next: number;
  /** The keys of its rounds still running. */
  open: string[];
  /** No further round opens. */
  stop?: boolean;
  /** Why the container fails once its open rounds ended (a round hook threw). */
  error?: string;
  /** Epoch seconds when the container started. */
  startedAt: number;
}

/** A response node streaming (or waiting to): where it is in its template. */
export interface SessionState {
  frame: string;
  node: string;
  index: number;
}

export interface SessionsState {
  active: SessionState | null;
  waiting: SessionState[];
}

export interface EdgeScheduleState {
  policy: "edges";
  frames: Record<string, FrameState>;
  containers: Record<string, ContainerRun>;
  sessions: SessionsState;
  /** The run's outputs so far: merged End outputs, concatenated Answer texts. */
  outputs: Outputs;
  /** Failures handled by an error route (the run ends as partially succeeded). */
  exceptions: number;
  /** The response nodes that stream from the start have been activated. */
  started: boolean;
}

type FrameField = "failed" | "exited" | "active";
type ContainerField = "next" | "open" | "stop" | "error";

export type EdgeOp =
  | ["init", EdgeScheduleState]
  | ["e", string, number, EdgeMark]
  | ["n", string, string, NodeMark | 0]
  | ["k", string, string, EdgeCounts]
  | ["r", string, string]
  | ["R", string]
  | ["f", string, FrameState | null]
  | ["F", string, FrameField, unknown]
  | ["a", string, string]
  | ["c", string, ContainerRun | null]
  | ["C", string, ContainerField, unknown]
  | ["s", SessionsState]
  | ["o", string, unknown]
  | ["x", number]
  | ["S"];

export function initialState(entryId: string): EdgeScheduleState {
  return {
    policy: "edges",
    frames: { "": newFrame(undefined, undefined, undefined, entryId) },
    containers: {},
    sessions: { active: null, waiting: [] },
    outputs: {},
    exceptions: 0,
    started: false,
  };
}

export function newFrame(parent: string | undefined, container: string | undefined, round: number | undefined, root: string): FrameState {
  return {
    ...(parent !== undefined ? { parent } : {}),
    ...(container !== undefined ? { container, round } : {}),
    edges: {},
    nodes: { [root]: 1 },
    counts: {},
    ready: [root],
    active: 0,
    activated: {},
  };
}

export function isEdgeScheduleState(value: unknown): value is EdgeScheduleState {
  return typeof value === "object" && value !== null && (value as { policy?: unknown }).policy === "edges";
}

// The changes made on every step, shared by the live scheduler and the replay of their ops, so
// both change the state the same way (the scheduler calls them directly when nothing records).

export function setEdge(state: EdgeScheduleState, key: string, edge: number, mark: EdgeMark): void {
  frame(state, key).edges[edge] = mark;
}

export function setNode(state: EdgeScheduleState, key: string, id: string, mark: NodeMark | 0): void {
  if (mark === 0) delete frame(state, key).nodes[id];
  else frame(state, key).nodes[id] = mark;
}

export function setCounts(state: EdgeScheduleState, key: string, id: string, counts: EdgeCounts): void {
  frame(state, key).counts[id] = [counts[0], counts[1]];
}

export function pushReady(state: EdgeScheduleState, key: string, id: string): void {
  frame(state, key).ready.push(id);
}

export function clearReady(state: EdgeScheduleState, key: string): void {
  frame(state, key).ready.length = 0;
}

export function setActive(state: EdgeScheduleState, key: string, active: number): void {
  frame(state, key).active = active;
}

/** Apply one op. Objects an op carries are copied: the op may be kept (in a checkpoint) while the state goes on changing. */
export function applyEdgeOp(state: EdgeScheduleState | undefined, op: EdgeOp): EdgeScheduleState {
  if (op[0] === "init") return structuredClone(op[1]);
  if (!state) throw new Error(`edge schedule op "${op[0]}" before the schedule was initialized`);
  switch (op[0]) {
    case "e":
      setEdge(state, op[1], op[2], op[3]);
      break;
    case "n":
      setNode(state, op[1], op[2], op[3]);
      break;
    case "k":
      setCounts(state, op[1], op[2], op[3]);
      break;
    case "r":
      pushReady(state, op[1], op[2]);
      break;
    case "R":
      clearReady(state, op[1]);
      break;
    case "f":
      if (op[2] === null) delete state.frames[op[1]];
      else state.frames[op[1]] = structuredClone(op[2]);
      break;
    case "F":
      if (op[2] === "active") setActive(state, op[1], op[3] as number);
      else (frame(state, op[1]) as unknown as Record<string, unknown>)[op[2]] = op[3];
      break;
    case "a":
      frame(state, op[1]).activated[op[2]] = 1;
      break;
    case "c":
      if (op[2] === null) delete state.containers[op[1]];
      else state.containers[op[1]] = structuredClone(op[2]);
      break;
    case "C": {
      const run = state.containers[op[1]];
      if (!run) throw new Error(`edge schedule op "C" names no running container "${op[1]}"`);
      (run as unknown as Record<string, unknown>)[op[2]] = Array.isArray(op[3]) ? [...op[3]] : op[3];
      break;
    }
    case "s":
      state.sessions = structuredClone(op[1]);
      break;
    case "o":
      state.outputs[op[1]] = structuredClone(op[2]);
      break;
    case "x":
      state.exceptions = op[1];
      break;
    case "S":
      state.started = true;
      break;
    default:
      throw new Error(`unknown edge schedule op ${JSON.stringify((op as unknown[])[0])}`);
  }
  return state;
}

function frame(state: EdgeScheduleState, key: string): FrameState {
  const found = state.frames[key];
  if (!found) throw new Error(`edge schedule op names no open frame "${key}"`);
  return found;
}
