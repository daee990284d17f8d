/**
 * Deriving `components` from `graph.nodes` and `graph.edges`, with the rules of RAGFlow's editor
 * (`buildDslComponentsByGraph`, research/ragflow.md §1.4): Note, Tool and Placeholder nodes are
 * decoration; a sub-agent (target of an `agentTop` edge) is folded into its parent Agent's tools;
 * an Agent's `agentException` edges become its exception_goto; Categorize `items` become
 * `category_description` with `to` from the edges of each item's handle; Switch cases take their
 * targets from the "Case N" / "end_cpn_ids" edges.
 */
import { isPlainObject } from "../util/values.js";
import { HANDLE } from "../dsl/editor-graph.js";
import { stringList, unique, type LooseEdge, type LooseNode } from "./dsl-access.js";

const DECORATION = new Set(["Note", "Tool", "Placeholder"]);

interface DerivedComponent {
  entry: Record<string, unknown>;
  /** What was derived beyond copying the form, one line each (for migration notes). */
  details: string[];
  label: string;
  name?: string;
}

function label(node: LooseNode): string {
  return typeof node.data?.label === "string" ? node.data.label : "";
}

function form(node: LooseNode): Record<string, unknown> {
  const value = node.data?.form;
  return isPlainObject(value) ? structuredClone(value) : {};
}

function isSubAgent(edges: readonly LooseEdge[], id: string): boolean {
  return edges.some((e) => e.target === id && e.targetHandle === HANDLE.agentTop);
}

/** Ids downstream of a node: for an Agent, not its tools, sub-agents or exception handlers. */
function downstreamOf(node: LooseNode, edges: readonly LooseEdge[]): string[] {
  const agent = label(node) === "Agent";
  return unique(
    edges
      .filter((e) => e.source === node.id)
      .filter((e) => !agent || (e.sourceHandle !== HANDLE.agentException && !e.target.startsWith("Tool") && !(e.target.startsWith("Agent") && e.targetHandle === HANDLE.agentTop)))
      .map((e) => e.target),
  );
}

function upstreamOf(id: string, edges: readonly LooseEdge[]): string[] {
  return unique(edges.filter((e) => e.target === id).map((e) => e.source));
}

/** An Agent's params with its sub-agents (agentBottom edges) appended to `tools`, recursively. */
function agentWithSubAgents(node: LooseNode, nodes: ReadonlyMap<string, LooseNode>, edges: readonly LooseEdge[], seen: Set<string>): { params: Record<string, unknown>; subAgents: string[] } {
  const params = form(node);
  const subAgents: string[] = [];
  const tools = Array.isArray(params.tools) ? [...params.tools] : [];
  for (const edge of edges.filter((e) => e.source === node.id && e.sourceHandle === HANDLE.agentBottom)) {
    const child = nodes.get(edge.target);
    if (!child || seen.has(child.id)) continue;
    seen.add(child.id);
    const nested = agentWithSubAgents(child, nodes, edges, seen);
    subAgents.push(child.id, ...nested.subAgents);
    tools.push({ component_name: "Agent", id: child.id, name: child.data?.name ?? child.id, params: nested.params });
  }
  params.tools = tools;
  return { params, subAgents };
}

interface CategorizeItem {
  name?: unknown;
  uuid?: unknown;
  examples?: unknown;
  [key: string]: unknown;
}

/** Categorize `items` → `category_description` keyed by name, `to` from the item handle's edges. */
function categorizeParams(node: LooseNode, edges: readonly LooseEdge[]): { params: Record<string, unknown>; details: string[] } {
  const params = form(node);
  const items = Array.isArray(params.items) ? (params.items as unknown[]).filter(isPlainObject) as CategorizeItem[] : [];
  if (items.length === 0) return { params, details: [] };
  const description: Record<string, unknown> = {};
  const details: string[] = [];
  for (const item of items) {
    const name = typeof item.name === "string" ? item.name : String(item.name ?? "");
    const { name: _name, uuid, ...rest } = item;
    const examples = Array.isArray(item.examples)
      ? item.examples.map((x) => (isPlainObject(x) ? x.value : x)).filter((x): x is string => typeof x === "string")
      : [];
    const to = unique(edges.filter((e) => e.source === node.id && e.sourceHandle === uuid).map((e) => e.target));
    description[name] = { ...rest, examples, to };
    details.push(`category "${name}" → ${to.length > 0 ? to.join(", ") : "no target"}`);
  }
  const { items: _items, ...others } = params;
  return { params: { ...others, category_description: description }, details };
}

/** Switch targets from the "Case N" and "end_cpn_ids" edges (the editor's store writes them into the form too). */
function switchParams(node: LooseNode, edges: readonly LooseEdge[]): { params: Record<string, unknown>; details: string[] } {
  const params = form(node);
  const details: string[] = [];
  const outgoing = edges.filter((e) => e.source === node.id);
  const conditions = Array.isArray(params.conditions) ? params.conditions : [];
  conditions.forEach((condition, i) => {
    if (!isPlainObject(condition)) return;
    const to = unique(outgoing.filter((e) => e.sourceHandle === `Case ${i + 1}`).map((e) => e.target));
    if (to.length > 0 && JSON.stringify(to) !== JSON.stringify(stringList(condition.to))) {
      condition.to = to;
      details.push(`case ${i + 1} → ${to.join(", ")} (from its edges)`);
    }
  });
  const otherwise = unique(outgoing.filter((e) => e.sourceHandle === HANDLE.switchElse).map((e) => e.target));
  if (otherwise.length > 0 && JSON.stringify(otherwise) !== JSON.stringify(stringList(params.end_cpn_ids))) {
    params.end_cpn_ids = otherwise;
    details.push(`else → ${otherwise.join(", ")} (from its edges)`);
  }
  return { params, details };
}

/** The components a graph describes, keyed by node id, in node order. */
export function componentsFromGraph(nodes: readonly LooseNode[], edges: readonly LooseEdge[]): Map<string, DerivedComponent> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = new Map<string, DerivedComponent>();
  for (const node of nodes) {
    const name = label(node);
    if (DECORATION.has(name) || isSubAgent(edges, node.id)) continue;
    let params: Record<string, unknown>;
    const details: string[] = [];
    if (name === "Agent") {
      const built = agentWithSubAgents(node, byId, edges, new Set([node.id]));
      params = built.params;
      if (built.subAgents.length > 0) details.push(`sub-agents ${built.subAgents.join(", ")} folded into its tools`);
      const handlers = unique(edges.filter((e) => e.source === node.id && e.sourceHandle === HANDLE.agentException).map((e) => e.target));
      params.exception_goto = handlers;
      if (handlers.length > 0) details.push(`exception_goto ${handlers.join(", ")} (from its exception edges)`);
    } else if (name === "Categorize") {
      const built = categorizeParams(node, edges);
      params = built.params;
      details.push(...built.details);
    } else if (name === "Switch") {
      const built = switchParams(node, edges);
      params = built.params;
      details.push(...built.details);
    } else {
      params = form(node);
    }
    const entry: Record<string, unknown> = {
      obj: { component_name: name, params },
      downstream: downstreamOf(node, edges),
      upstream: upstreamOf(node.id, edges),
    };
    if (typeof node.parentId === "string" && node.parentId !== "") entry.parent_id = node.parentId;
    out.set(node.id, { entry, details, label: name, ...(typeof node.data?.name === "string" ? { name: node.data.name } : {}) });
  }
  return out;
}
