/**
 * Loop, LoopItem and ExitLoop: repeat the child components until a termination condition holds,
 * `maximum_loop_count` rounds have run, or an ExitLoop is reached (research/ragflow.md §4.1).
 * Loop variables are the Loop's outputs; the body changes them with VariableAssigner.
 */
import { componentSchema } from "../dsl/schemas.js";
import { parseSelector, type Reference } from "../refs/grammar.js";
import { finiteNumber, isNothing, objectRows } from "../util/values.js";
import { templateReferencesInParams } from "./params.js";
import { evaluateLoopCondition } from "./loop-conditions.js";
import type { ComponentContext, ComponentDefinition, Params, ParamProblem } from "./types.js";

interface LoopVariable {
  variable?: unknown;
  input_mode?: unknown;
  type?: unknown;
  value?: unknown;
}

interface TerminationCondition {
  variable?: unknown;
  operator?: unknown;
  input_mode?: unknown;
  value?: unknown;
}

/** An editor row with no variable name is an unfilled row: it is skipped (RAGFlow rejects the Loop). */
function filledVariables(params: Params): Array<{ row: LoopVariable; index: number }> {
  return objectRows<LoopVariable>(params.loop_variables).filter(({ row }) => typeof row.variable === "string" && row.variable.trim() !== "");
}

/** The round limit; missing means 0 rounds (RAGFlow's default). Anything but a number is an error, not a silent end. */
function maximumLoopCount(params: Params): number {
  const value = params.maximum_loop_count;
  if (isNothing(value)) return 0;
  const n = finiteNumber(value);
  if (n === undefined) throw new Error(`maximum_loop_count must be a number, not ${JSON.stringify(value)}`);
  return n;
}

function isVariableMode(mode: unknown): boolean {
  return mode === "variable";
}

function selectorRef(value: unknown): Reference[] {
  const ref = typeof value === "string" ? parseSelector(value) : null;
  return ref ? [ref] : [];
}

export const Loop: ComponentDefinition = {
  name: "Loop",
  paramsSchema: componentSchema("Loop"),
  defaults: { loop_variables: [], loop_termination_condition: [], maximum_loop_count: 0, logical_operator: "and" },
  capabilities: { container: { start: "LoopItem", exitable: true } },
  thoughts: () => "Loop from canvas.",
  references(params) {
    const refs = templateReferencesInParams(params);
    for (const { row } of filledVariables(params)) if (isVariableMode(row.input_mode)) refs.push(...selectorRef(row.value));
    return refs;
  },
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    for (const { row, index } of filledVariables(params)) {
      const at = `/loop_variables/${index}`;
      if (typeof row.input_mode !== "string" || row.input_mode === "") problems.push({ pointer: `${at}/input_mode`, message: `loop variable "${row.variable}" has no input_mode` });
      if (typeof row.type !== "string" || row.type === "") problems.push({ pointer: `${at}/type`, message: `loop variable "${row.variable}" has no type` });
      if (isVariableMode(row.input_mode) && (typeof row.value !== "string" || parseSelector(row.value) === null)) {
        problems.push({ pointer: `${at}/value`, message: `loop variable "${row.variable}" takes its value from a variable, but "${String(row.value)}" is not a reference` });
      }
    }
    for (const { row: condition, index } of objectRows<TerminationCondition>(params.loop_termination_condition)) {
      const at = `/loop_termination_condition/${index}`;
      if (typeof condition.variable !== "string" || parseSelector(condition.variable) === null) {
        problems.push({ pointer: `${at}/variable`, message: "a termination condition needs a variable reference" });
      }
      if (typeof condition.operator !== "string" || condition.operator === "") {
        problems.push({ pointer: `${at}/operator`, message: "a termination condition needs an operator" });
      }
    }
    const op = params.logical_operator;
    if (op !== undefined && op !== "and" && op !== "or") problems.push({ pointer: "/logical_operator", message: `logical_operator must be "and" or "or", not ${JSON.stringify(op)}` });
    return problems;
  },
  invoke(ctx) {
    for (const { row } of filledVariables(ctx.params)) {
      const name = String(row.variable);
      if (isVariableMode(row.input_mode)) ctx.setOutput(name, ctx.get(String(row.value)));
      else if (row.value === undefined || row.value === null) throw new Error(`Loop variable "${name}" has no value`);
      else ctx.setOutput(name, structuredClone(row.value));
    }
  },
};

interface RoundState {
  index: number;
}

/** Whether the Loop's termination conditions hold now. No condition never ends a loop. */
function terminationHolds(ctx: ComponentContext<Params>, loopParams: Params): boolean {
  const conditions = objectRows<TerminationCondition>(loopParams.loop_termination_condition);
  if (conditions.length === 0) return false;
  const results = conditions.map(({ row: condition }) => {
    const variable = ctx.get(String(condition.variable));
    const value = isVariableMode(condition.input_mode) && typeof condition.value === "string" ? ctx.get(condition.value) : condition.value;
    return evaluateLoopCondition(variable, String(condition.operator), value);
  });
  const op = loopParams.logical_operator ?? "and";
  if (op === "and") return results.every(Boolean);
  if (op === "or") return results.some(Boolean);
  throw new Error(`logical_operator must be "and" or "or", not ${JSON.stringify(op)}`);
}

export const LoopItem: ComponentDefinition = {
  name: "LoopItem",
  paramsSchema: componentSchema("LoopItem"),
  defaults: {},
  capabilities: { containerStart: true },
  thoughts: () => "Next turn...",
  check(_params, info): ParamProblem[] {
    const parent = info.parentId;
    return parent && info.componentName(parent) === "Loop" ? [] : [{ pointer: "", message: "a LoopItem must have a Loop as parent_id" }];
  },
  invoke(ctx) {
    const parent = ctx.parentId ? ctx.canvas.component(ctx.parentId) : undefined;
    if (!parent) throw new Error("LoopItem has no parent Loop");
    const max = maximumLoopCount(parent.params);
    const round = ctx.state.get<RoundState>()?.index ?? 0;
    if (!(round < max)) return { done: true };
    ctx.state.set({ index: round + 1 } satisfies RoundState);
    ctx.setOutput("index", round);
    return { done: terminationHolds(ctx, parent.params) };
  },
};

export const ExitLoop: ComponentDefinition = {
  name: "ExitLoop",
  paramsSchema: componentSchema("ExitLoop"),
  defaults: {},
  capabilities: { exitsContainer: true },
  thoughts: () => "",
  check(_params, info): ParamProblem[] {
    // Any enclosing Loop will do: an ExitLoop inside an Iteration inside a Loop leaves both.
    for (let parent = info.parentId, depth = 0; parent && depth < 64; parent = info.parentOf(parent), depth++) {
      if (info.componentName(parent) === "Loop") return [];
    }
    return [{ pointer: "", message: "an ExitLoop must sit inside a Loop (parent_id)" }];
  },
  invoke() {
    /* The engine leaves the enclosing Loop (capability exitsContainer). */
  },
};
