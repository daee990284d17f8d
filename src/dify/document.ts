/**
 * The three shapes a Dify document comes in, and where its graph is:
 * - an app export: `{app, kind: app, version, workflow: {graph, conversation_variables, …}}`;
 * - graphon's minimal format: `{kind: graph, graph}` (or a top-level `graph` of Dify nodes);
 * - a bare graph: `{nodes, edges}`.
 * A snapshot of a Dify canvas (canvas.toJSON()) is the document plus canvasflow's keys.
 */
import { isPlainObject } from "../util/values.js";

/** Every node type Dify's editor knows (BlockEnum), plus what older and newer builds add. */
export const DIFY_NODE_TYPES: ReadonlySet<string> = new Set([
  "start",
  "end",
  "answer",
  "llm",
  "knowledge-retrieval",
  "knowledge-retrieval-v2",
  "question-classifier",
  "if-else",
  "code",
  "template-transform",
  "http-request",
  "variable-assigner",
  "variable-aggregator",
  "tool",
  "parameter-extractor",
  "iteration",
  "iteration-start",
  "document-extractor",
  "list-operator",
  "assigner",
  "agent",
  "loop",
  "loop-start",
  "loop-end",
  "datasource",
  "datasource-empty",
  "knowledge-index",
  "trigger-schedule",
  "trigger-webhook",
  "trigger-plugin",
  "human-input",
]);

export type DocumentShape = "app" | "graph" | "bare";

/** Where a Dify document keeps its parts. */
export interface DifyLayout {
  shape: DocumentShape;
  /** JSON pointer of the object holding `nodes` and `edges` ("" for a bare graph). */
  graphPointer: string;
  graph: Record<string, unknown>;
  /** The `workflow` object of an app export. */
  workflow: Record<string, unknown> | undefined;
}

function hasDifyNodes(nodes: unknown): boolean {
  if (!Array.isArray(nodes)) return false;
  return nodes.some((node) => isPlainObject(node) && isPlainObject(node.data) && typeof node.data.type === "string" && DIFY_NODE_TYPES.has(node.data.type));
}

/** True for a Dify document of any shape (RAGFlow canvases, with `components`, never are). */
export function isDifyDocument(document: Record<string, unknown>): boolean {
  if ("components" in document) return false;
  if (document.kind === "app" && isPlainObject(document.workflow)) return true;
  if (document.kind === "graph") return true;
  if (isPlainObject(document.workflow) && isPlainObject(document.workflow.graph)) return true;
  if (isPlainObject(document.graph) && hasDifyNodes(document.graph.nodes)) return true;
  return hasDifyNodes(document.nodes) && Array.isArray(document.edges);
}

/** Where the graph is; undefined when the document has none (the validator says so). */
export function layoutOf(document: Record<string, unknown>): DifyLayout | undefined {
  if (isPlainObject(document.workflow)) {
    const graph = document.workflow.graph;
    return isPlainObject(graph) ? { shape: "app", graphPointer: "/workflow/graph", graph, workflow: document.workflow } : undefined;
  }
  if (isPlainObject(document.graph)) return { shape: "graph", graphPointer: "/graph", graph: document.graph, workflow: undefined };
  if (Array.isArray(document.nodes)) return { shape: "bare", graphPointer: "", graph: document, workflow: undefined };
  return undefined;
}

/** The app's mode: `advanced-chat` (a chatflow), `workflow`, or what the graph implies when no app says. */
export function appMode(document: Record<string, unknown>, nodes: readonly Record<string, unknown>[]): string {
  const mode = isPlainObject(document.app) ? document.app.mode : undefined;
  if (typeof mode === "string" && mode !== "") return mode;
  // graphon's kind: graph and bare graphs: Answer nodes make a chatflow, End nodes a workflow.
  const types = new Set(nodes.map((n) => (isPlainObject(n.data) ? n.data.type : undefined)));
  return types.has("answer") && !types.has("end") ? "advanced-chat" : "workflow";
}

/** A path that names a YAML file (`.yml`, `.yaml`): Dify's export format. */
export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}
