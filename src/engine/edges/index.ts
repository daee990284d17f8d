/**
 * The edge policy (Dify graphs): edge states, join readiness and skip propagation, container
 * rounds in frames, and ordered response streaming. A front end compiles its graph's nodes as
 * usual and its edges with `edgePolicy`.
 */
import type { SchedulingPolicy } from "../policy.js";
import type { CanvasSession } from "../session.js";
import type { ComponentNode } from "../graph.js";
import { EdgeScheduler } from "./scheduler.js";
import { applyEdgeOp, isEdgeScheduleState, type EdgeOp } from "./state.js";
import { compileTopology, type EdgeSpec, type EdgeTopology } from "./topology.js";

export type { EdgeSpec, EdgeTopology } from "./topology.js";
export type { EdgeScheduleState } from "./state.js";

class EdgePolicy implements SchedulingPolicy {
  readonly name = "edges";

  constructor(readonly topology: EdgeTopology) {}

  scheduler(host: Parameters<SchedulingPolicy["scheduler"]>[0]): EdgeScheduler {
    return new EdgeScheduler(host, this.topology);
  }

  replay(session: CanvasSession, op: unknown): void {
    if (!Array.isArray(op)) throw new Error(`an edge schedule op must be a list, got ${JSON.stringify(op)}`);
    session.schedule = applyEdgeOp(isEdgeScheduleState(session.schedule) ? session.schedule : undefined, op as EdgeOp);
  }
}

/** The edge policy of a graph's nodes and edges. */
export function edgePolicy(nodes: ReadonlyMap<string, ComponentNode>, edges: readonly EdgeSpec[], entryId: string): EdgePolicy {
  return new EdgePolicy(compileTopology(nodes, edges, entryId));
}
