/**
 * Node positions and edge routes of a graph model, computed by elkjs (the Eclipse Layout Kernel,
 * layered algorithm) in plain JavaScript, so no browser is needed. Containers are compound nodes
 * laid out with their children; every coordinate returned is absolute.
 */
import type { ElkExtendedEdge, ElkLabel, ElkNode } from "elkjs/lib/elk-api.js";
import { nodesByContainer, type DiagramEdge, type GraphModel, type DiagramNode } from "./graph-model.js";
import { layeredLayout, type LayeredSizes } from "./layered-layout.js";
import { clip, textWidth } from "./text-size.js";
import { importPackage } from "../util/optional-package.js";

export const NODE_HEIGHT = 48;
export const NAME_FONT = 13;
export const DETAIL_FONT = 11;
export const LABEL_FONT = 11;
/** Characters kept of names, details and edge labels drawn in boxes. */
export const NAME_CHARS = 34;
export const DETAIL_CHARS = 44;
export const LABEL_CHARS = 40;
/** Room above a container's children for its title. */
const CONTAINER_TITLE = 44;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface PlacedNode extends Box {
  readonly node: DiagramNode;
}

export interface PlacedEdge {
  readonly edge: DiagramEdge;
  readonly points: Point[];
  /** Where the label's box sits, when the edge has a label. */
  readonly label?: Box & { text: string };
}

export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly nodes: PlacedNode[];
  readonly edges: PlacedEdge[];
}

/** The two lines of a node: its name, then its id and type (marked when canvasflow cannot run it). */
export function nodeLines(node: DiagramNode): { name: string; detail: string } {
  const plain = node.name === node.id ? node.type : `${node.id} · ${node.type}`;
  // The mark leads, so clipping a long id never hides it.
  const detail = node.unsupported !== undefined ? `⚠ not supported · ${plain}` : plain;
  return { name: clip(node.name, NAME_CHARS), detail: clip(detail, DETAIL_CHARS) };
}

function nodeWidth(node: DiagramNode): number {
  const { name, detail } = nodeLines(node);
  // 30 px for the glyph, 24 px of padding.
  return Math.max(140, 54 + Math.max(textWidth(name, NAME_FONT) * 1.08, textWidth(detail, DETAIL_FONT)));
}

function edgeLabel(edge: DiagramEdge): ElkLabel[] {
  if (!edge.label) return [];
  const text = clip(edge.label, LABEL_CHARS);
  return [{ id: "", text, width: textWidth(text, LABEL_FONT) + 10, height: LABEL_FONT + 8 }];
}

/** elkjs, loaded by the first layout: it is a large bundle that running a canvas never needs. */
async function elk() {
  // A CommonJS module: its exports are the constructor, which also sits on `.default`.
  type Elk = (typeof import("elkjs/lib/elk.bundled.js"))["default"];
  const bundle = await importPackage<{ default: Elk & { default?: Elk } }>("elkjs/lib/elk.bundled.js", "Graph layout (canvasflow graph, canvasflow/render's SVG and HTML)");
  return bundle.default.default ?? bundle.default;
}

const ROOT_OPTIONS = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.hierarchyHandling": "INCLUDE_CHILDREN",
  "elk.json.shapeCoords": "ROOT",
  "elk.json.edgeCoords": "ROOT",
  "elk.layered.spacing.nodeNodeBetweenLayers": "56",
  "elk.spacing.nodeNode": "28",
  "elk.spacing.edgeLabel": "4",
  "elk.edgeLabels.placement": "CENTER",
  "elk.padding": "[top=24,left=24,bottom=24,right=24]",
};

export interface LayoutOptions {
  /** Where the flow goes: RIGHT (default; wide pages, files) or DOWN (a tall pane, as the playground's). */
  readonly direction?: "RIGHT" | "DOWN";
}

/**
 * The most nodes laid out by ELK; larger graphs take the iterative layered layout
 * (layered-layout.ts). ELK's layered algorithm recurses along long paths (a chain of 10 000
 * overflows the stack) and takes seconds at a few thousand nodes.
 */
export const ELK_MAX_NODES = 500;

const LAYERED_SIZES: LayeredSizes = {
  leaf: (node) => ({ width: nodeWidth(node), height: NODE_HEIGHT }),
  containerMinimum: (node) => ({ width: nodeWidth(node), height: NODE_HEIGHT + CONTAINER_TITLE }),
  label: (edge) => edgeLabel(edge)[0] as { text: string; width: number; height: number } | undefined,
};

export async function layoutGraph(model: GraphModel, options: LayoutOptions = {}): Promise<Layout> {
  if (model.nodes.length > ELK_MAX_NODES) return layeredLayout(model, LAYERED_SIZES, options);
  const children = nodesByContainer(model);
  const byId = new Map(model.nodes.map((n) => [n.id, n]));
  // ELK ids must be unique strings; DSL ids are, but keeping our own avoids any clash with label ids.
  const elkId = new Map(model.nodes.map((n, i) => [n.id, `n${i}`]));
  const toElk = (node: DiagramNode): ElkNode => {
    const inner = children.get(node.id);
    if (node.isContainer || inner) {
      const titleWidth = nodeWidth(node);
      return {
        id: elkId.get(node.id)!,
        children: (inner ?? []).map(toElk),
        layoutOptions: {
          "elk.padding": `[top=${CONTAINER_TITLE},left=16,bottom=16,right=16]`,
          "elk.nodeSize.constraints": "MINIMUM_SIZE",
          "elk.nodeSize.minimum": `(${titleWidth}, ${NODE_HEIGHT + CONTAINER_TITLE})`,
        },
      };
    }
    return { id: elkId.get(node.id)!, width: nodeWidth(node), height: NODE_HEIGHT };
  };
  const placedEdges = model.edges.filter((e) => byId.has(e.from) && byId.has(e.to));
  const edges: ElkExtendedEdge[] = placedEdges.map((edge, i) => ({
    id: `e${i}`,
    sources: [elkId.get(edge.from)!],
    targets: [elkId.get(edge.to)!],
    labels: edgeLabel(edge).map((label) => ({ ...label, id: `e${i}l` })),
  }));
  const root: ElkNode = { id: "root", layoutOptions: { ...ROOT_OPTIONS, "elk.direction": options.direction ?? "RIGHT" }, children: (children.get("") ?? []).map(toElk), edges };
  const ELK = await elk();
  const out = await new ELK().layout(root);

  const nodes: PlacedNode[] = [];
  const fromElk = new Map([...elkId].map(([id, e]) => [e, id]));
  const walk = (list: readonly ElkNode[] | undefined): void => {
    for (const n of list ?? []) {
      nodes.push({ node: byId.get(fromElk.get(n.id)!)!, x: n.x ?? 0, y: n.y ?? 0, width: n.width ?? 0, height: n.height ?? 0 });
      walk(n.children);
    }
  };
  walk(out.children);

  const laidEdges: PlacedEdge[] = [];
  const collectEdges = (n: ElkNode): void => {
    for (const e of (n.edges ?? []) as ElkExtendedEdge[]) {
      const index = Number(e.id.slice(1));
      const points: Point[] = [];
      for (const s of e.sections ?? []) points.push(s.startPoint, ...(s.bendPoints ?? []), s.endPoint);
      const l = e.labels?.[0];
      laidEdges.push({
        edge: placedEdges[index],
        points,
        ...(l?.text ? { label: { text: l.text, x: l.x ?? 0, y: l.y ?? 0, width: l.width ?? 0, height: l.height ?? 0 } } : {}),
      });
    }
    for (const c of n.children ?? []) collectEdges(c);
  };
  collectEdges(out);
  return { width: out.width ?? 0, height: out.height ?? 0, nodes, edges: laidEdges };
}
