/**
 * VariableAssigner: changes conversation variables (`env.x`), system globals (`sys.x`) and
 * component outputs (`cpn@var`, e.g. Loop variables) with one operator per row
 * (research/ragflow.md §4.1). Rows apply in order, each seeing the previous rows' results. If a
 * row fails, the rows already applied are undone, so a failed assignment changes nothing (and a
 * retry does not apply a `+=` twice).
 *
 * A `sys.x` that does not exist yet is created, as RAGFlow's set_variable_value and its Go port
 * do; its current value is nothing. An `env.x` must be declared in the DSL's `variables`: that is
 * where a conversation variable gets its type and default, and a typo would otherwise create a
 * variable silently.
 */
import { componentSchema } from "../dsl/schemas.js";
import { MissingReferenceError } from "../pool/pool.js";
import { isSystemGlobal, SYSTEM_GLOBAL_WRITES } from "../pool/variables.js";
import { findReferences, parseSelector, type Reference } from "../refs/grammar.js";
import { isPlainObject, listParam, showValue } from "../util/values.js";
import {
  ARITHMETIC_OPERATORS,
  ASSIGN_OPERATORS,
  appendedItem,
  assignedValue,
  checkAppend,
  isAssignOperator,
  numericParameter,
  PARAMETERLESS_OPERATORS,
  REFERENCE_OPERATORS,
  type AssignOperator,
} from "./variable-operations.js";
import type { ComponentContext, ComponentDefinition, Params, ParamProblem } from "./types.js";

interface AssignmentRow {
  variable?: unknown;
  operator?: unknown;
  parameter?: unknown;
}

function hasParameter(row: AssignmentRow): boolean {
  return row.parameter !== undefined && row.parameter !== null;
}

/** What is wrong with a row, or nothing. Shared by check() (at load) and invoke() (if loaded unchecked). */
function rowProblems(row: unknown, index: number): ParamProblem[] {
  const at = `/variables/${index}`;
  const name = `assignment ${index + 1}`;
  if (!isPlainObject(row)) return [{ pointer: at, message: `${name} must be an object with variable, operator and parameter` }];
  const { variable, operator, parameter } = row as AssignmentRow;
  const problems: ParamProblem[] = [];
  if (typeof variable !== "string" || variable.trim() === "") {
    problems.push({ pointer: `${at}/variable`, message: `${name} has no variable` });
  } else {
    const target = parseSelector(variable);
    if (target === null) {
      problems.push({ pointer: `${at}/variable`, message: `${name}: variable "${variable}" is not a reference (expected env.x, sys.x or cpn@var)` });
    } else if (target.kind === "global" && isSystemGlobal(target.key)) {
      problems.push({
        pointer: `${at}/variable`,
        severity: "warning",
        message: `${name} changes ${target.key}, which the runtime also writes: ${SYSTEM_GLOBAL_WRITES[target.key]}`,
      });
    }
  }
  if (!isAssignOperator(operator)) {
    const what = operator === undefined || operator === null || operator === "" ? "has no operator" : `has the unknown operator ${JSON.stringify(operator)}`;
    problems.push({ pointer: `${at}/operator`, message: `${name} ${what} (use one of: ${ASSIGN_OPERATORS.join(", ")})` });
    return problems;
  }
  if (PARAMETERLESS_OPERATORS.has(operator)) return problems;
  if (!hasParameter(row as AssignmentRow)) {
    problems.push({ pointer: `${at}/parameter`, message: `${name}: operator "${operator}" needs a parameter` });
  } else if (ARITHMETIC_OPERATORS.has(operator)) {
    let n: number | undefined;
    try {
      n = numericParameter(parameter);
    } catch (error) {
      problems.push({ pointer: `${at}/parameter`, message: `${name} (${operator}): ${(error as Error).message}` });
    }
    if (operator === "/=" && n === 0) problems.push({ pointer: `${at}/parameter`, message: `${name}: /= 0 is a division by zero` });
  }
  return problems;
}

/** The text naming a row in run-time errors: "env.counter += 1". */
function rowLabel(row: AssignmentRow): string {
  const parameter = row.parameter;
  const shown =
    parameter === undefined || parameter === null ? "" : typeof parameter === "string" && parseSelector(parameter) !== null ? ` ${parameter}` : ` ${showValue(parameter)}`;
  return `${String(row.variable)} ${String(row.operator)}${shown}`;
}

/**
 * The target's value before the row; undefined for a `sys.x` the run has not created yet (the
 * row creates it, and undoing the row removes it again).
 */
function currentValue(ctx: ComponentContext<Params>, ref: Reference): unknown {
  try {
    return ctx.get(ref);
  } catch (error) {
    if (!(error instanceof MissingReferenceError && ref.kind === "global" && ref.scope === "sys")) throw error;
    ctx.setInput(ref.expr, null);
    return undefined;
  }
}

function applyRows(ctx: ComponentContext<Params>): void {
  if (ctx.params.variables !== undefined && !Array.isArray(ctx.params.variables)) {
    throw new Error("variables must be a list of assignments");
  }
  const undo: Array<() => void> = [];
  const access = { read: (selector: string) => ctx.get(selector), render: (template: string) => ctx.render(template) };
  try {
    listParam(ctx.params.variables).forEach((raw, index) => {
      const invalid = rowProblems(raw, index).find((problem) => problem.severity !== "warning");
      if (invalid) throw new Error(invalid.message);
      const row = raw as AssignmentRow;
      const ref = parseSelector(String(row.variable))!;
      try {
        if (row.operator === "append") {
          // Through the pool, so appending in a loop of any length stays linear.
          const item = appendedItem(row.parameter, access);
          undo.push(ctx.append(ref, item, (current) => checkAppend(current, item)));
          return;
        }
        const previous = currentValue(ctx, ref);
        const next = assignedValue(row.operator as AssignOperator, previous, row.parameter, access);
        ctx.set(ref, next);
        undo.push(() => ctx.set(ref, previous));
      } catch (error) {
        throw new Error(`${rowLabel(row)}: ${(error as Error).message}`);
      }
    });
  } catch (error) {
    // Undo in reverse order, so a failed assignment changes nothing.
    for (const step of undo.reverse()) step();
    throw error;
  }
}

/**
 * The references of the rows: each parameter's source, and each target when `withTargets` (or
 * when its operator computes from the current value, which is a read: `+=` on nothing fails,
 * whereas set, clear, append… on nothing start from an empty value).
 */
function rowReferences(params: Params, withTargets: boolean): Reference[] {
  const refs: Reference[] = [];
  for (const row of listParam(params.variables)) {
    if (!isPlainObject(row)) continue;
    const { variable, operator, parameter } = row as AssignmentRow;
    const target = typeof variable === "string" ? parseSelector(variable) : null;
    if (target && (withTargets || (typeof operator === "string" && ARITHMETIC_OPERATORS.has(operator)))) refs.push(target);
    if (typeof parameter !== "string") continue;
    if (typeof operator === "string" && REFERENCE_OPERATORS.has(operator)) {
      const source = parseSelector(parameter);
      if (source) refs.push(source);
    } else if (operator === "set") {
      refs.push(...findReferences(parameter));
    }
  }
  return refs;
}

export const VariableAssigner: ComponentDefinition = {
  name: "VariableAssigner",
  paramsSchema: componentSchema("VariableAssigner"),
  defaults: { variables: [] },
  thoughts: () => "Assign variables from canvas.",
  references(params): Reference[] {
    // A target is waited for as well: written before its owner runs, the value would be reset.
    return rowReferences(params, true);
  },
  reads(params): Reference[] {
    return rowReferences(params, false);
  },
  writes(params): Reference[] {
    return listParam(params.variables).flatMap((row) => {
      const variable = isPlainObject(row) ? (row as AssignmentRow).variable : undefined;
      const target = typeof variable === "string" ? parseSelector(variable) : null;
      return target ? [target] : [];
    });
  },
  check(params): ParamProblem[] {
    // A non-list is reported by the params schema.
    if (!Array.isArray(params.variables)) return [];
    if (params.variables.length === 0) return [{ pointer: "/variables", severity: "warning", message: "no assignment is configured: the component changes nothing" }];
    return params.variables.flatMap((row, index) => rowProblems(row, index));
  },
  invoke(ctx) {
    applyRows(ctx);
  },
};
