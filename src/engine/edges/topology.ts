/**
 * The compiled edges of an edge-scheduled graph: who connects to whom through which port, and,
 * for each response node, which edges must be taken before it may stream. Computed once when the
 * graph is compiled, so no step scans the graph.
 *
 * Every node sits at a level: the top of the graph, or the body of a container (its `parentId`).
 * Edges join nodes of one level. A container's body starts at its start child.
 */
import type { Reference } from "../../refs/grammar.js";
import type { ResponseTemplate } from "../../components/types.js";
import type { ComponentNode } from "../graph.js";

export interface EdgeSpec {
  /** The edge's id in the source document (for messages). */
  readonly id: string;
  readonly source: string;
  readonly target: string;
  /** The source's output port ("source" for an ordinary node). */
  readonly handle: string;
}

/** A response node's template, and the edge sets that let it stream (any one, fully taken). */
interface ResponsePlan {
  readonly template: ResponseTemplate;
  /** One set per distinct path from its level's root, each the blocking edges on it (minimal sets only). */
  readonly paths: readonly (readonly number[])[];
}

export interface EdgeTopology {
  readonly edges: readonly EdgeSpec[];
  readonly outgoing: ReadonlyMap<string, readonly number[]>;
  readonly incoming: ReadonlyMap<string, readonly number[]>;
  /** Nodes whose edges are chosen by port: branches, and nodes whose failures take a port of their own. */
  readonly branching: ReadonlySet<string>;
  /** The root of each level: the entry at the top (""), the start child in a container's body. */
  readonly roots: ReadonlyMap<string, string>;
  readonly responses: ReadonlyMap<string, ResponsePlan>;
  /** Response nodes of each level, in id order (the order in which they activate together). */
  readonly responsesAt: ReadonlyMap<string, readonly string[]>;
  /** For each edge: the response nodes one of whose path sets holds it. */
  readonly responsesByEdge: ReadonlyMap<number, readonly string[]>;
}

/** More distinct blocking sets than this for one response node: it streams once any edge into it is taken. */
const MAX_PATH_SETS = 64;

const EMPTY: readonly number[] = Object.freeze([]);

export function levelOf(node: ComponentNode): string {
  return node.parentId ?? "";
}

/**
 * Index the edges of a graph. Edges must join existing nodes of one level (the front end checks
 * that and reports the others); any other edge is ignored here.
 */
export function compileTopology(nodes: ReadonlyMap<string, ComponentNode>, edges: readonly EdgeSpec[], entryId: string): EdgeTopology {
  const kept: EdgeSpec[] = [];
  const outgoing = new Map<string, number[]>();
  const incoming = new Map<string, number[]>();
  for (const edge of edges) {
    const source = nodes.get(edge.source);
    const target = nodes.get(edge.target);
    if (!source || !target || levelOf(source) !== levelOf(target)) continue;
    const index = kept.length;
    kept.push(edge);
    push(outgoing, edge.source, index);
    push(incoming, edge.target, index);
  }

  const branching = new Set<string>();
  for (const node of nodes.values()) {
    if (node.def.capabilities?.branches || node.onError?.kind === "branch") branching.add(node.id);
  }

  const roots = new Map<string, string>([["", entryId]]);
  for (const node of nodes.values()) if (node.startChildId) roots.set(node.id, node.startChildId);

  const topology = { edges: kept, outgoing, incoming, branching, roots };
  const responses = new Map<string, ResponsePlan>();
  const responsesAt = new Map<string, string[]>();
  const responsesByEdge = new Map<number, string[]>();
  const ids = [...nodes.keys()].sort();
  for (const id of ids) {
    const node = nodes.get(id)!;
    if (!node.def.capabilities?.response || !node.def.responseTemplate) continue;
    let template: ResponseTemplate;
    try {
      template = node.def.responseTemplate(node.params);
    } catch {
      continue;
    }
    const root = roots.get(levelOf(node));
    const paths = root === undefined ? [] : blockingSets(topology, nodes, root, id, selectorsOf(template));
    responses.set(id, { template, paths });
    push(responsesAt, levelOf(node), id);
    const seen = new Set<number>();
    for (const path of paths) {
      for (const edge of path) {
        if (seen.has(edge)) continue;
        seen.add(edge);
        push(responsesByEdge, edge, id);
      }
    }
  }
  return { ...topology, responses, responsesAt, responsesByEdge };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `component@variable` of every reference a template shows (what an assigner may block). */
function selectorsOf(template: ResponseTemplate): Set<string> {
  const out = new Set<string>();
  for (const part of template.parts) if (typeof part !== "string") out.add(variableKey(part));
  return out;
}

/** A reference's node-and-variable, e.g. `llm@text` or `conversation.x`. */
function variableKey(ref: Reference): string {
  if (ref.kind === "component") return `${ref.componentId}@${ref.variable}`;
  if (ref.kind === "global") return ref.key;
  return ref.alias;
}

/**
 * The distinct sets of blocking edges on the paths from `root` to `target` (graphon's
 * ResponseStreamFilter): an edge blocks when its source is a branch, a container, a response
 * node, or a node that writes a variable the response shows. Computed over the level in
 * topological order, keeping only minimal sets, so it stays polynomial on wide graphs.
 */
function blockingSets(
  topology: Pick<EdgeTopology, "edges" | "outgoing" | "incoming" | "branching">,
  nodes: ReadonlyMap<string, ComponentNode>,
  root: string,
  target: string,
  shown: ReadonlySet<string>,
): (readonly number[])[] {
  if (root === target) return [EMPTY];
  const blocks = (edgeIndex: number): boolean => {
    const source = nodes.get(topology.edges[edgeIndex].source)!;
    const caps = source.def.capabilities ?? {};
    if (topology.branching.has(source.id) || caps.container || caps.response) return true;
    const written = source.def.writesVariables?.(source.params) ?? [];
    return written.some((ref) => shown.has(variableKey(ref)));
  };
  // Nodes reachable from the root, in topological order (Kahn's algorithm over that part).
  const reachable = new Set<string>([root]);
  const stack = [root];
  while (stack.length > 0) {
    for (const e of topology.outgoing.get(stack.pop()!) ?? []) {
      const next = topology.edges[e].target;
      if (!reachable.has(next)) {
        reachable.add(next);
        stack.push(next);
      }
    }
  }
  if (!reachable.has(target)) return [];
  const indegree = new Map<string, number>();
  for (const id of reachable) indegree.set(id, (topology.incoming.get(id) ?? []).filter((e) => reachable.has(topology.edges[e].source)).length);
  const sets = new Map<string, (readonly number[])[]>([[root, [EMPTY]]]);
  const queue = [root];
  let overflow = false;
  while (queue.length > 0) {
    const id = queue.shift()!;
    const mine = sets.get(id) ?? [];
    for (const e of topology.outgoing.get(id) ?? []) {
      const next = topology.edges[e].target;
      const extended = blocks(e) ? mine.map((s) => [...s, e].sort((a, b) => a - b)) : mine;
      const merged = minimalSets([...(sets.get(next) ?? []), ...extended]);
      if (merged.length > MAX_PATH_SETS) overflow = true;
      sets.set(next, merged.slice(0, MAX_PATH_SETS));
      const left = indegree.get(next)! - 1;
      indegree.set(next, left);
      if (left === 0) queue.push(next);
    }
  }
  if (overflow) {
    // Too many ways in: stream once any edge into the target was taken.
    return (topology.incoming.get(target) ?? []).map((e) => [e]);
  }
  return sets.get(target) ?? [];
}

function compareSets(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Drop duplicate sets and supersets of other sets (a superset never activates first); in a stable order. */
function minimalSets(sets: (readonly number[])[]): (readonly number[])[] {
  const unique = new Map<string, readonly number[]>();
  for (const set of sets) unique.set(set.join(","), set);
  const list = [...unique.values()].sort((a, b) => a.length - b.length || compareSets(a, b));
  const out: (readonly number[])[] = [];
  for (const set of list) {
    if (!out.some((smaller) => smaller.every((e) => set.includes(e)))) out.push(set);
  }
  return out;
}
