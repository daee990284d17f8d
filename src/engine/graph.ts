/**
 * The compiled canvas: what the engine needs about each component, computed once at load so
 * that no step has to scan the DSL.
 */
import type { Reference } from "../refs/grammar.js";
import { displayNames, paramsWithDefaults, referencesOf } from "../components/params.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { ComponentDefinition, ComponentInfo, InputField, Outputs, Params } from "../components/types.js";
import type { CanvasDsl } from "../dsl/types.js";
import { FRONTIER_POLICY } from "./frontier.js";
import type { SchedulingPolicy } from "./policy.js";

export interface ComponentNode extends ComponentInfo {
  readonly def: ComponentDefinition;
  /** Component ids this one reads (other than itself): it waits while any of them is pending. */
  readonly dependencies: readonly string[];
  /**
   * The dependencies that delay this component while they are pending. The start node of an
   * enclosing container is left out: pending, it stands for the next round, and this component
   * reads the current one.
   */
  readonly waitsFor: readonly string[];
  readonly references: readonly Reference[];
  /** For containers: the id of the start child. */
  readonly startChildId: string | undefined;
  /** For direct children of an aliasing container: where `{item}`/`{index}`/`{result}` read from. */
  readonly aliasTarget: string | undefined;
  /** Enclosing containers, innermost first. */
  readonly ancestors: readonly string[];
  /** For containers: every component inside, at any depth. */
  readonly descendants: readonly string[];
  readonly thoughts: string;
  /** How the runner retries it (default: from `max_retries` / `delay_after_error`). */
  readonly retry?: RetryPolicy;
  /** What a failure that the runner gave up on leads to (edge-scheduled graphs); none: the failure stands. */
  readonly onError?: ErrorRoute;
}

export interface RetryPolicy {
  /** Attempts in all (1: no retry). */
  readonly attempts: number;
  readonly delayMs: number;
}

/**
 * Where a failure goes in an edge-scheduled graph (Dify's error_strategy). Either way the node's
 * outputs say what failed (under `errorKeys`), and the run ends as partially succeeded.
 */
export type ErrorRoute =
  /** Go on along the normal edges with these outputs (Dify's default-value). */
  | { readonly kind: "default"; readonly outputs: Outputs; readonly errorKeys?: ErrorKeys }
  /** Take the edges of this port instead of the normal ones (Dify's fail-branch). */
  | { readonly kind: "branch"; readonly handle: string; readonly errorKeys?: ErrorKeys };

/** The output names an error route writes the failure's message and type to. */
export interface ErrorKeys {
  readonly message: string;
  readonly type: string;
}

export interface CanvasGraph {
  readonly nodes: ReadonlyMap<string, ComponentNode>;
  readonly childrenOf: ReadonlyMap<string, readonly ComponentNode[]>;
  /** Id of the entry component ("begin"). */
  readonly entryId: string;
  /** The registry the canvas was compiled with (component types looked up by name). */
  readonly registry: ComponentRegistry;
  /** How the graph decides what runs next (policy.ts). */
  readonly policy: SchedulingPolicy;
  /** Defaults of the run limits for this kind of graph (the runtime options override them). */
  readonly limits?: { readonly maxSteps?: number; readonly runTimeoutMs?: number };
  /** Globals set at the start of every turn, besides canvasflow's own `sys.*`. */
  readonly turnGlobals?: (turn: TurnInfo) => Record<string, unknown>;
  /** Globals of a fresh session besides canvasflow's own (e.g. Dify's conversation and environment variables). */
  readonly initialGlobals?: Readonly<Record<string, unknown>>;
  /** What the entry asks for, when it is not a Begin (whose params say it). */
  readonly entry?: EntryInfo;
}

/** The entry's form and mode, for front ends whose entry is not RAGFlow's Begin. */
export interface EntryInfo {
  /** What messages call it ("Start"). */
  readonly label: string;
  /** `conversational` (a chat: every turn has a query) or `task`. */
  readonly mode: string;
  readonly prologue: string;
  readonly form: Readonly<Record<string, InputField>>;
  /** Fields a new turn cannot start without (a caller refuses the turn rather than pausing it). */
  readonly required: readonly string[];
}

/** What a graph's turn globals may be made of. */
export interface TurnInfo {
  /** The turn, from 1 (`sys.conversation_turns`). */
  readonly turn: number;
  readonly taskId: string;
  /** The run's message id. */
  readonly runId: string;
  /** Epoch seconds. */
  readonly startedAt: number;
}

/** Compile a validated DSL. Throws if a component type is unknown (validation reports that first). */
export function compileGraph(dsl: CanvasDsl, registry: ComponentRegistry): CanvasGraph {
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

  const specs: NodeSpec[] = entries.map(([id, entry]) => ({
    id,
    componentName: entry.obj.component_name,
    displayName: names.get(id) ?? id,
    def: defs.get(id)!,
    params: entry.obj.params,
    parentId: parentOf(id),
    // Unknown ids are validation errors; a snapshot built elsewhere may still carry them.
    downstream: dedupe(entry.downstream ?? []).filter((target) => Object.hasOwn(dsl.components, target)),
    startChildId: startChild.get(id),
  }));
  const entry = specs.find((spec) => spec.def.capabilities?.entry && spec.id === "begin") ?? specs.find((spec) => spec.def.capabilities?.entry);
  if (!entry) throw new Error('the canvas has no entry component (a Begin with id "begin")');
  return buildGraph(specs, entry.id, registry, () => FRONTIER_POLICY);
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
}

/**
 * The compiled graph of a front end's nodes: references, readiness dependencies, ancestors and
 * descendants are derived here, and `policy` is made from the finished nodes.
 */
export function buildGraph(
  specs: readonly NodeSpec[],
  entryId: string,
  registry: ComponentRegistry,
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
