/**
 * The neutral graph model diagrams are drawn from: nodes and labelled edges, with no knowledge of
 * where they came from. RAGFlow canvases come in through `canvasGraphModel`; another front end
 * (Dify YAML) needs only an adapter that produces the same shape.
 */

/** How a node is drawn: its colour and glyph come from its family. */
export type NodeFamily =
  | "entry"
  | "router"
  | "container"
  | "container-start"
  | "llm"
  | "retrieval"
  | "tool"
  | "input"
  | "message"
  | "data"
  | "code"
  | "exit"
  | "other";

export interface DiagramNode {
  readonly id: string;
  /** The name people gave it (falls back to the id). */
  readonly name: string;
  /** The component type (RAGFlow `component_name`, Dify node type). */
  readonly type: string;
  readonly family: NodeFamily;
  /** The id of the container (Iteration, Loop) the node sits in, if any. */
  readonly container?: string;
  /** True for nodes that hold others. */
  readonly isContainer: boolean;
  /** The node's params as loaded (shown on click in the HTML views). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Why canvasflow cannot run this node (a Dify plugin or node type it lacks); drawn marked. */
  readonly unsupported?: string;
}

/**
 * - normal: the node continues with the target;
 * - branch: a router continues with the target when the labelled case or category holds;
 * - exception: the target handles the source's errors (RAGFlow `exception_goto`), drawn dashed;
 * - handle: a Dify edge leaving through a named source handle (an if-else case, a classifier class).
 */
export type EdgeKind = "normal" | "branch" | "exception" | "handle";

export interface DiagramEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  readonly label?: string;
}

export interface GraphModel {
  readonly nodes: readonly DiagramNode[];
  readonly edges: readonly DiagramEdge[];
}

/** The direct children of each container, and the top-level nodes under the key "". */
export function nodesByContainer(model: GraphModel): Map<string, DiagramNode[]> {
  const ids = new Set(model.nodes.map((n) => n.id));
  const out = new Map<string, DiagramNode[]>();
  for (const node of model.nodes) {
    // A container id that names no node would hide the node: it is drawn at the top level.
    const key = node.container !== undefined && ids.has(node.container) ? node.container : "";
    const list = out.get(key) ?? [];
    list.push(node);
    out.set(key, list);
  }
  return out;
}

/** Checks the model's invariants (unique ids, edges between known nodes); throws naming the first problem. */
export function checkGraphModel(model: GraphModel): void {
  const ids = new Set<string>();
  for (const node of model.nodes) {
    if (ids.has(node.id)) throw new Error(`graph model: node id "${node.id}" appears twice`);
    ids.add(node.id);
  }
  for (const edge of model.edges) {
    if (!ids.has(edge.from)) throw new Error(`graph model: an edge leaves "${edge.from}", which is not a node`);
    if (!ids.has(edge.to)) throw new Error(`graph model: an edge enters "${edge.to}", which is not a node`);
  }
}
