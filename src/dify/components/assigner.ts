/**
 * Dify's variable assigner, versions 1 and 2. It writes conversation variables, a loop's
 * variables (`[loop, name]`) or an iteration's item, and outputs nothing.
 * - v1: `assigned_variable_selector` takes the value of `input_variable_selector` (over-write),
 *   gets it appended (append), or is cleared (clear).
 * - v2: `items` apply in order to a working copy (a later item sees an earlier one's write):
 *   over-write, clear, set, append, extend, remove-first, remove-last, += -= *= /=. Arithmetic
 *   and set take constants only; a variable input that is not there skips its item.
 */
import type { Reference } from "../../refs/grammar.js";
import type { ComponentContext, ComponentDefinition, ParamProblem, Params } from "../../components/types.js";
import { isPlainObject } from "../../util/values.js";
import { selectorReference, selectorText } from "../references.js";
import { list, readSelector, referencesIn } from "./common.js";

const V2_OPERATIONS = new Set(["over-write", "overwrite", "clear", "append", "extend", "set", "+=", "-=", "*=", "/=", "remove-first", "remove-last"]);
const V1_MODES = new Set(["over-write", "overwrite", "append", "clear"]);

function isV2(params: Params): boolean {
  return params.version === "2" || params.version === 2 || Array.isArray(params.items);
}

interface Item {
  variable_selector?: unknown;
  input_type?: unknown;
  operation?: unknown;
  value?: unknown;
}

function items(params: Params): Item[] {
  return list(params.items).filter(isPlainObject) as Item[];
}

/** The empty value of a variable's kind (Dify's zero value of its type). */
function zeroOf(current: unknown): unknown {
  if (typeof current === "string") return "";
  if (typeof current === "number") return 0;
  if (typeof current === "boolean") return false;
  if (Array.isArray(current)) return [];
  if (isPlainObject(current)) return {};
  return null;
}

function targets(params: Params): Reference[] {
  if (isV2(params)) return items(params).flatMap((item) => referencesIn([item.variable_selector]));
  return referencesIn([params.assigned_variable_selector]);
}

/** Apply one v2 operation to a value; undefined: the item is skipped. */
function apply(operation: string, current: unknown, value: unknown, name: string): unknown {
  switch (operation) {
    case "over-write":
    case "overwrite":
      return value;
    case "clear":
      return zeroOf(current);
    case "set":
      if (isPlainObject(current) && typeof value === "string") {
        try {
          return JSON.parse(value);
        } catch {
          throw new Error(`${name}: set needs a JSON object, got ${JSON.stringify(value)}`);
        }
      }
      return value;
    case "append":
      if (!Array.isArray(current) && current !== null && current !== undefined) throw new Error(`${name}: append needs an array, it holds ${typeof current}`);
      return [...(Array.isArray(current) ? current : []), value];
    case "extend":
      if (!Array.isArray(value)) throw new Error(`${name}: extend needs an array value`);
      return [...(Array.isArray(current) ? current : []), ...value];
    case "remove-first":
    case "remove-last":
      if (!Array.isArray(current)) throw new Error(`${name}: ${operation} needs an array`);
      return operation === "remove-first" ? current.slice(1) : current.slice(0, -1);
    case "+=":
    case "-=":
    case "*=":
    case "/=": {
      const a = typeof current === "number" ? current : Number.NaN;
      const b = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
      if (!Number.isFinite(a)) throw new Error(`${name}: ${operation} needs a number, it holds ${JSON.stringify(current)}`);
      if (!Number.isFinite(b)) throw new Error(`${name}: ${operation} needs a number value, got ${JSON.stringify(value)}`);
      if (operation === "/=" && b === 0) throw new Error(`${name}: division by zero`);
      return operation === "+=" ? a + b : operation === "-=" ? a - b : operation === "*=" ? a * b : a / b;
    }
    default:
      throw new Error(`${name}: unknown operation ${JSON.stringify(operation)}`);
  }
}

function read(ctx: ComponentContext, ref: Reference): unknown {
  try {
    return ctx.peek(ref);
  } catch {
    return undefined;
  }
}

function runV2(ctx: ComponentContext): void {
  const working = new Map<string, { ref: Reference; value: unknown }>();
  for (const item of items(ctx.params)) {
    const ref = selectorReference(item.variable_selector);
    if (!ref) continue;
    const name = selectorText(ref);
    const operation = String(item.operation ?? "over-write");
    let value: unknown;
    if (operation !== "clear" && operation !== "remove-first" && operation !== "remove-last") {
      if (item.input_type === "variable") {
        if (["set", "+=", "-=", "*=", "/="].includes(operation)) throw new Error(`${name}: ${operation} takes a constant, not a variable`);
        value = readSelector(ctx, item.value);
        // A variable that is not there skips the item.
        if (value === undefined || value === null) continue;
      } else value = item.value;
    }
    const current = working.has(ref.expr) ? working.get(ref.expr)!.value : read(ctx, ref);
    working.set(ref.expr, { ref, value: apply(operation, current, value, name) });
  }
  for (const { ref, value } of working.values()) {
    ctx.setInput(selectorText(ref), value);
    ctx.set(ref, value);
  }
}

function runV1(ctx: ComponentContext): void {
  const ref = selectorReference(ctx.params.assigned_variable_selector);
  if (!ref) throw new Error("assigned_variable_selector must choose a variable");
  const name = selectorText(ref);
  const mode = String(ctx.params.write_mode ?? "over-write");
  const current = read(ctx, ref);
  let value: unknown;
  if (mode === "clear") value = zeroOf(current);
  else {
    const input = readSelector(ctx, ctx.params.input_variable_selector);
    if (input === undefined) throw new Error(`${name}: the input variable ${JSON.stringify(ctx.params.input_variable_selector)} is not there`);
    value = mode === "append" ? apply("append", current, input, name) : input;
  }
  ctx.setInput(name, value);
  ctx.set(ref, value);
}

export const DifyAssigner: ComponentDefinition = {
  name: "DifyAssigner",
  thoughts: () => "",
  references: (params) =>
    isV2(params)
      ? referencesIn(items(params).flatMap((item) => [item.variable_selector, item.input_type === "variable" ? item.value : undefined]))
      : referencesIn([params.assigned_variable_selector, params.input_variable_selector]),
  writes: targets,
  writesVariables: targets,
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    if (isV2(params)) {
      items(params).forEach((item, index) => {
        if (!selectorReference(item.variable_selector)) problems.push({ pointer: `/items/${index}/variable_selector`, message: "an item must choose the variable it writes" });
        if (item.operation !== undefined && !V2_OPERATIONS.has(String(item.operation))) problems.push({ pointer: `/items/${index}/operation`, message: `unknown operation ${JSON.stringify(item.operation)}` });
      });
    } else {
      if (!selectorReference(params.assigned_variable_selector)) problems.push({ pointer: "/assigned_variable_selector", message: "the assigner must choose the variable it writes" });
      if (params.write_mode !== undefined && !V1_MODES.has(String(params.write_mode))) problems.push({ pointer: "/write_mode", message: `unknown write mode ${JSON.stringify(params.write_mode)}` });
    }
    return problems;
  },
  invoke(ctx) {
    if (isV2(ctx.params)) runV2(ctx);
    else runV1(ctx);
  },
};
