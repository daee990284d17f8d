/**
 * The compiled canvas: what the engine needs about each component, computed once at load so
 * that no step has to scan the DSL.
 */
import type { Reference } from "../refs/grammar.js";
import { displayNames, paramsWithDefaults, referencesOf } from "../components/params.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { ComponentDefinition, ComponentInfo, Params } from "../components/types.js";
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

  const nodes = new Map<string, ComponentNode>();
  const childrenOf = new Map<string, ComponentNode[]>();
  let entryId: string | undefined;
  for (const [id, entry] of entries) {
    const def = defs.get(id)!;
    const params = paramsWithDefaults(def, entry.obj.params);
    const references = referencesOf(def, params);
    const dependencies = [
      ...new Set(references.flatMap((r) => (r.kind === "component" && r.componentId !== id ? [r.componentId] : []))),
    ];
    const parentId = parentOf(id);
    const ancestors: string[] = [];
    for (let p = parentId, guard = 0; p && guard < 64; p = parentOf(p), guard++) ancestors.push(p);
    const parentDef = parentId ? defs.get(parentId) : undefined;
    let thoughts = "";
    try {
      thoughts = def.thoughts?.(params) ?? "";
    } catch {
      thoughts = "";
    }
    const enclosingStarts = new Set(ancestors.map((a) => startChild.get(a)).filter((x): x is string => x !== undefined));
    const node: ComponentNode = {
      id,
      componentName: entry.obj.component_name,
      displayName: names.get(id) ?? id,
      params,
      parentId,
      // Unknown ids are validation errors; a snapshot built elsewhere may still carry them.
      downstream: dedupe(entry.downstream ?? []).filter((target) => Object.hasOwn(dsl.components, target)),
      def,
      dependencies,
      waitsFor: dependencies.filter((d) => !enclosingStarts.has(d)),
      references,
      startChildId: startChild.get(id),
      aliasTarget: parentDef?.capabilities?.container?.iterationAliases && parentId ? startChild.get(parentId) : undefined,
      ancestors,
      descendants: [],
      thoughts,
    };
    nodes.set(id, node);
    if (parentId) {
      const list = childrenOf.get(parentId) ?? [];
      list.push(node);
      childrenOf.set(parentId, list);
    }
    if (def.capabilities?.entry && (entryId === undefined || id === "begin")) entryId = id;
  }
  for (const node of nodes.values()) {
    for (const ancestor of node.ancestors) (nodes.get(ancestor)?.descendants as string[] | undefined)?.push(node.id);
  }
  if (!entryId) throw new Error('the canvas has no entry component (a Begin with id "begin")');
  return { nodes, childrenOf, entryId, registry, policy: FRONTIER_POLICY };
}

/** Drop repeated ids, keeping the first (RAGFlow templates sometimes list a target twice). */
function dedupe(ids: readonly string[]): string[] {
  return ids.length < 2 ? [...ids] : [...new Set(ids)];
}
