/**
 * The editor graph (`graph.nodes`, `graph.edges`) of a built canvas, so RAGFlow's editor, which
 * rebuilds `components` from it on every save, shows what runs: one node per component in the
 * order added, 300 px apart on one row; one edge per downstream link, from the handle the editor
 * uses (a Switch's "Case N" or end_cpn_ids, else "start").
 */
import type { GraphEdge, GraphNode } from "../contracts/dsl.js";
import { editorEdgeId, editorNodeType, HANDLE, switchCaseHandle } from "../dsl/editor-graph.js";
import { isPlainObject } from "../util/values.js";

export interface LaidOutComponent {
  readonly id: string;
  readonly component: string;
  readonly name: string;
  readonly params: Record<string, unknown>;
  readonly downstream: readonly string[];
  readonly parentId?: string;
}

const STEP_X = 300;

const idList = (value: unknown): string[] => (typeof value === "string" && value ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** The source handles an edge from `component` to `target` leaves from. */
function sourceHandles(component: LaidOutComponent, target: string): string[] {
  if (component.component !== "Switch") return [HANDLE.start];
  const conditions = Array.isArray(component.params.conditions) ? component.params.conditions : [];
  const handles = conditions.flatMap((c, index) => (isPlainObject(c) && idList(c.to).includes(target) ? [switchCaseHandle(index)] : []));
  if (idList(component.params.end_cpn_ids).includes(target)) handles.push(HANDLE.switchElse);
  return handles.length > 0 ? handles : [HANDLE.start];
}

export function editorGraph(components: readonly LaidOutComponent[]): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes = components.map((c, index): GraphNode => {
    const node: GraphNode = {
      id: c.id,
      type: editorNodeType(c.component),
      data: { label: c.component, name: c.name, form: structuredClone(c.params) },
      position: { x: index * STEP_X, y: 0 },
    };
    if (c.parentId) node.parentId = c.parentId;
    return node;
  });
  const edges = components.flatMap((c) =>
    c.downstream.flatMap((target) =>
      sourceHandles(c, target).map((sourceHandle): GraphEdge => ({ id: editorEdgeId(c.id, sourceHandle, target), source: c.id, sourceHandle, target, targetHandle: HANDLE.end })),
    ),
  );
  return { nodes, edges };
}
