/**
 * The compiled canvas: what the engine needs about each component, computed once at load so
 * that no step has to scan the DSL.
 */
import { displayNames, paramsWithDefaults, referencesOf } from "../components/params.js";
import type { ComponentDefinition } from "../contracts/component.js";
import type { CanvasDsl } from "../contracts/dsl.js";
import type { Params } from "../contracts/values.js";
import type { CanvasGraph, ComponentNode, ErrorRoute, Registry, RetryPolicy, SchedulingPolicy, StateKey } from "../contracts/graph.js";
import { normalizeDeclarations } from "../pool/variables.js";

export type { CanvasGraph, ComponentNode, EntryInfo, ErrorKeys, ErrorRoute, RetryPolicy, StateKey, TurnInfo } from "../contracts/graph.js";

/**
 * Compile a validated DSL, scheduled by `policy` (the engine's loader passes the frontier,
 * RAGFlow's policy). Throws if a component type is unknown (validation reports that first).
 */
export function compileGraph(dsl: CanvasDsl, registry: Registry, policy: SchedulingPolicy, extras: GraphExtras = {}): CanvasGraph {
  const names = displayNames(dsl);
  const entries = Object.entries(dsl.components);
  const defs = new Map<string, ComponentDefinition>();
  for (const [id, entry] of entries) {
    const def = registry.get(entry.obj.component_name);
    if (!def) throw new Error(`component ${id}: unknown component_name "${entry.obj.component_name}"`);
    defs.set(id, def);
  }

  const parentOf = (id: string): string | undefined => {
    const parent = dsl.components[id]?.parent_id;
    return typeof parent === "string" && parent.length > 0 ? parent : undefined;
  };

  // Start child of each container: its child whose component_name is the declared start type.
  const startChild = new Map<string, string>();
  for (const [id, entry] of entries) {
    const parent = parentOf(id);
    if (!parent) continue;
    const container = defs.get(parent)?.capabilities?.container;
    if (container && entry.obj.component_name === container.start && !startChild.has(parent)) startChild.set(parent, id);
  }

  // Who leads to each component, from the downstream lists (the DSL's own upstream lists may be stale).
  const predecessors = new Map<string, string[]>();
  for (const [id, entry] of entries) {
    for (const target of dedupe(entry.downstream ?? [])) {
      if (!Object.hasOwn(dsl.components, target)) continue;
      const list = predecessors.get(target) ?? [];
      list.push(id);
      predecessors.set(target, list);
    }
  }
  const specs: NodeSpec[] = entries.map(([id, entry]) => ({
    id,
    componentName: entry.obj.component_name,
    displayName: names.get(id) ?? id,
    def: defs.get(id)!,
    params: entry.obj.params,
    parentId: parentOf(id),
    // Unknown ids are validation errors; a snapshot built elsewhere may still carry them.
    downstream: dedupe(entry.downstream ?? []).filter((target) => Object.hasOwn(dsl.components, target)),
    upstream: predecessors.get(id) ?? [],
    startChildId: startChild.get(id),
  }));
  const entry = specs.find((spec) => spec.def.capabilities?.entry && spec.id === "begin") ?? specs.find((spec) => spec.def.capabilities?.entry);
  if (!entry) throw new Error('the canvas has no entry component (a Begin with id "begin")');
  return buildGraph(specs, entry.id, registry, () => policy, { stateKeys: stateKeysOf(dsl.variables, registry), ...extras });
}

/** The reducer name of a variable that declares none. */
export const DEFAULT_REDUCER = "last";

/**
 * Every declared variable as a state key with its reducer. Throws naming the variable when its
 * reducer is not known (validation reports the same first).
 */
export function stateKeysOf(variables: unknown, registry: Registry): ReadonlyMap<string, StateKey> {
  const keys = new Map<string, StateKey>();
  for (const [name, declaration] of Object.entries(normalizeDeclarations(variables))) {
    const reducerName = declaration.reducer ?? DEFAULT_REDUCER;
    const reduce = typeof reducerName === "string" ? registry.reducer(reducerName) : undefined;
    if (!reduce) throw new Error(`variable "${name}": unknown reducer ${JSON.stringify(reducerName)} (register it with registry.registerReducer before loading)`);
    keys.set(name, { reducerName, reduce });
  }
  return keys;
}

/** What a front end says about one node; buildGraph derives the rest. */
export interface NodeSpec {
  readonly id: string;
  readonly componentName: string;
  readonly displayName: string;
  readonly def: ComponentDefinition;
  /** Stored params (the definition's defaults go under them). */
  readonly params: Params;
  readonly parentId: string | undefined;
  readonly downstream: readonly string[];
  /** The components before it, when the front end knows them (pipelines). */
  readonly upstream?: readonly string[];
  readonly startChildId: string | undefined;
  readonly retry?: RetryPolicy;
  readonly onError?: ErrorRoute;
}

/** Extras of a graph beyond its nodes (see CanvasGraph). */
export interface GraphExtras {
  readonly limits?: CanvasGraph["limits"];
  readonly turnGlobals?: CanvasGraph["turnGlobals"];
  readonly initialGlobals?: CanvasGraph["initialGlobals"];
  readonly entry?: CanvasGraph["entry"];
  readonly filesPerRun?: CanvasGraph["filesPerRun"];
  readonly stateKeys?: CanvasGraph["stateKeys"];
}

/**
 * The compiled graph of a front end's nodes: references, readiness dependencies, ancestors and
 * descendants are derived here, and `policy` is made from the finished nodes.
 */
export function buildGraph(
  specs: readonly NodeSpec[],
  entryId: string,
  registry: Registry,
  policy: (nodes: ReadonlyMap<string, ComponentNode>) => SchedulingPolicy,
  extras: GraphExtras = {},
): CanvasGraph {
  const byId = new Map(specs.map((spec) => [spec.id, spec]));
  const parentOf = (id: string): string | undefined => byId.get(id)?.parentId;
  const nodes = new Map<string, ComponentNode>();
  const childrenOf = new Map<string, ComponentNode[]>();
  for (const spec of specs) {
    const { id, def } = spec;
    const params = paramsWithDefaults(def, spec.params);
    const references = referencesOf(def, params);
    const dependencies = [
      ...new Set(references.flatMap((r) => (r.kind === "component" && r.componentId !== id ? [r.componentId] : []))),
    ];
    const parentId = spec.parentId;
    const ancestors: string[] = [];
    for (let p = parentId, guard = 0; p && guard < 64; p = parentOf(p), guard++) ancestors.push(p);
    const parentDef = parentId ? byId.get(parentId)?.def : undefined;
    let thoughts = "";
    try {
      thoughts = def.thoughts?.(params) ?? "";
    } catch {
      thoughts = "";
    }
    const enclosingStarts = new Set(ancestors.map((a) => byId.get(a)?.startChildId).filter((x): x is string => x !== undefined));
    const node: ComponentNode = {
      id,
      componentName: spec.componentName,
      displayName: spec.displayName,
      params,
      parentId,
      downstream: spec.downstream,
      ...(spec.upstream ? { upstream: spec.upstream } : {}),
      def,
      dependencies,
      waitsFor: dependencies.filter((d) => !enclosingStarts.has(d)),
      references,
      startChildId: spec.startChildId,
      aliasTarget: parentDef?.capabilities?.container?.iterationAliases && parentId ? byId.get(parentId)?.startChildId : undefined,
      ancestors,
      descendants: [],
      thoughts,
      ...(spec.retry ? { retry: spec.retry } : {}),
      ...(spec.onError ? { onError: spec.onError } : {}),
    };
    nodes.set(id, node);
    if (parentId) {
      const list = childrenOf.get(parentId) ?? [];
      list.push(node);
      childrenOf.set(parentId, list);
    }
  }
  for (const node of nodes.values()) {
    for (const ancestor of node.ancestors) (nodes.get(ancestor)?.descendants as string[] | undefined)?.push(node.id);
  }
  return { nodes, childrenOf, entryId, registry, policy: policy(nodes), ...extras };
}

/** Drop repeated ids, keeping the first (RAGFlow templates sometimes list a target twice). */
function dedupe(ids: readonly string[]): string[] {
  return ids.length < 2 ? [...ids] : [...new Set(ids)];
}
