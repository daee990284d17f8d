/**
 * The edge-state planner: pure functions from a frame's edge and node states and a finished
 * node to the transition that follows (research/dify-import.md §1.1, graphon's EdgeProcessor and
 * SkipPropagator). It never awaits and never touches the pool; the scheduler applies what it
 * returns.
 *
 * - A node that succeeds takes all its outgoing edges; a branching node takes the edges of the
 *   port it chose and skips the others.
 * - A node is ready when none of its incoming edges is unknown and at least one was taken. It
 *   runs at most once per frame.
 * - A skipped edge skips its target when all the target's incoming edges are skipped, and so on
 *   downstream; a target with a taken edge and no unknown one becomes ready.
 *
 * Each node's incoming edges are counted (how many are still unknown, how many were taken), so
 * resolving an edge costs the same however many edges its target has: a 100-way join is not
 * scanned 100 times.
 */
import type { EdgeTopology } from "./topology.js";

export const EDGE_TAKEN = 1;
export const EDGE_SKIPPED = 2;
export type EdgeMark = typeof EDGE_TAKEN | typeof EDGE_SKIPPED;

/** Node states in a frame. Absent: not reached yet. */
export const NODE_READY = 1;
export const NODE_RUNNING = 2;
export const NODE_DONE = 3;
export const NODE_SKIPPED = 4;
export const NODE_FAILED = 5;
export type NodeMark = typeof NODE_READY | typeof NODE_RUNNING | typeof NODE_DONE | typeof NODE_SKIPPED | typeof NODE_FAILED;

/** What the planner reads of a frame. */
export interface FrameMarks {
  edge(index: number): EdgeMark | undefined;
  node(id: string): NodeMark | undefined;
  /** A node's incoming edges still unknown and already taken; undefined: none resolved yet. */
  counts(id: string): EdgeCounts | undefined;
}

/** `[unknown, taken]` incoming edges of a node. */
export type EdgeCounts = readonly [unknown: number, taken: number];

/** What follows a node's completion, in the order it happened. */
export interface Transition {
  /** Edges newly marked, in order. */
  readonly edges: Array<readonly [index: number, mark: EdgeMark]>;
  /** Nodes skipped, in order. */
  readonly skipped: string[];
  /** Nodes that became ready, in order. */
  readonly ready: string[];
  /** The new counts of the nodes (with several incoming edges) whose incoming edges changed. */
  counts?: Map<string, EdgeCounts>;
}

/**
 * After `nodeId` completed in a frame: `handle` is the port it chose (branching nodes; ignored
 * for the others, which take every outgoing edge).
 */
export function planCompletion(topology: EdgeTopology, marks: FrameMarks, nodeId: string, handle: string | undefined): Transition {
  const plan = new Planner(topology, marks);
  const outgoing = topology.outgoing.get(nodeId) ?? NONE;
  if (topology.branching.has(nodeId)) {
    // Skips first, then takes (graphon's order): a join fed by both sees its final state.
    for (const e of outgoing) if (topology.edges[e].handle !== handle) plan.skipEdge(e);
    for (const e of outgoing) if (topology.edges[e].handle === handle) plan.takeEdge(e);
  } else {
    for (const e of outgoing) plan.takeEdge(e);
  }
  return plan.transition;
}

const NONE: readonly number[] = Object.freeze([]);
/** Past this many marked nodes, the planner indexes them (below, a scan is cheaper than a Map). */
const SCAN_LIMIT = 8;

/**
 * Applies marks to a local overlay while it plans, so later steps see earlier ones. The common
 * completion (a node taking one or two edges) allocates no map: skipped edges and nodes are only
 * indexed when a skip spreads.
 */
class Planner {
  readonly transition: Transition = { edges: [], skipped: [], ready: [] };
  private skippedEdges: Set<number> | undefined;
  private nodeMarks: Map<string, NodeMark> | undefined;

  constructor(
    private readonly topology: EdgeTopology,
    private readonly marks: FrameMarks,
  ) {}

  /** An edge's mark. Edges this plan took are never looked at again (each is taken once, after the skips). */
  private edge(index: number): EdgeMark | undefined {
    return this.skippedEdges?.has(index) ? EDGE_SKIPPED : this.marks.edge(index);
  }

  private node(id: string): NodeMark | undefined {
    const t = this.transition;
    if (this.nodeMarks) return this.nodeMarks.get(id) ?? this.marks.node(id);
    if (t.ready.includes(id)) return NODE_READY;
    if (t.skipped.includes(id)) return NODE_SKIPPED;
    return this.marks.node(id);
  }

  private setNode(id: string, mark: NodeMark): void {
    const t = this.transition;
    (mark === NODE_READY ? t.ready : t.skipped).push(id);
    if (this.nodeMarks) this.nodeMarks.set(id, mark);
    else if (t.ready.length + t.skipped.length > SCAN_LIMIT) {
      this.nodeMarks = new Map<string, NodeMark>();
      for (const r of t.ready) this.nodeMarks.set(r, NODE_READY);
      for (const s of t.skipped) this.nodeMarks.set(s, NODE_SKIPPED);
    }
  }

  private counts(id: string): EdgeCounts {
    return this.transition.counts?.get(id) ?? this.marks.counts(id) ?? [this.topology.incoming.get(id)?.length ?? 0, 0];
  }

  private setEdge(index: number, mark: EdgeMark): void {
    if (mark === EDGE_SKIPPED) (this.skippedEdges ??= new Set()).add(index);
    this.transition.edges.push([index, mark]);
    // A node with one incoming edge needs no count: that edge decides it.
    const target = this.topology.edges[index].target;
    if ((this.topology.incoming.get(target)?.length ?? 0) < 2) return;
    const [unknown, taken] = this.counts(target);
    (this.transition.counts ??= new Map()).set(target, [unknown - 1, mark === EDGE_TAKEN ? taken + 1 : taken]);
  }

  takeEdge(index: number): void {
    if (this.edge(index) !== undefined) return;
    this.setEdge(index, EDGE_TAKEN);
    this.review(this.topology.edges[index].target);
  }

  /** Skip an edge and whatever is skipped with it (an explicit stack: skipped chains may be long). */
  skipEdge(index: number): void {
    const stack = [index];
    while (stack.length > 0) {
      const e = stack.pop()!;
      if (this.edge(e) !== undefined) continue;
      this.setEdge(e, EDGE_SKIPPED);
      const target = this.topology.edges[e].target;
      if (this.review(target) === "skip") {
        this.setNode(target, NODE_SKIPPED);
        const out = this.topology.outgoing.get(target) ?? NONE;
        for (let i = out.length - 1; i >= 0; i--) stack.push(out[i]);
      }
    }
  }

  /** Look at a node after one of its incoming edges resolved: ready, to be skipped, or still waiting. */
  private review(id: string): "ready" | "skip" | "wait" {
    if (this.node(id) !== undefined) return "wait";
    const incoming = this.topology.incoming.get(id) ?? NONE;
    let unknown: number;
    let taken: number;
    if (incoming.length === 1) {
      // Its one edge was just marked: taken or skipped.
      unknown = 0;
      taken = this.skippedEdges?.has(incoming[0]) ? 0 : 1;
    } else [unknown, taken] = this.counts(id);
    if (unknown > 0) return "wait";
    if (taken === 0) return "skip";
    this.setNode(id, NODE_READY);
    return "ready";
  }
}
