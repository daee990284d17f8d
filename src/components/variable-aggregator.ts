/**
 * VariableAggregator: each group's output is the first of its candidate references that has a
 * value (research/ragflow.md §4.1). Its usual place is where the branches of a Switch or
 * Categorize join again: the branches not taken did not run this turn, so their outputs are
 * absent and skipped.
 *
 * "Has a value" means not null/undefined and not "": 0, false and [] count (RAGFlow skips every
 * falsy value, §8.18). A group with no value outputs null, which templates render as "".
 */
import { componentSchema } from "../dsl/schemas.js";
import { FORBIDDEN_PATH_KEYS, parseSelector, type Reference } from "../refs/grammar.js";
import { isBlank, isPlainObject, listParam } from "../util/values.js";
import type { ComponentDefinition, ParamProblem } from "./types.js";

interface Group {
  group_name?: unknown;
  variables?: unknown;
  type?: unknown;
}

/** Output keys the engine writes itself. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(["_ERROR", "_created_time", "_elapsed_time"]);

/** A candidate is `{value: "<selector>"}` (the editor) or the selector string itself (SDK-built canvases). */
function candidateText(candidate: unknown): unknown {
  return isPlainObject(candidate) ? candidate.value : candidate;
}

/** The selectors of a group, in order; blank candidates (unfilled editor rows) are left out. */
export function candidateSelectors(group: Group): string[] {
  return listParam(group.variables).map(candidateText).filter((text): text is string => typeof text === "string" && !isBlank(text));
}

/** The value a group takes: the first candidate value that is present (0 and false count). */
export function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined && value !== "";
}

function checkGroup(group: unknown, index: number, seen: Map<string, number>): ParamProblem[] {
  const at = `/groups/${index}`;
  if (!isPlainObject(group)) return [{ pointer: at, message: `group ${index + 1} must be an object with group_name and variables` }];
  const problems: ParamProblem[] = [];
  const name = (group as Group).group_name;
  const label = typeof name === "string" && name !== "" ? `group "${name}"` : `group ${index + 1}`;
  if (typeof name !== "string" || name.trim() === "") {
    problems.push({ pointer: `${at}/group_name`, message: `group ${index + 1} has no group_name` });
  } else if (FORBIDDEN_PATH_KEYS.has(name) || RESERVED_NAMES.has(name)) {
    problems.push({ pointer: `${at}/group_name`, message: `group_name "${name}" is reserved; choose another name` });
  } else if (seen.has(name)) {
    problems.push({ pointer: `${at}/group_name`, message: `group_name "${name}" is already used by group ${seen.get(name)! + 1}` });
  } else {
    seen.set(name, index);
  }
  const variables = (group as Group).variables;
  if (!Array.isArray(variables)) {
    problems.push({ pointer: `${at}/variables`, message: `${label}: variables must be a list of references` });
    return problems;
  }
  variables.forEach((candidate, i) => {
    const text = candidateText(candidate);
    if (isBlank(text)) {
      problems.push({ pointer: `${at}/variables/${i}`, severity: "warning", message: `${label}: candidate ${i + 1} is empty and is skipped` });
    } else if (typeof text !== "string" || parseSelector(text) === null) {
      problems.push({ pointer: `${at}/variables/${i}`, message: `${label}: candidate ${i + 1} (${JSON.stringify(text)}) is not a reference (expected cpn@var, sys.x or env.x)` });
    }
  });
  if (candidateSelectors(group as Group).length === 0) {
    problems.push({ pointer: `${at}/variables`, message: `${label} lists no variables` });
  }
  return problems;
}

export const VariableAggregator: ComponentDefinition = {
  name: "VariableAggregator",
  paramsSchema: componentSchema("VariableAggregator"),
  defaults: { groups: [] },
  thoughts: () => "Aggregating variables from canvas and grouping as configured.",
  references(params): Reference[] {
    const refs: Reference[] = [];
    for (const group of listParam(params.groups)) {
      if (!isPlainObject(group)) continue;
      for (const selector of candidateSelectors(group as Group)) {
        const ref = parseSelector(selector);
        if (ref) refs.push(ref);
      }
    }
    return refs;
  },
  check(params): ParamProblem[] {
    if (!Array.isArray(params.groups) || params.groups.length === 0) {
      return [{ pointer: "/groups", message: "groups must list at least one group" }];
    }
    const seen = new Map<string, number>();
    return params.groups.flatMap((group, index) => checkGroup(group, index, seen));
  },
  invoke(ctx) {
    if (!Array.isArray(ctx.params.groups)) throw new Error("groups must be a list of groups");
    ctx.params.groups.forEach((group, index) => {
      const name = isPlainObject(group) ? group.group_name : undefined;
      if (typeof name !== "string" || name.trim() === "") throw new Error(`group ${index + 1} has no group_name`);
      const selectors = candidateSelectors(group as Group);
      ctx.setInput(`${name}.variables`, selectors);
      let picked: unknown = null;
      for (const selector of selectors) {
        const value = ctx.get(selector);
        if (isPresent(value)) {
          picked = value;
          break;
        }
      }
      ctx.setOutput(name, picked);
    });
  },
};
