/**
 * A layered layout for graphs too large for elkjs, whose layered algorithm recurses along long
 * paths (a chain of 10 000 overflows its stack) and grows fast with size (3 000 nodes: about 9 s).
 * Every step here is a loop over arrays, linear in nodes and edges but for one sort per layer:
 *
 * 1. Each container's direct children are laid out on their own, deepest containers first, so a
 *    container's size is known when its own level is laid out.
 * 2. On a level, edges are lifted to the level's nodes (an edge into a container counts as one
 *    into the container), back edges found by a depth-first search with an explicit stack are
 *    reversed, and each node's layer is its longest path from a source (Kahn's order).
 * 3. Within a layer nodes are ordered by the mean position of their predecessors (one barycentre
 *    sweep), then stacked; layers follow each other along the flow.
 * 4. Edges are drawn as three orthogonal segments between the boxes' facing sides.
 *
 * It draws less carefully than ELK (no crossing minimisation beyond the sweep, no edge routing
 * around boxes), which is the trade for drawing any size.
 */
import type { DiagramNode, GraphModel } from "./graph-model.js";
import type { Box, Layout, LayoutOptions, PlacedEdge, PlacedNode, Point } from "./layout-types.js";

/** The sizes the caller measures: a leaf node's box and an edge's label. */
export interface LayeredSizes {
  leaf(node: DiagramNode): { width: number; height: number };
  /** A container's smallest box (its title), before its children are placed in it. */
  containerMinimum(node: DiagramNode): { width: number; height: number };
  label(edge: GraphModel["edges"][number]): { text: string; width: number; height: number } | undefined;
}

const LAYER_GAP = 56;
const NODE_GAP = 28;
const PAD = 24;
/** Room around a container's children: its title above, a margin elsewhere. */
const CONTAINER_PAD = { top: 44, left: 16, bottom: 16, right: 16 };

interface Size {
  width: number;
  height: number;
}

export function layeredLayout(model: GraphModel, sizes: LayeredSizes, options: LayoutOptions = {}): Layout {
  const down = options.direction === "DOWN";
  const nodes = model.nodes;
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  const { parent, depth } = containment(nodes, index);
  const children = new Map<number, number[]>();
  for (let i = 0; i < nodes.length; i++) {
    const list = children.get(parent[i]) ?? [];
    list.push(i);
    children.set(parent[i], list);
  }
  const edges = model.edges.filter((e) => index.has(e.from) && index.has(e.to));

  // Sizes and positions relative to the level's origin.
  const size: Size[] = nodes.map((node) => (node.isContainer ? { ...sizes.containerMinimum(node) } : sizes.leaf(node)));
  const relative: Point[] = nodes.map(() => ({ x: 0, y: 0 }));
  // Deepest levels first; the top level (-1) last.
  const levels = [...children.keys()].sort((a, b) => (b === -1 ? -1 : a === -1 ? 1 : depth[b] - depth[a]));
  const liftedEdges = liftEdges(edges, index, parent, depth, levels);
  let extent: Size = { width: 0, height: 0 };
  for (const level of levels) {
    const members = children.get(level)!;
    const placed = layOutLevel(members, liftedEdges.get(level) ?? [], size, down);
    for (const [i, point] of placed.positions) relative[i] = point;
    if (level === -1) extent = placed.extent;
    else {
      const minimum = size[level];
      size[level] = {
        width: Math.max(minimum.width, placed.extent.width + CONTAINER_PAD.left + CONTAINER_PAD.right),
        height: Math.max(minimum.height, placed.extent.height + CONTAINER_PAD.top + CONTAINER_PAD.bottom),
      };
    }
  }

  // Absolute positions, parents before children (shallowest first).
  const absolute: Point[] = nodes.map(() => ({ x: 0, y: 0 }));
  const order = nodes.map((_, i) => i).sort((a, b) => depth[a] - depth[b]);
  for (const i of order) {
    const p = parent[i];
    absolute[i] = p === -1 ? { x: PAD + relative[i].x, y: PAD + relative[i].y } : { x: absolute[p].x + CONTAINER_PAD.left + relative[i].x, y: absolute[p].y + CONTAINER_PAD.top + relative[i].y };
  }
  const placedNodes: PlacedNode[] = order.map((i) => ({ node: nodes[i], ...absolute[i], ...size[i] }));
  const placedEdges: PlacedEdge[] = edges.map((edge) => {
    const from = index.get(edge.from)!;
    const to = index.get(edge.to)!;
    const points = route({ ...absolute[from], ...size[from] }, { ...absolute[to], ...size[to] }, down);
    const label = sizes.label(edge);
    if (!label) return { edge, points };
    const middle = midpoint(points);
    return { edge, points, label: { text: label.text, x: middle.x - label.width / 2, y: middle.y - label.height / 2, width: label.width, height: label.height } };
  });
  return { width: extent.width + 2 * PAD, height: extent.height + 2 * PAD, nodes: placedNodes, edges: placedEdges };
}

/**
 * Each node's container index (-1: the top level) and depth (0 at the top). A container id that
 * names no node puts the node at the top; so does a loop of containers, for the node where the
 * walk met it. Walks up with memoised depths: linear however deep the nesting.
 */
function containment(nodes: readonly DiagramNode[], index: Map<string, number>): { parent: number[]; depth: number[] } {
  const parent = nodes.map((node) => (node.container !== undefined ? (index.get(node.container) ?? -1) : -1));
  const depth = new Array<number>(nodes.length).fill(-1);
  const onChain = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    while (depth[i] === -1) {
      const chain: number[] = [];
      let at = i;
      while (at !== -1 && depth[at] === -1 && onChain[at] === 0) {
        onChain[at] = 1;
        chain.push(at);
        at = parent[at];
      }
      for (const c of chain) onChain[c] = 0;
      if (at !== -1 && depth[at] === -1) {
        // A loop: the node where the walk met it goes to the top level, and the walk starts again.
        parent[at] = -1;
        continue;
      }
      let d = at === -1 ? -1 : depth[at];
      for (let k = chain.length - 1; k >= 0; k--) depth[chain[k]] = ++d;
    }
  }
  return { parent, depth };
}

/** Each level's edges between its own members: an edge's ends lifted to their ancestors on the deepest level holding both. */
function liftEdges(edges: GraphModel["edges"], index: Map<string, number>, parent: readonly number[], depth: readonly number[], levels: readonly number[]): Map<number, [number, number][]> {
  const known = new Set(levels);
  const out = new Map<number, [number, number][]>();
  for (const edge of edges) {
    let a = index.get(edge.from)!;
    let b = index.get(edge.to)!;
    while (depth[a] > depth[b]) a = parent[a];
    while (depth[b] > depth[a]) b = parent[b];
    while (parent[a] !== parent[b]) {
      a = parent[a];
      b = parent[b];
    }
    if (a === b || !known.has(parent[a])) continue;
    const list = out.get(parent[a]) ?? [];
    list.push([a, b]);
    out.set(parent[a], list);
  }
  return out;
}

function layOutLevel(members: readonly number[], edges: readonly [number, number][], size: readonly Size[], down: boolean): { positions: Map<number, Point>; extent: Size } {
  const local = new Map(members.map((node, i) => [node, i]));
  const n = members.length;
  const successors: number[][] = members.map(() => []);
  for (const [a, b] of edges) successors[local.get(a)!].push(local.get(b)!);
  const acyclic = withoutBackEdges(successors);
  const layer = longestPathLayers(acyclic);
  const predecessors: number[][] = members.map(() => []);
  for (let a = 0; a < n; a++) for (const b of acyclic[a]) predecessors[b].push(a);

  const layers: number[][] = [];
  for (let i = 0; i < n; i++) (layers[layer[i]] ??= []).push(i);
  // One barycentre sweep: a node sits near the mean rank of its predecessors.
  const rank = new Array<number>(n).fill(0);
  for (const nodesOfLayer of layers) {
    if (!nodesOfLayer) continue;
    const key = new Map(nodesOfLayer.map((i, k) => [i, predecessors[i].length ? predecessors[i].reduce((sum, p) => sum + rank[p], 0) / predecessors[i].length : k]));
    nodesOfLayer.sort((a, b) => key.get(a)! - key.get(b)! || a - b);
    nodesOfLayer.forEach((i, k) => (rank[i] = k));
  }

  const main = (s: Size) => (down ? s.height : s.width);
  const cross = (s: Size) => (down ? s.width : s.height);
  const positions = new Map<number, Point>();
  let along = 0;
  let widest = 0;
  for (const nodesOfLayer of layers) {
    if (!nodesOfLayer) continue;
    let across = 0;
    let thickness = 0;
    for (const i of nodesOfLayer) {
      const s = size[members[i]];
      positions.set(members[i], down ? { x: across, y: along } : { x: along, y: across });
      across += cross(s) + NODE_GAP;
      thickness = Math.max(thickness, main(s));
    }
    widest = Math.max(widest, across - NODE_GAP);
    along += thickness + LAYER_GAP;
  }
  along = Math.max(0, along - LAYER_GAP);
  return { positions, extent: down ? { width: widest, height: along } : { width: along, height: widest } };
}

/** The graph with the edges that close a cycle (found by an iterative depth-first search) reversed, and self-loops dropped. */
function withoutBackEdges(successors: readonly number[][]): number[][] {
  const n = successors.length;
  const state = new Uint8Array(n); // 0 unseen, 1 on the stack, 2 done
  const out: number[][] = successors.map(() => []);
  for (let start = 0; start < n; start++) {
    if (state[start] !== 0) continue;
    const stack: [number, number][] = [[start, 0]];
    state[start] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [node, next] = top;
      if (next >= successors[node].length) {
        state[node] = 2;
        stack.pop();
        continue;
      }
      top[1]++;
      const target = successors[node][next];
      if (target === node) continue;
      if (state[target] === 1) out[target].push(node);
      else {
        out[node].push(target);
        if (state[target] === 0) {
          state[target] = 1;
          stack.push([target, 0]);
        }
      }
    }
  }
  return out;
}

/** Each node's layer: the length of the longest path reaching it (Kahn's order over an acyclic graph). */
function longestPathLayers(successors: readonly number[][]): number[] {
  const n = successors.length;
  const incoming = new Array<number>(n).fill(0);
  for (const list of successors) for (const b of list) incoming[b]++;
  const layer = new Array<number>(n).fill(0);
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (incoming[i] === 0) queue.push(i);
  for (let head = 0; head < queue.length; head++) {
    const a = queue[head];
    for (const b of successors[a]) {
      layer[b] = Math.max(layer[b], layer[a] + 1);
      if (--incoming[b] === 0) queue.push(b);
    }
  }
  return layer;
}

/** Out of the source's far side, into the target's near side, bending halfway. */
function route(from: Box, to: Box, down: boolean): Point[] {
  if (down) {
    const start = { x: from.x + from.width / 2, y: from.y + from.height };
    const end = { x: to.x + to.width / 2, y: to.y };
    const middle = (start.y + end.y) / 2;
    return [start, { x: start.x, y: middle }, { x: end.x, y: middle }, end];
  }
  const start = { x: from.x + from.width, y: from.y + from.height / 2 };
  const end = { x: to.x, y: to.y + to.height / 2 };
  const middle = (start.x + end.x) / 2;
  return [start, { x: middle, y: start.y }, { x: middle, y: end.y }, end];
}

function midpoint(points: readonly Point[]): Point {
  const a = points[1];
  const b = points[2];
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}
