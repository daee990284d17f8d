/**
 * Switch: routes to the targets of the first case whose condition holds, else to the else
 * branch `end_cpn_ids` (research/ragflow.md §4.1). Each condition item compares the value of a
 * bare reference (`cpn_id`) with a literal `value`.
 */
import { componentSchema } from "../dsl/schemas.js";
import { parseSelector, type Reference } from "../refs/grammar.js";
import { isPlainObject, listParam } from "../util/values.js";
import { checkBranchTargets, targetIds } from "./branch-targets.js";
import { evaluateSwitchItem, isSwitchOperator, SWITCH_OPERATORS } from "./switch-operators.js";
import type { CheckInfo, ComponentDefinition, Params, ParamProblem, RouteBranch } from "./types.js";

interface ConditionItem {
  cpn_id?: unknown;
  operator?: unknown;
  value?: unknown;
}

interface Condition {
  logical_operator?: unknown;
  items?: unknown;
  to?: unknown;
}

/** An item with an empty `cpn_id` is an unfilled editor row: it is skipped (RAGFlow does the same). */
function isFilled(item: unknown): item is ConditionItem & { cpn_id: string } {
  return isPlainObject(item) && typeof item.cpn_id === "string" && item.cpn_id.trim() !== "";
}

/**
 * Whether a case's condition holds. Only "and" needs every item; any other logical_operator
 * means "or" and stops at the first item that holds (as RAGFlow). "and" evaluates every item,
 * so all of them are recorded as inputs. A case whose items are all unfilled never matches.
 */
function conditionHolds(condition: Condition, at: string, read: (selector: string) => unknown): boolean {
  const items = listParam(condition.items);
  const every = condition.logical_operator === "and";
  let evaluated = 0;
  let all = true;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isFilled(item)) continue;
    evaluated++;
    let holds: boolean;
    try {
      holds = evaluateSwitchItem(read(item.cpn_id), item.operator, item.value ?? "");
    } catch (error) {
      throw new Error(`${at}, item ${i + 1} (${item.cpn_id}): ${(error as Error).message}`);
    }
    if (!every && holds) return true;
    all &&= holds;
  }
  return every && evaluated > 0 && all;
}

/** The ids the Switch continues with, reading each item's reference through `read`. */
export function chooseRoute(params: Params, read: (selector: string) => unknown): string[] {
  if (!Array.isArray(params.conditions)) throw new Error("conditions must be a list of cases");
  const conditions = params.conditions;
  for (let i = 0; i < conditions.length; i++) {
    const condition = conditions[i];
    if (!isPlainObject(condition)) throw new Error(`conditions[${i}] must be an object, not ${JSON.stringify(condition)}`);
    if (conditionHolds(condition, `case ${i + 1}`, read)) return targetIds(condition.to);
  }
  return targetIds(params.end_cpn_ids);
}

function checkCondition(condition: unknown, index: number, info: CheckInfo): ParamProblem[] {
  const at = `/conditions/${index}`;
  const name = `case ${index + 1}`;
  if (!isPlainObject(condition)) return [{ pointer: at, message: `${name} must be an object with items and to` }];
  const problems: ParamProblem[] = [];
  if (targetIds(condition.to).length === 0) {
    problems.push({ pointer: `${at}/to`, message: `${name} has no target: 'to' must list at least one component` });
  } else {
    problems.push(...checkBranchTargets(condition.to, ["conditions", index, "to"], name, info));
  }
  if (condition.items !== undefined && !Array.isArray(condition.items)) {
    problems.push({ pointer: `${at}/items`, message: `${name}: items must be a list` });
    return problems;
  }
  const items = listParam(condition.items);
  let filled = 0;
  items.forEach((item, i) => {
    if (!isFilled(item)) return;
    filled++;
    if (parseSelector(item.cpn_id) === null) {
      problems.push({ pointer: `${at}/items/${i}/cpn_id`, message: `${name}, item ${i + 1}: "${item.cpn_id}" is not a reference (expected cpn@var, sys.x or env.x)` });
    }
    if (!isSwitchOperator(item.operator)) {
      problems.push({
        pointer: `${at}/items/${i}/operator`,
        message: `${name}, item ${i + 1}: unknown operator ${JSON.stringify(item.operator)} (use one of: ${SWITCH_OPERATORS.join(", ")})`,
      });
    }
  });
  if (filled === 0) {
    problems.push({ pointer: `${at}/items`, severity: "warning", message: `${name} has no condition item with a reference: it never matches` });
  }
  const op = condition.logical_operator;
  if (filled > 1 && op !== "and" && op !== "or") {
    problems.push({
      pointer: `${at}/logical_operator`,
      severity: "warning",
      message: `${name}: logical_operator ${JSON.stringify(op ?? null)} is treated as "or" (only "and" requires every item), as RAGFlow does`,
    });
  }
  return problems;
}

/** A case as people read it: `x > 5 and y contains "a"`; an unfilled case reads as its number. */
function caseLabel(condition: Condition, index: number): string {
  const joiner = condition.logical_operator === "and" ? " and " : " or ";
  const items = listParam(condition.items).filter(isFilled);
  const text = items.map((item) => `${item.cpn_id} ${String(item.operator ?? "")} ${JSON.stringify(item.value ?? "")}`.replace(/\s+/g, " ")).join(joiner);
  return text === "" ? `case ${index + 1}` : text;
}

/** The cases in order, then the else branch. */
function switchBranches(params: Params): RouteBranch[] {
  const branches: RouteBranch[] = listParam(params.conditions).map((condition, index) =>
    isPlainObject(condition) ? { label: caseLabel(condition, index), targets: targetIds(condition.to) } : { label: `case ${index + 1}`, targets: [] },
  );
  branches.push({ label: "else", targets: targetIds(params.end_cpn_ids) });
  return branches;
}

export const Switch: ComponentDefinition = {
  name: "Switch",
  paramsSchema: componentSchema("Switch"),
  defaults: { conditions: [], end_cpn_ids: [] },
  capabilities: { router: true },
  thoughts: () => "I’m weighing a few options and will pick the next step shortly.",
  branches: switchBranches,
  references(params): Reference[] {
    const refs: Reference[] = [];
    for (const condition of listParam(params.conditions)) {
      if (!isPlainObject(condition)) continue;
      for (const item of listParam(condition.items)) {
        const ref = isFilled(item) ? parseSelector(item.cpn_id) : null;
        if (ref) refs.push(ref);
      }
    }
    return refs;
  },
  check(params, info): ParamProblem[] {
    const problems: ParamProblem[] = [];
    // Values of the wrong JSON type are reported by the params schema.
    if (Array.isArray(params.conditions)) {
      if (params.conditions.length === 0) problems.push({ pointer: "/conditions", message: "conditions must list at least one case" });
      params.conditions.forEach((condition, index) => problems.push(...checkCondition(condition, index, info)));
    }
    if (targetIds(params.end_cpn_ids).length === 0 && (Array.isArray(params.end_cpn_ids) || typeof params.end_cpn_ids === "string")) {
      problems.push({ pointer: "/end_cpn_ids", message: "the else branch (end_cpn_ids) must list at least one component" });
    } else {
      problems.push(...checkBranchTargets(params.end_cpn_ids, ["end_cpn_ids"], "the else branch", info));
    }
    return problems;
  },
  invoke(ctx) {
    const next = chooseRoute(ctx.params, (selector) => ctx.get(selector));
    ctx.setOutput("_next", [...next]);
    ctx.setOutput("next", next.map((id) => ctx.canvas.component(id)?.displayName ?? id));
    return { next };
  },
};
