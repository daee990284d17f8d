/**
 * Dify's containers. Their bodies run in rounds, each in a frame of its own (engine/edges):
 *
 * - iteration: one round per item of `iterator_selector` (in parallel with `is_parallel`, at most
 *   `parallel_nums` at once). The body reads `[iteration, item]` and `[iteration, index]`; each
 *   round's `output_selector` is collected, ordered by index; the list is flattened when every
 *   item's output is a list (`flatten_output`, default on). A failed round stops the iteration
 *   (`terminated`), gives null (`continue-on-error`) or is left out (`remove-abnormal-output`).
 * - loop: its variables live at `[loop, name]` for the whole loop. The break conditions are
 *   checked before the first round (an error there counts as not met; met: no round, no
 *   variables) and after each round (an error fails the loop); a loop-end reached in a round
 *   stops it after that round; `loop_count` rounds at most. Outputs: the variables and
 *   `loop_round`.
 *
 * Their start nodes (iteration-start, loop-start) only begin the body.
 */
import type { ComponentContext, ComponentDefinition, ParamProblem, Params, RoundOutcome } from "../../components/types.js";
import { isPlainObject } from "../../util/values.js";
import { evaluateConditions, type Condition } from "../conditions.js";
import { selectorReference, selectorText } from "../references.js";
import { checkConditions, conditionReferences } from "./if-else.js";
import { checkSelector, list, readSelector, referencesIn, renderText } from "./common.js";

const ERROR_MODES = new Set(["terminated", "continue-on-error", "remove-abnormal-output"]);

function errorMode(params: Params): string {
  const mode = typeof params.error_handle_mode === "string" ? params.error_handle_mode.toLowerCase().replace(/_/g, "-") : "terminated";
  return ERROR_MODES.has(mode) ? mode : "terminated";
}

interface IterationState {
  /** Collected outputs by round index; absent: left out. */
  results: Record<string, unknown>;
  failed?: string;
}

function iterationItems(ctx: ComponentContext, record: boolean): unknown[] {
  const ref = selectorReference(ctx.params.iterator_selector);
  if (!ref) throw new Error("iterator_selector must choose the list to iterate over");
  let value: unknown;
  try {
    value = record ? ctx.get(ref) : ctx.peek(ref);
  } catch {
    value = undefined;
  }
  if (value === undefined) throw new Error(`the iterator variable ${selectorText(ref)} is not found`);
  if (value === null) return [];
  if (!Array.isArray(value)) throw new Error(`the iterator variable ${selectorText(ref)} must be a list, it holds ${typeof value}`);
  return value;
}

export const DifyIteration: ComponentDefinition = {
  name: "DifyIteration",
  capabilities: { container: { start: "DifyIterationStart" } },
  thoughts: () => "",
  references: (params) => referencesIn([params.iterator_selector]),
  check(params, info): ParamProblem[] {
    const problems = [...checkSelector(params, "iterator_selector", true, info), ...checkSelector(params, "output_selector", true, info)];
    if (params.error_handle_mode !== undefined && !ERROR_MODES.has(String(params.error_handle_mode).toLowerCase().replace(/_/g, "-"))) {
      problems.push({ pointer: "/error_handle_mode", message: `error_handle_mode must be terminated, continue-on-error or remove-abnormal-output, not ${JSON.stringify(params.error_handle_mode)}` });
    }
    return problems;
  },
  invoke(ctx) {
    const items = iterationItems(ctx, true);
    ctx.state.set({ results: {} } satisfies IterationState);
    const parallel = ctx.params.is_parallel === true ? Math.max(1, Math.floor(Number(ctx.params.parallel_nums ?? 10)) || 10) : 1;
    return { rounds: { count: items.length, parallel } };
  },
  rounds: {
    roundInputs(ctx, index) {
      const items = iterationItems(ctx, false);
      return { item: items[index], index };
    },
    roundEnded(ctx, round: RoundOutcome) {
      const state = ctx.state.get<IterationState>() ?? { results: {} };
      const mode = errorMode(ctx.params);
      if (round.error !== undefined) {
        if (mode === "terminated") {
          ctx.state.set({ ...state, failed: state.failed ?? round.error });
          return { stop: true };
        }
        if (mode === "continue-on-error") ctx.state.set({ ...state, results: { ...state.results, [round.index]: null } });
        return;
      }
      const ref = selectorReference(ctx.params.output_selector);
      const value = ref ? round.read(ref) : undefined;
      ctx.state.set({ ...state, results: { ...state.results, [round.index]: value === undefined ? null : value } });
    },
    finish(ctx) {
      const state = ctx.state.get<IterationState>() ?? { results: {} };
      if (state.failed !== undefined) throw new Error(state.failed);
      const indices = Object.keys(state.results)
        .map(Number)
        .sort((a, b) => a - b);
      let output = indices.map((i) => state.results[i]);
      // Flattened when every output that is there is a list (graphon's flatten_output, on by default).
      const present = output.filter((v) => v !== null && v !== undefined);
      if (ctx.params.flatten_output !== false && present.length > 0 && present.every(Array.isArray)) output = output.flatMap((v) => (Array.isArray(v) ? v : []));
      ctx.setOutput("output", output);
    },
  },
};

/** The start of an iteration's or loop's body: it only begins the round. */
function startNode(name: string): ComponentDefinition {
  return { name, thoughts: () => "", invoke() {} };
}

export const DifyIterationStart = startNode("DifyIterationStart");
export const DifyLoopStart = startNode("DifyLoopStart");

interface LoopVariable {
  label?: unknown;
  var_type?: unknown;
  value_type?: unknown;
  value?: unknown;
}

interface LoopState {
  rounds: number;
  failed?: string;
}

function loopVariables(params: Params): LoopVariable[] {
  return list(params.loop_variables).filter(isPlainObject) as LoopVariable[];
}

/** A constant loop variable: text is read as JSON for the types that are not text ("1" → 1). */
function constantValue(variable: LoopVariable): unknown {
  const value = variable.value;
  const type = typeof variable.var_type === "string" ? variable.var_type : "string";
  if (typeof value !== "string" || type === "string") return value ?? null;
  if (value.trim() === "") return type === "number" ? 0 : type === "boolean" ? false : type.startsWith("array") ? [] : type === "object" ? {} : null;
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`loop variable ${String(variable.label)}: ${JSON.stringify(value)} is not a ${type}`);
  }
}

function breakConditions(ctx: ComponentContext): boolean {
  const conditions = list(ctx.params.break_conditions) as Condition[];
  if (conditions.length === 0) return false;
  return evaluateConditions(conditions, ctx.params.logical_operator, { read: (ref) => ctx.peek(ref), render: (template) => renderText(ctx, template) });
}

export const DifyLoop: ComponentDefinition = {
  name: "DifyLoop",
  capabilities: { container: { start: "DifyLoopStart", exitable: true } },
  thoughts: () => "",
  references: (params) => [
    ...referencesIn(loopVariables(params).filter((v) => v.value_type === "variable").map((v) => v.value)),
    ...conditionReferences(params.break_conditions),
  ],
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    const count = Number(params.loop_count);
    if (!Number.isInteger(count) || count < 1) problems.push({ pointer: "/loop_count", message: `loop_count must be a whole number of at least 1, not ${JSON.stringify(params.loop_count)}` });
    if (params.break_conditions !== undefined) problems.push(...checkConditions(params.break_conditions, "/break_conditions"));
    loopVariables(params).forEach((v, index) => {
      if (typeof v.label !== "string" || v.label === "") problems.push({ pointer: `/loop_variables/${index}/label`, message: "a loop variable needs a label" });
      if (v.value_type === "variable" && !selectorReference(v.value)) problems.push({ pointer: `/loop_variables/${index}/value`, message: "a loop variable of value_type variable needs a selector" });
    });
    return problems;
  },
  invoke(ctx) {
    for (const variable of loopVariables(ctx.params)) {
      if (typeof variable.label !== "string") continue;
      const value = variable.value_type === "variable" ? readSelector(ctx, variable.value) : constantValue(variable);
      ctx.setOutput(variable.label, value === undefined ? null : value);
    }
    // Checked before the first round; an error there counts as not met.
    let met = false;
    try {
      met = breakConditions(ctx);
    } catch {
      met = false;
    }
    ctx.state.set({ rounds: 0 } satisfies LoopState);
    if (met) {
      // Met before the first round: no round runs, and the loop shows no variables.
      ctx.clearOutputs();
      return { rounds: { count: 0 } };
    }
    return { rounds: { count: Math.max(0, Math.floor(Number(ctx.params.loop_count) || 0)) } };
  },
  rounds: {
    roundEnded(ctx, round: RoundOutcome) {
      const state = ctx.state.get<LoopState>() ?? { rounds: 0 };
      if (round.error !== undefined) {
        ctx.state.set({ ...state, failed: round.error });
        return { stop: true };
      }
      ctx.state.set({ ...state, rounds: round.index + 1 });
      if (round.exited) return { stop: true };
      // Checked after every round; an error here fails the loop.
      return { stop: breakConditions(ctx) };
    },
    finish(ctx) {
      const state = ctx.state.get<LoopState>() ?? { rounds: 0 };
      if (state.failed !== undefined) throw new Error(state.failed);
      ctx.setOutput("loop_round", state.rounds);
    },
  },
};

export const DifyLoopEnd: ComponentDefinition = {
  name: "DifyLoopEnd",
  capabilities: { exitsContainer: true },
  thoughts: () => "",
  invoke() {},
};
