/**
 * The graph model of a Dify document: its normalized graph (what the Dify front end compiles),
 * read node by node. Iterations and loops hold their children; source handles become labels
 * (if-else cases as their conditions, `false` as "else", classifier classes as their names) and
 * `fail-branch` edges are dashed "on error". Nodes canvasflow cannot run are kept and marked.
 */
import type { ComponentRegistry } from "../components/registry.js";
import { unsupportedReason } from "../dify/catalog.js";
import type { DifyEdge, DifyGraph, DifyNode } from "../dify/graph.js";
import { isPlainObject } from "../util/values.js";
import type { DiagramEdge, DiagramNode, EdgeKind, GraphModel, NodeFamily } from "./graph-model.js";

const FAMILY_OF_TYPE: Readonly<Record<string, NodeFamily>> = {
  start: "entry",
  "trigger-schedule": "entry",
  "trigger-webhook": "entry",
  "trigger-plugin": "entry",
  end: "message",
  answer: "message",
  llm: "llm",
  agent: "llm",
  "parameter-extractor": "llm",
  "question-classifier": "router",
  "if-else": "router",
  "knowledge-retrieval": "retrieval",
  "knowledge-retrieval-v2": "retrieval",
  tool: "tool",
  "http-request": "tool",
  datasource: "tool",
  code: "code",
  "template-transform": "code",
  "variable-aggregator": "data",
  assigner: "data",
  "list-operator": "data",
  "document-extractor": "data",
  "knowledge-index": "data",
  iteration: "container",
  loop: "container",
  "iteration-start": "container-start",
  "loop-start": "container-start",
  "loop-end": "exit",
  "human-input": "input",
};

const CONTAINER_TYPES: ReadonlySet<string> = new Set(["iteration", "loop"]);

/** The handle Dify's error strategy `fail-branch` leaves through; `source` is a node's ordinary port. */
const FAIL_BRANCH = "fail-branch";
const ORDINARY = "source";

function titleOf(node: DifyNode): string {
  return typeof node.data.title === "string" && node.data.title.trim() !== "" ? node.data.title : node.id;
}

/** A selector as people read it: the node's title rather than its numeric id (`Start.query`, `sys.query`). */
function selectorLabel(selector: unknown, titles: ReadonlyMap<string, string>): string {
  if (!Array.isArray(selector) || selector.length === 0) return "?";
  const [head, ...rest] = selector.map(String);
  return [titles.get(head) ?? head, ...rest].join(".");
}

function conditionLabel(condition: unknown, titles: ReadonlyMap<string, string>): string {
  if (!isPlainObject(condition)) return "?";
  const variable = selectorLabel(condition.variable_selector, titles);
  const operator = typeof condition.comparison_operator === "string" ? condition.comparison_operator : "?";
  const value = condition.value;
  if (value === undefined || value === null || value === "") return `${variable} ${operator}`;
  return `${variable} ${operator} ${typeof value === "string" ? value : JSON.stringify(value)}`;
}

/** The label of each handle of an if-else (its cases' conditions) or classifier (its class names). */
function handleLabels(node: DifyNode, titles: ReadonlyMap<string, string>): Map<string, string> {
  const labels = new Map<string, string>();
  if (node.type === "if-else") {
    labels.set("false", "else");
    for (const item of Array.isArray(node.data.cases) ? node.data.cases : []) {
      if (!isPlainObject(item) || item.case_id === undefined) continue;
      const conditions = Array.isArray(item.conditions) ? item.conditions : [];
      const joiner = item.logical_operator === "or" ? " or " : " and ";
      labels.set(String(item.case_id), conditions.length > 0 ? conditions.map((c) => conditionLabel(c, titles)).join(joiner) : String(item.case_id));
    }
  }
  if (node.type === "question-classifier") {
    for (const item of Array.isArray(node.data.classes) ? node.data.classes : []) {
      if (!isPlainObject(item) || item.id === undefined) continue;
      labels.set(String(item.id), typeof item.name === "string" && item.name.trim() !== "" ? item.name : String(item.id));
    }
  }
  return labels;
}

function edgeKind(handle: string): EdgeKind {
  if (handle === FAIL_BRANCH) return "exception";
  return handle === ORDINARY ? "normal" : "handle";
}

/** One diagram edge per source, target and kind: handles that lead to the same node share it, their labels joined. */
function edgesOf(edges: readonly DifyEdge[], nodes: ReadonlyMap<string, DifyNode>, titles: ReadonlyMap<string, string>): DiagramEdge[] {
  const merged = new Map<string, { from: string; to: string; kind: EdgeKind; labels: string[] }>();
  const labelCache = new Map<string, Map<string, string>>();
  for (const edge of edges) {
    const source = nodes.get(edge.source);
    if (!source || !nodes.has(edge.target)) continue;
    const kind = edgeKind(edge.handle);
    let labels = labelCache.get(source.id);
    if (!labels) labelCache.set(source.id, (labels = handleLabels(source, titles)));
    const label = kind === "exception" ? "on error" : kind === "handle" ? (labels.get(edge.handle) ?? edge.handle) : undefined;
    const key = `${edge.source}\u0000${edge.target}\u0000${kind}`;
    const entry = merged.get(key) ?? { from: edge.source, to: edge.target, kind, labels: [] };
    if (label !== undefined && !entry.labels.includes(label)) entry.labels.push(label);
    merged.set(key, entry);
  }
  return [...merged.values()].map(({ from, to, kind, labels }) => (labels.length > 0 ? { from, to, kind, label: labels.join(" / ") } : { from, to, kind }));
}

/** The graph model of a read Dify graph; `registry` decides which nodes canvasflow can run. */
export function difyGraphModel(graph: DifyGraph, registry: ComponentRegistry): GraphModel {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const titles = new Map(graph.nodes.map((n) => [n.id, titleOf(n)]));
  const nodes: DiagramNode[] = graph.nodes.map((node) => {
    const reason = unsupportedReason(node, registry);
    return {
      id: node.id,
      name: titles.get(node.id)!,
      type: node.type,
      family: FAMILY_OF_TYPE[node.type] ?? "other",
      ...(node.parentId !== undefined && byId.has(node.parentId) ? { container: node.parentId } : {}),
      isContainer: CONTAINER_TYPES.has(node.type),
      params: node.data,
      ...(reason !== undefined ? { unsupported: reason } : {}),
    };
  });
  return { nodes, edges: edgesOf(graph.edges, byId, titles) };
}
