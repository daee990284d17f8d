/**
 * The editor graph for converted components, so RAGFlow's editor (which rebuilds `components`
 * from the graph on every save) shows what runs. Nodes keep their old position and display name
 * where the component survived; new components are placed beside the component before them.
 * Edges follow the editor's handles: Categorize items by uuid, Switch cases by "Case N".
 */
import { createHash } from "node:crypto";
import { isPlainObject } from "../util/values.js";
import { stringList, type LooseEdge, type LooseNode } from "./dsl-access.js";
import { editorEdgeId, editorNodeType, HANDLE, switchCaseHandle } from "../dsl/editor-graph.js";


export interface GraphComponent {
  name: string;
  params: Record<string, unknown>;
  downstream: string[];
  parent_id?: string;
  displayName?: string;
}

/** A stable uuid-shaped id, so migrating the same file twice gives the same graph. */
function stableUuid(...parts: string[]): string {
  const hex = createHash("sha1").update(parts.join("\u0000")).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function edge(source: string, sourceHandle: string, target: string): LooseEdge {
  return { id: editorEdgeId(source, sourceHandle, target), source, sourceHandle, target, targetHandle: HANDLE.end, type: "buttonEdge", markerEnd: "logo" };
}

/** The node's form: the params, with Categorize's categories as the editor's `items`. */
function formOf(id: string, component: GraphComponent): Record<string, unknown> {
  const form = structuredClone(component.params);
  if (component.name === "Categorize" && isPlainObject(form.category_description)) {
    form.items = Object.entries(form.category_description).map(([name, category]) => {
      const c = isPlainObject(category) ? category : {};
      const examples = Array.isArray(c.examples) ? c.examples.map((value) => ({ value })) : [];
      return { ...c, name, examples, uuid: stableUuid(id, name) };
    });
  }
  return form;
}

function edgesOf(id: string, component: GraphComponent): LooseEdge[] {
  const params = component.params;
  if (component.name === "Categorize" && isPlainObject(params.category_description)) {
    return Object.entries(params.category_description).flatMap(([name, category]) =>
      isPlainObject(category) ? stringList(category.to).map((target) => edge(id, stableUuid(id, name), target)) : [],
    );
  }
  if (component.name === "Switch") {
    const conditions = Array.isArray(params.conditions) ? params.conditions : [];
    return [
      ...conditions.flatMap((c, i) => (isPlainObject(c) ? stringList(c.to).map((target) => edge(id, switchCaseHandle(i), target)) : [])),
      ...stringList(params.end_cpn_ids).map((target) => edge(id, HANDLE.switchElse, target)),
    ];
  }
  return component.downstream.map((target) => edge(id, HANDLE.start, target));
}

/** Nodes and edges for `components`, reusing `oldNodes` (by id) for positions and other editor state. */
export function graphFromComponents(components: ReadonlyMap<string, GraphComponent>, oldNodes: readonly LooseNode[]): { nodes: LooseNode[]; edges: LooseEdge[] } {
  const old = new Map(oldNodes.map((n) => [n.id, n]));
  const positions = new Map<string, { x: number; y: number }>();
  const placed = new Map<string, number>();
  const nodes: LooseNode[] = [];
  const predecessor = (id: string) => [...components.entries()].find(([, c]) => c.downstream.includes(id))?.[0];

  const positionOf = (id: string, depth = 0): { x: number; y: number } => {
    const known = positions.get(id) ?? old.get(id)?.position;
    if (known && typeof known.x === "number" && typeof known.y === "number") return known;
    const before = depth < 50 ? predecessor(id) : undefined;
    const base = before ? positionOf(before, depth + 1) : { x: 0, y: 0 };
    // Beside the component before it; several new ones after the same component are stacked.
    const stacked = placed.get(before ?? "") ?? 0;
    placed.set(before ?? "", stacked + 1);
    const position = { x: base.x + 320, y: base.y + 140 * stacked };
    positions.set(id, position);
    return position;
  };

  for (const [id, component] of components) {
    const previous = old.get(id);
    const data = {
      ...(isPlainObject(previous?.data) ? previous.data : {}),
      label: component.name,
      name: component.displayName ?? previous?.data?.name ?? id,
      form: formOf(id, component),
    };
    const node: LooseNode = {
      ...(previous ?? {}),
      id,
      type: editorNodeType(component.name),
      position: positionOf(id),
      data,
    };
    if (component.parent_id) node.parentId = component.parent_id;
    else delete node.parentId;
    nodes.push(node);
  }
  const edges = [...components.entries()].flatMap(([id, component]) => edgesOf(id, component));
  return { nodes, edges };
}
