/**
 * Validating a Dify document: the graph's shape (graph.ts), then every node's data by its
 * component's own checks, with JSON pointers into the document as written. Nodes canvasflow
 * cannot run are listed (a warning each): the graph loads, and running such a node fails.
 */
import type { Registry } from "../contracts/graph.js";
import type { CheckInfo, ComponentDefinition } from "../components/types.js";
import type { DslSource } from "../dsl/source.js";
import type { ValidationIssue, ValidationReport } from "../dsl/validate.js";
import { COMPONENT_OF_TYPE, componentFor } from "./catalog.js";
import { readDifyGraph, type DifyGraph, type DifyNode } from "./graph.js";

function issueFor(node: DifyNode, severity: ValidationIssue["severity"], code: string, pointer: string, message: string): ValidationIssue {
  const title = typeof node.data.title === "string" && node.data.title !== "" ? node.data.title : undefined;
  return { severity, code, pointer, message, componentId: node.id, componentType: node.type, ...(title ? { componentName: title } : {}) };
}

function checkInfo(node: DifyNode, graph: DifyGraph, byId: ReadonlyMap<string, DifyNode>, registry: Registry): CheckInfo {
  return {
    id: node.id,
    parentId: node.parentId,
    get downstream() {
      return graph.edges.filter((e) => e.source === node.id).map((e) => e.target);
    },
    hasComponent: (id) => byId.has(id),
    componentName: (id) => (byId.has(id) ? COMPONENT_OF_TYPE[byId.get(id)!.type] : undefined),
    parentOf: (id) => byId.get(id)?.parentId,
    componentType: (name) => registry.get(name),
  };
}

/** Each node's data checked by its component. */
function nodeIssues(graph: DifyGraph, registry: Registry): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const node of graph.nodes) {
    const component = componentFor(node, registry);
    if (component.reason) {
      issues.push(issueFor(node, "warning", "node.unsupported", `${node.pointer}/data/type`, `canvasflow cannot run this node: ${component.reason}; the graph loads, and the run fails if it reaches it`));
      continue;
    }
    const def: ComponentDefinition | undefined = registry.get(component.name);
    if (!def) continue;
    let problems;
    try {
      problems = def.check?.(node.data, checkInfo(node, graph, byId, registry)) ?? [];
    } catch (error) {
      problems = [{ pointer: "", message: `its data could not be checked: ${(error as Error).message}` }];
    }
    for (const problem of problems) {
      issues.push(issueFor(node, problem.severity ?? "error", "node.invalid_data", `${node.pointer}/data${problem.pointer}`, problem.message));
    }
  }
  for (const node of graph.nodes) {
    const parent = node.parentId === undefined ? undefined : byId.get(node.parentId);
    if (node.parentId !== undefined && !(parent && (parent.type === "iteration" || parent.type === "loop"))) {
      issues.push(issueFor(node, "error", "graph.invalid_parent", node.pointer, `its container ${node.parentId} is not an iteration or loop of the graph`));
    }
  }
  const types = new Set(graph.nodes.map((n) => n.type));
  if (graph.mode === "workflow" && types.has("answer")) issues.push({ severity: "warning", code: "graph.mode", pointer: "/app/mode", message: "a workflow app has Answer nodes, which only chatflows (advanced-chat) show" });
  if (graph.mode === "advanced-chat" && types.has("end")) issues.push({ severity: "warning", code: "graph.mode", pointer: "/app/mode", message: "a chatflow has End nodes, which only workflow apps use" });
  return issues;
}

export function validateDifyDocument(source: DslSource, registry: Registry): ValidationReport {
  const graph = readDifyGraph(source.dsl as Record<string, unknown>);
  const issues = [...graph.issues, ...nodeIssues(graph, registry)];
  return {
    ...(source.file ? { file: source.file } : {}),
    kind: "dify",
    appMode: graph.mode,
    valid: !issues.some((i) => i.severity === "error"),
    issues,
    ...(graph.notes.length > 0 ? { notes: [...graph.notes] } : {}),
  };
}
