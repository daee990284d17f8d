/**
 * Dify's if-else: the first case whose conditions hold chooses its port (`case_id`), else the
 * port `false`. A missing variable fails the node.
 */
import type { ComponentDefinition, ParamProblem } from "../../components/types.js";
import { isPlainObject } from "../../util/values.js";
import { COMPARISON_OPERATORS, evaluateConditions, type Condition } from "../conditions.js";
import { selectorReference } from "../references.js";
import { list, referencesIn, renderText } from "./common.js";

interface Case {
  case_id?: unknown;
  logical_operator?: unknown;
  conditions?: unknown;
}

export function checkConditions(conditions: unknown, pointer: string): ParamProblem[] {
  if (!Array.isArray(conditions)) return [{ pointer, message: "conditions must be a list" }];
  const problems: ParamProblem[] = [];
  conditions.forEach((condition, index) => {
    const at = `${pointer}/${index}`;
    if (!isPlainObject(condition)) {
      problems.push({ pointer: at, message: "a condition must be an object" });
      return;
    }
    if (!selectorReference(condition.variable_selector)) problems.push({ pointer: `${at}/variable_selector`, message: "a condition needs a variable" });
    if (typeof condition.comparison_operator !== "string" || !COMPARISON_OPERATORS.has(condition.comparison_operator)) {
      problems.push({ pointer: `${at}/comparison_operator`, message: `unknown comparison operator ${JSON.stringify(condition.comparison_operator)}` });
    }
  });
  return problems;
}

export function conditionReferences(conditions: unknown): ReturnType<typeof referencesIn> {
  const rows = list(conditions).filter(isPlainObject);
  return referencesIn(
    rows.map((c) => c.variable_selector),
    rows.map((c) => c.value),
  );
}

export const DifyIfElse: ComponentDefinition = {
  name: "DifyIfElse",
  capabilities: { branches: true },
  thoughts: () => "",
  references: (params) => list(params.cases).flatMap((c) => (isPlainObject(c) ? conditionReferences(c.conditions) : [])),
  check(params): ParamProblem[] {
    if (!Array.isArray(params.cases)) return [{ pointer: "/cases", message: "an if-else needs cases" }];
    const problems: ParamProblem[] = [];
    params.cases.forEach((c, index) => {
      if (!isPlainObject(c) || typeof c.case_id !== "string" || c.case_id === "") problems.push({ pointer: `/cases/${index}/case_id`, message: "a case needs a case_id (its port)" });
      else problems.push(...checkConditions(c.conditions, `/cases/${index}/conditions`));
    });
    return problems;
  },
  invoke(ctx) {
    const reader = { read: (ref: Parameters<typeof ctx.get>[0]) => ctx.get(ref), render: (template: string) => renderText(ctx, template) };
    for (const c of list(ctx.params.cases)) {
      const kase = c as Case;
      if (!isPlainObject(kase) || typeof kase.case_id !== "string") continue;
      if (evaluateConditions(list(kase.conditions) as Condition[], kase.logical_operator, reader)) {
        ctx.setOutput("result", true);
        ctx.setOutput("selected_case_id", kase.case_id);
        return { handle: kase.case_id };
      }
    }
    ctx.setOutput("result", false);
    ctx.setOutput("selected_case_id", "false");
    return { handle: "false" };
  },
};
