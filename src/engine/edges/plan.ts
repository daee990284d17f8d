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
}

/** What follows a node's completion, in the order it happened. */
export interface Transition {
  /** Edges newly marked, in order. */
  readonly edges: Array<readonly [index: number, mark: EdgeMark]>;
  /** Nodes skipped, in order. */
  readonly skipped: string[];
  /** Nodes that became ready, in order. */
  readonly ready: string[];
}

/**
 * After `nodeId` completed in a frame: `handle` is the port it chose (branching nodes; ignored
 * for the others, which take every outgoing edge).
 */
export function planCompletion(topology: EdgeTopology, marks: FrameMarks, nodeId: string, handle: string | undefined): Transition {
  const plan = new Planner(topology, marks);
  const outgoing = topology.outgoing.get(nodeId) ?? [];
  if (topology.branching.has(nodeId)) {
    // Skips first, then takes (graphon's order): a join fed by both sees its final state.
    for (const e of outgoing) if (topology.edges[e].handle !== handle) plan.skipEdge(e);
    for (const e of outgoing) if (topology.edges[e].handle === handle) plan.takeEdge(e);
  } else {
    for (const e of outgoing) plan.takeEdge(e);
  }
  return plan.transition;
}

/** Skip a node that will not run (e.g. whose frame stopped), and what depends on it alone. */
export function planSkip(topology: EdgeTopology, marks: FrameMarks, nodeId: string): Transition {
  const plan = new Planner(topology, marks);
  plan.skipNode(nodeId);
  return plan.transition;
}

/** Applies marks to a local overlay while it plans, so later steps see earlier ones. */
class Planner {
  readonly transition: Transition = { edges: [], skipped: [], ready: [] };
  private readonly edgeMarks = new Map<number, EdgeMark>();
  private readonly nodeMarks = new Map<string, NodeMark>();

  constructor(
    private readonly topology: EdgeTopology,
    private readonly marks: FrameMarks,
  ) {}

  private edge(index: number): EdgeMark | undefined {
    return this.edgeMarks.get(index) ?? this.marks.edge(index);
  }

  private node(id: string): NodeMark | undefined {
    return this.nodeMarks.get(id) ?? this.marks.node(id);
  }

  private setEdge(index: number, mark: EdgeMark): void {
    this.edgeMarks.set(index, mark);
    this.transition.edges.push([index, mark]);
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
        this.markSkipped(target);
        const out = this.topology.outgoing.get(target) ?? [];
        for (let i = out.length - 1; i >= 0; i--) stack.push(out[i]);
      }
    }
  }

  skipNode(id: string): void {
    if (this.node(id) !== undefined && this.node(id) !== NODE_READY) return;
    this.markSkipped(id);
    const out = this.topology.outgoing.get(id) ?? [];
    for (const e of out) this.skipEdge(e);
  }

  private markSkipped(id: string): void {
    this.nodeMarks.set(id, NODE_SKIPPED);
    this.transition.skipped.push(id);
  }

  /** Look at a node after one of its incoming edges resolved: ready, to be skipped, or still waiting. */
  private review(id: string): "ready" | "skip" | "wait" {
    if (this.node(id) !== undefined) return "wait";
    let taken = false;
    for (const e of this.topology.incoming.get(id) ?? []) {
      const mark = this.edge(e);
      if (mark === undefined) return "wait";
      if (mark === EDGE_TAKEN) taken = true;
    }
    if (!taken) return "skip";
    this.nodeMarks.set(id, NODE_READY);
    this.transition.ready.push(id);
    return "ready";
  }
}
