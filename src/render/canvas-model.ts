/**
 * The graph model of a loaded RAGFlow canvas (legacy DSLs arrive here already migrated): built
 * from the compiled graph, so diagrams show what the engine runs, not a second reading of the text.
 */
import type { RouteBranch } from "../components/types.js";
import type { ComponentNode, CanvasGraph } from "../engine/graph.js";
import type { DiagramEdge, GraphModel, DiagramNode, NodeFamily } from "./graph-model.js";

/** Families by component type; types not listed are placed by their capabilities. */
const FAMILY_OF_TYPE: Readonly<Record<string, NodeFamily>> = {
  Retrieval: "retrieval",
  UserFillUp: "input",
  Message: "message",
  VariableAggregator: "data",
  VariableAssigner: "data",
  DataOperations: "data",
  ListOperations: "data",
  StringTransform: "data",
  CodeExec: "code",
  ExeSQL: "code",
  ExitLoop: "exit",
};

function familyOf(node: ComponentNode): NodeFamily {
  const caps = node.def.capabilities ?? {};
  if (caps.entry) return "entry";
  if (caps.container) return "container";
  if (caps.containerStart) return "container-start";
  if (caps.router) return "router";
  const named = FAMILY_OF_TYPE[node.componentName];
  if (named) return named;
  if (caps.exitsContainer) return "exit";
  if (caps.asksForInput) return "input";
  if (caps.emitsMessages) return "message";
  if (caps.provider === "llm") return "llm";
  if (caps.provider === "tool" || node.def.usableAsTool) return "tool";
  return "other";
}

/** The `exception_goto` targets of a node whose `exception_method` is "goto". */
function exceptionTargets(node: ComponentNode): string[] {
  if (node.params.exception_method !== "goto" || !Array.isArray(node.params.exception_goto)) return [];
  return node.params.exception_goto.filter((id): id is string => typeof id === "string" && id !== "");
}

/** The router's branches by target: a target reached by several cases gets their labels joined. */
function branchLabels(node: ComponentNode): Map<string, string[]> {
  const byTarget = new Map<string, string[]>();
  let branches: readonly RouteBranch[];
  try {
    branches = node.def.branches?.(node.params) ?? [];
  } catch {
    branches = [];
  }
  for (const branch of branches) {
    for (const target of branch.targets) {
      const labels = byTarget.get(target) ?? [];
      if (!labels.includes(branch.label)) labels.push(branch.label);
      byTarget.set(target, labels);
    }
  }
  return byTarget;
}

function edgesOf(node: ComponentNode, exists: (id: string) => boolean): DiagramEdge[] {
  const edges: DiagramEdge[] = [];
  const covered = new Set<string>();
  for (const [target, labels] of branchLabels(node)) {
    if (!exists(target) || covered.has(target)) continue;
    covered.add(target);
    edges.push({ from: node.id, to: target, kind: "branch", label: labels.join(" / ") });
  }
  for (const target of exceptionTargets(node)) {
    if (!exists(target) || covered.has(target)) continue;
    covered.add(target);
    edges.push({ from: node.id, to: target, kind: "exception", label: "on error" });
  }
  for (const target of node.downstream) {
    if (covered.has(target)) continue;
    covered.add(target);
    edges.push({ from: node.id, to: target, kind: "normal" });
  }
  return edges;
}

export function graphModelOf(graph: CanvasGraph): GraphModel {
  const nodes: DiagramNode[] = [];
  const edges: DiagramEdge[] = [];
  const exists = (id: string) => graph.nodes.has(id);
  for (const node of graph.nodes.values()) {
    nodes.push({
      id: node.id,
      name: node.displayName,
      type: node.componentName,
      family: familyOf(node),
      ...(node.parentId !== undefined && exists(node.parentId) ? { container: node.parentId } : {}),
      isContainer: node.def.capabilities?.container !== undefined,
      params: node.params,
    });
    edges.push(...edgesOf(node, exists));
  }
  return { nodes, edges };
}
