/**
 * Iteration and IterationItem: run the child components once per item of a list, one item
 * after another, and collect chosen child outputs into lists (research/ragflow.md §4.1).
 */
import { componentSchema } from "../dsl/schemas.js";
import { parseSelector, type Reference } from "../refs/grammar.js";
import { isPlainObject, jsonPointer } from "../util/values.js";
import { templateReferencesInParams } from "./params.js";
import type { ComponentContext, ComponentDefinition, Params, ParamProblem } from "./types.js";
import { valueKind } from "./value-kind.js";

/** Iteration outputs that collect a child's output: `{name: {ref: "<child id>@<var>"}}`. */
function collectedOutputs(params: Params): Array<{ name: string; componentId: string; variable: string }> {
  const outputs = params.outputs;
  if (!isPlainObject(outputs)) return [];
  const out: Array<{ name: string; componentId: string; variable: string }> = [];
  for (const [name, spec] of Object.entries(outputs)) {
    const ref = (spec as { ref?: unknown } | null)?.ref;
    if (typeof ref !== "string") continue;
    const at = ref.indexOf("@");
    if (at <= 0) continue;
    out.push({ name, componentId: ref.slice(0, at), variable: ref.slice(at + 1) });
  }
  return out;
}

/** The list to iterate; `record` false reads it without showing it in node_finished.inputs. */
function itemsOf(ctx: ComponentContext<Params>, iterationParams: Params, record = true): unknown[] {
  const selector = iterationParams.items_ref;
  if (typeof selector !== "string" || selector.trim() === "") throw new Error("items_ref is empty: choose the list to iterate over");
  const items = record ? ctx.get(selector) : ctx.peek(selector);
  if (!Array.isArray(items)) throw new Error(`items_ref "${selector}" must be a list, got ${valueKind(items)}`);
  return items;
}

function ownOutputRef(containerId: string, name: string): Reference {
  return { kind: "component", expr: `${containerId}@${name}`, componentId: containerId, variable: name, path: [] };
}

export const Iteration: ComponentDefinition = {
  name: "Iteration",
  paramsSchema: componentSchema("Iteration"),
  defaults: { items_ref: "", variable: {}, outputs: {} },
  capabilities: { container: { start: "IterationItem", iterationAliases: true, freshRounds: true } },
  references(params) {
    const refs = templateReferencesInParams(params);
    const items = typeof params.items_ref === "string" ? parseSelector(params.items_ref) : null;
    if (items) refs.push(items);
    return refs;
  },
  thoughts: (params) => `Need to process the items of ${String(params.items_ref ?? "")}.`,
  check(params, info): ParamProblem[] {
    const problems: ParamProblem[] = [];
    if (typeof params.items_ref !== "string" || parseSelector(params.items_ref) === null) {
      problems.push({ pointer: "/items_ref", message: "items_ref must reference a list (cpn@var, sys.x or env.x)" });
    }
    for (const { name, componentId } of collectedOutputs(params)) {
      if (!info.hasComponent(componentId)) {
        problems.push({ pointer: jsonPointer("outputs", name, "ref"), message: `output "${name}" collects from "${componentId}", which is not a component of this canvas` });
      }
    }
    return problems;
  },
  invoke(ctx) {
    itemsOf(ctx, ctx.params);
    // A fresh start (also when the Iteration runs again inside a Loop): collected lists begin empty.
    for (const { name } of collectedOutputs(ctx.params)) ctx.setOutput(name, []);
  },
};

interface RoundState {
  index: number;
}

export const IterationItem: ComponentDefinition = {
  name: "IterationItem",
  paramsSchema: componentSchema("IterationItem"),
  defaults: {},
  capabilities: { containerStart: true },
  thoughts: () => "Next turn...",
  check(_params, info): ParamProblem[] {
    const parent = info.parentId;
    return parent && info.componentName(parent) === "Iteration"
      ? []
      : [{ pointer: "", message: "an IterationItem must have an Iteration as parent_id" }];
  },
  invoke(ctx) {
    const parentId = ctx.parentId;
    const parent = parentId ? ctx.canvas.component(parentId) : undefined;
    if (!parentId || !parent) throw new Error("IterationItem has no parent Iteration");
    // Each round shows its item and index, not the whole list: a round's event stays small
    // however long the list is.
    const items = itemsOf(ctx, parent.params, false);
    const round = ctx.state.get<RoundState>()?.index ?? 0;
    if (round > 0) collect(ctx, parentId, parent.params);
    if (round >= items.length) return { done: true };
    ctx.setInput("item", items[round]);
    ctx.setInput("index", round);
    ctx.setOutput("item", items[round]);
    ctx.setOutput("result", items[round]);
    ctx.setOutput("index", round);
    ctx.state.set({ index: round + 1 } satisfies RoundState);
    return { done: false };
  },
};

/** Append each collected child output of the round that just ended to the Iteration's lists. */
function collect(ctx: ComponentContext<Params>, parentId: string, parentParams: Params): void {
  const children = new Set(ctx.canvas.children(parentId).map((c) => c.id));
  for (const { name, componentId, variable } of collectedOutputs(parentParams)) {
    if (!children.has(componentId)) continue;
    const root = variable.split(".")[0];
    const value = variable === root ? ctx.canvas.outputsOf(componentId)?.[root] : ctx.get(`${componentId}@${variable}`);
    // Through the pool: a round stays O(1) however many rounds came before.
    ctx.append(ownOutputRef(parentId, name), value ?? null);
  }
}
