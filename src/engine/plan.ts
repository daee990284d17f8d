/**
 * The planner: pure functions from the frontier and a finished component to the next batch.
 * It never awaits and never touches the pool; the run loop applies what it returns.
 *
 * Path extension follows RAGFlow (research/ragflow.md §2.5 D), with the fixes listed in DESIGN.md.
 */
import type { InvokeControl } from "../components/types.js";
import type { CanvasGraph, ComponentNode } from "./graph.js";

interface Batch {
  /** Components that run now, in path order. */
  ready: string[];
  /** Components that stay in the frontier because something they read is still pending. */
  deferred: string[];
}

/**
 * Split the frontier into what can run now and what must wait.
 *
 * A component waits while a component it references is itself still in the frontier (RAGFlow
 * only checks that the reference appears earlier in the path, so such siblings race). A
 * container's start node waits while other nodes of that container's body are pending, so a
 * round never starts before every branch of the previous one finished. If everything would
 * wait (a reference cycle), the first in path order runs alone: a cycle must not stall the run,
 * and running its members together would let each stream read the other's unfinished stream
 * (a Message reading a Message that reads it back never ends).
 *
 * `open` holds the containers whose body is running: a component outside a container that reads
 * it (an Iteration's collected lists, a Loop's variables) waits until the container finishes.
 */
export function selectBatch(frontier: readonly string[], graph: CanvasGraph, open: Readonly<Record<string, unknown>> = {}): Batch {
  if (frontier.length === 0) return { ready: [], deferred: [] };
  if (frontier.length === 1 && !readsOpenContainer(graph.nodes.get(frontier[0]), open)) return { ready: [...frontier], deferred: [] };
  const pending = new Set(frontier);
  const ready: string[] = [];
  const deferred: string[] = [];
  for (const id of frontier) {
    const node = graph.nodes.get(id);
    if (node && mustWait(node, pending, frontier, graph, open)) deferred.push(id);
    else ready.push(id);
  }
  return ready.length === 0 ? { ready: deferred.slice(0, 1), deferred: deferred.slice(1) } : { ready, deferred };
}

/** Reads a container that is still running its body (and that does not enclose the reader). */
function readsOpenContainer(node: ComponentNode | undefined, open: Readonly<Record<string, unknown>>): boolean {
  if (!node) return false;
  for (const dependency of node.waitsFor) {
    if (Object.hasOwn(open, dependency) && !node.ancestors.includes(dependency)) return true;
  }
  return false;
}

function mustWait(
  node: ComponentNode,
  pending: ReadonlySet<string>,
  frontier: readonly string[],
  graph: CanvasGraph,
  open: Readonly<Record<string, unknown>>,
): boolean {
  for (const dependency of node.waitsFor) if (pending.has(dependency)) return true;
  if (readsOpenContainer(node, open)) return true;
  if (node.def.capabilities?.containerStart && node.parentId) {
    const container = node.parentId;
    for (const other of frontier) {
      if (other !== node.id && graph.nodes.get(other)?.ancestors.includes(container)) return true;
    }
  }
  return false;
}

/** What happens after a component finished. */
export interface Extension {
  /** Ids to add to the frontier, in order. */
  append: string[];
  /** Containers that are complete now; their `node_finished` is due (innermost first). */
  finished: string[];
  /** A container that just started: its start node's counters begin afresh. */
  started?: string;
  /** A container left early through an exit node: its pending body nodes are dropped. */
  exited?: string;
  /** A container whose next round begins now (its start node reported not done). */
  round?: string;
}

/** Where the path goes after `node` when nothing special happens: downstream, else back to the container's start. */
export function nextAfter(node: ComponentNode, graph: CanvasGraph): string[] {
  if (node.downstream.length > 0) return node.downstream as string[];
  if (node.parentId) {
    const start = graph.nodes.get(node.parentId)?.startChildId;
    if (start) return [start];
  }
  return [];
}

/**
 * The path extension for a finished component (first matching rule):
 * 1. an error handled with `goto` continues at the handler targets;
 * 2. a container start that reports `done` finishes its container and continues after it;
 * 3. a router continues at the ids it chose;
 * 4. a container continues at its start node;
 * 5. an exit node finishes the nearest exitable container and continues after it;
 * 6. anything else continues downstream, or loops back to its container's start.
 */
export function planExtension(
  node: ComponentNode,
  outcome: { control?: InvokeControl | void; goto?: readonly string[] },
  graph: CanvasGraph,
): Extension {
  const caps = node.def.capabilities ?? {};
  if (outcome.goto && outcome.goto.length > 0) {
    return { append: outcome.goto.filter((id) => graph.nodes.has(id)), finished: [] };
  }
  const control = outcome.control ?? undefined;
  if (caps.containerStart && node.parentId) {
    if (control?.done) return finishContainer(node.parentId, graph);
    return { append: nextAfter(node, graph), finished: [], round: node.parentId };
  }
  if (caps.router) {
    return { append: (control?.next ?? []).filter((id) => graph.nodes.has(id)), finished: [] };
  }
  if (caps.container) {
    return { append: node.startChildId ? [node.startChildId] : [], finished: [], started: node.id };
  }
  if (caps.exitsContainer) {
    const depth = node.ancestors.findIndex((id) => graph.nodes.get(id)?.def.capabilities?.container?.exitable);
    if (depth >= 0) {
      const exited = node.ancestors[depth];
      // Every container between the exit node and the one it leaves is left too.
      return { append: finishContainer(exited, graph).append, finished: node.ancestors.slice(0, depth + 1), exited };
    }
  }
  return { append: nextAfter(node, graph), finished: [] };
}

function finishContainer(containerId: string, graph: CanvasGraph): Extension {
  const container = graph.nodes.get(containerId);
  return { append: container ? nextAfter(container, graph) : [], finished: [containerId] };
}

/** Append ids to a frontier, skipping ids already in it: a node never runs twice in one batch. */
export function appendUnique(frontier: string[], members: Set<string>, ids: readonly string[]): void {
  for (const id of ids) {
    if (!members.has(id)) {
      members.add(id);
      frontier.push(id);
    }
  }
}

/** Drop the frontier nodes that sit inside `containerId` (after it was exited early). */
export function withoutDescendants(frontier: readonly string[], containerId: string, graph: CanvasGraph): string[] {
  return frontier.filter((id) => !graph.nodes.get(id)?.ancestors.includes(containerId));
}
