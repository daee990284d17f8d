/**
 * Branch targets of routers (Categorize `to`, Switch `to` / `end_cpn_ids`): the component ids a
 * branch continues with.
 */
import { jsonPointer } from "../util/values.js";
import type { CheckInfo, ParamProblem } from "./types.js";

/** A branch's target ids: a list, or a single id written as a string (older DSLs). */
export function targetIds(value: unknown): string[] {
  if (typeof value === "string") return value === "" ? [] : [value];
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string" && id !== "") : [];
}

/**
 * Targets that are not components of the canvas. Editors leave stale ids behind when a node is
 * deleted: while the branch still has an existing target it goes somewhere (warning); when none
 * of its targets exists the branch leads nowhere (error).
 */
export function checkBranchTargets(value: unknown, segments: Array<string | number>, branch: string, info: CheckInfo): ParamProblem[] {
  const ids = targetIds(value);
  const existing = ids.filter((id) => info.hasComponent(id));
  const problems: ParamProblem[] = [];
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  list.forEach((id, i) => {
    if (typeof id !== "string" || id === "" || info.hasComponent(id)) return;
    const pointer = Array.isArray(value) ? jsonPointer(...segments, i) : jsonPointer(...segments);
    problems.push(
      existing.length > 0
        ? { pointer, severity: "warning", message: `stale route target "${id}" in ${branch} (not a component of this canvas), skipped when the branch is taken` }
        : { pointer, message: `${branch} leads to "${id}", which is not a component of this canvas` },
    );
  });
  return problems;
}
