/**
 * Dify's variable-aggregator: the first of its variables that is there (an empty string counts,
 * unlike canvasflow's VariableAggregator), or, with groups, one such value per group, read as
 * `[node, group, output]`.
 */
import type { ComponentDefinition, ParamProblem } from "../../components/types.js";
import { isPlainObject } from "../../util/values.js";
import { selectorReference } from "../references.js";
import { list, readSelector, record, referencesIn } from "./common.js";

function firstPresent(ctx: Parameters<typeof readSelector>[0], selectors: unknown): unknown {
  for (const selector of list(selectors)) {
    const value = readSelector(ctx, selector);
    if (value !== undefined) return value;
  }
  return null;
}

function groups(params: Record<string, unknown>): Array<{ name: string; variables: unknown[] }> {
  const settings = record(params.advanced_settings);
  if (settings.group_enabled !== true) return [];
  return list(settings.groups)
    .filter(isPlainObject)
    .filter((g) => typeof g.group_name === "string" && g.group_name !== "")
    .map((g) => ({ name: g.group_name as string, variables: list(g.variables) }));
}

export const DifyVariableAggregator: ComponentDefinition = {
  name: "DifyVariableAggregator",
  thoughts: () => "",
  references: (params) => referencesIn([...list(params.variables), ...groups(params).flatMap((g) => g.variables)]),
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    list(params.variables).forEach((selector, index) => {
      if (!selectorReference(selector)) problems.push({ pointer: `/variables/${index}`, message: `${JSON.stringify(selector)} is not a variable selector` });
    });
    return problems;
  },
  invoke(ctx) {
    const grouped = groups(ctx.params);
    if (grouped.length === 0) {
      ctx.setOutput("output", firstPresent(ctx, ctx.params.variables));
      return;
    }
    for (const group of grouped) ctx.setOutput(group.name, { output: firstPresent(ctx, group.variables) });
  },
};
