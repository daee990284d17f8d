/**
 * Defensive access to DSLs of any age: migrations read files that may be malformed, so every
 * accessor tolerates missing or mistyped parts instead of throwing.
 */
import { isPlainObject } from "../util/values.js";
import type { LooseDsl } from "./types.js";
import type { GraphEdge } from "../dsl/types.js";

/** A component entry as old and new DSLs store it. */
export interface LooseEntry {
  obj: { component_name: string; params: Record<string, unknown>; [key: string]: unknown };
  downstream: string[];
  upstream: string[];
  parent_id?: string | null;
  [key: string]: unknown;
}

export interface LooseNode {
  id: string;
  type?: string;
  parentId?: string;
  position?: { x: number; y: number };
  data?: { label?: string; name?: string; form?: Record<string, unknown> | null; [key: string]: unknown };
  [key: string]: unknown;
}

/** Edges are read as the editor writes them. */
export type LooseEdge = GraphEdge;

/** The components map, or undefined when the DSL has none (graph-only, or not a canvas). */
export function componentsOf(dsl: LooseDsl): Record<string, Record<string, unknown>> | undefined {
  return isPlainObject(dsl.components) ? (dsl.components as Record<string, Record<string, unknown>>) : undefined;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : [];
}

/** The entry with its parts normalized: obj/params objects, downstream/upstream string lists. */
export function normalizeEntry(entry: unknown): LooseEntry {
  const raw = isPlainObject(entry) ? entry : {};
  const obj = isPlainObject(raw.obj) ? raw.obj : {};
  const params = isPlainObject(obj.params) ? obj.params : {};
  return {
    ...raw,
    obj: { ...obj, component_name: typeof obj.component_name === "string" ? obj.component_name : "", params },
    downstream: stringList(raw.downstream),
    upstream: stringList(raw.upstream),
  };
}

/** graph.nodes and graph.edges, keeping only entries with the fields they need. */
export function graphOf(dsl: LooseDsl): { nodes: LooseNode[]; edges: LooseEdge[] } {
  const graph = isPlainObject(dsl.graph) ? dsl.graph : {};
  const nodes = (Array.isArray(graph.nodes) ? graph.nodes : []).filter(
    (n): n is LooseNode => isPlainObject(n) && typeof n.id === "string" && n.id !== "",
  );
  const edges = (Array.isArray(graph.edges) ? graph.edges : []).filter(
    (e): e is LooseEdge => isPlainObject(e) && typeof e.source === "string" && typeof e.target === "string",
  );
  return { nodes, edges };
}

/** Replace every string inside a JSON value (objects and arrays are rebuilt; keys are kept). */
export function mapStrings(value: unknown, fn: (text: string) => string): unknown {
  if (typeof value === "string") return fn(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, fn));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item, fn);
    return out;
  }
  return value;
}

/** Characters allowed in a component id that references can name (`[A-Za-z0-9_:]`). */
function idPart(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  return cleaned === "" ? "x" : cleaned;
}

/** `Type:Base`, or `Type:Base_2`, `_3`… when taken. The new id is added to `taken`. */
export function freshId(taken: Set<string>, type: string, base: string): string {
  const stem = `${type}:${idPart(base)}`;
  let id = stem;
  for (let n = 2; taken.has(id); n++) id = `${stem}_${n}`;
  taken.add(id);
  return id;
}

/** A list without duplicates, first occurrence kept. */
export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** Replace `from` in a list of ids by `to` (several ids, possibly none), without duplicates. */
export function replaceId(ids: readonly string[], from: string, to: readonly string[]): string[] {
  if (!ids.includes(from)) return [...ids];
  return unique(ids.flatMap((id) => (id === from ? [...to] : [id])));
}
