/**
 * Reading a component's params: defaults, the references they hold, display names. Shared by
 * the validator, the engine's graph compiler and the components themselves.
 */
import { findReferences, type Reference } from "../refs/grammar.js";
import type { ComponentDefinition, Params } from "./types.js";
import type { CanvasDsl, GraphNode } from "../dsl/types.js";
import { isPlainObject } from "../util/values.js";

/** Keys of params that hold form definitions or stored values, not text the component reads. */
const NON_TEXT_PARAM_KEYS: ReadonlySet<string> = new Set(["outputs", "inputs", "debug_inputs", "custom_header"]);

/** Every template reference in a component's string params (forms and stored outputs excluded). */
export function templateReferencesInParams(params: Params): Reference[] {
  const out: Reference[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      if (value.indexOf("{") >= 0) out.push(...findReferences(value));
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (value !== null && typeof value === "object") {
      for (const item of Object.values(value)) walk(item);
    }
  };
  for (const [key, value] of Object.entries(params)) {
    if (!NON_TEXT_PARAM_KEYS.has(key)) walk(value);
  }
  return out;
}

/** Stored params over the definition's defaults (dicts and lists replace defaults wholesale, as in RAGFlow). */
export function paramsWithDefaults(def: ComponentDefinition | undefined, params: Params | undefined): Params {
  return { ...structuredClone((def?.defaults ?? {}) as Params), ...(params ?? {}) };
}

export function referencesOf(def: ComponentDefinition, params: Params): Reference[] {
  try {
    return def.references ? def.references(params) : templateReferencesInParams(params);
  } catch {
    return templateReferencesInParams(params);
  }
}

/** The expressions whose values a component reads: `reads()` when it declares one, else all its references. */
export function readsOf(def: ComponentDefinition, params: Params): Set<string> {
  let reads: Reference[];
  try {
    reads = def.reads ? def.reads(params) : referencesOf(def, params);
  } catch {
    reads = referencesOf(def, params);
  }
  return new Set(reads.map((ref) => ref.expr));
}

/** Display names come from the editor graph (`graph.nodes[].data.name`); a malformed graph gives none. */
export function displayNames(dsl: CanvasDsl): Map<string, string> {
  const names = new Map<string, string>();
  const nodes: unknown = isPlainObject(dsl.graph) ? dsl.graph.nodes : undefined;
  if (!Array.isArray(nodes)) return names;
  for (const node of nodes as GraphNode[]) {
    const name = node?.data?.name;
    if (typeof node?.id === "string" && typeof name === "string" && name.length > 0) names.set(node.id, name);
  }
  return names;
}
