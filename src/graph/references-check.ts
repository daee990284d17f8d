/**
 * build()'s check of the references written with `ref()`, `env()` and `text`: each names a
 * component that was added and, when that component declares its outputs (Begin its inputs,
 * others their `outputs` param), one of them; each `env.x` names a declared variable.
 */
import type { ValidationIssue } from "../contracts/dsl.js";
import { isPlainObject } from "../util/values.js";
import { pointerSegment, referencesIn } from "./param-values.js";

export interface CheckedNode {
  readonly id: string;
  readonly component: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The output names a component declares, or undefined when it declares none (then any name is taken). */
export function declaredOutputs(node: CheckedNode): readonly string[] | undefined {
  const declared = node.component === "Begin" ? node.params.inputs : node.params.outputs;
  return isPlainObject(declared) && Object.keys(declared).length > 0 ? Object.keys(declared) : undefined;
}

export function referenceProblems(nodes: ReadonlyMap<string, CheckedNode>, variables: ReadonlySet<string>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const node of nodes.values()) {
    const base = `/components/${pointerSegment(node.id)}/obj/params`;
    for (const { ref, pointer } of referencesIn(node.params, base)) {
      const at = { severity: "error" as const, pointer, componentId: node.id, componentType: node.component };
      if (ref.kind === "global") {
        if (ref.scope === "env" && !variables.has(ref.key)) {
          const known = variables.size > 0 ? `declared: ${[...variables].join(", ")}` : "the canvas declares no variables";
          issues.push({ ...at, code: "undeclared-variable", message: `references env.${ref.key}, which the canvas does not declare (${known})` });
        }
        continue;
      }
      const target = nodes.get(ref.componentId);
      if (!target) {
        issues.push({ ...at, code: "unknown-component-reference", message: `references ${ref.selector}, but no component "${ref.componentId}" was added to the canvas` });
        continue;
      }
      const outputs = declaredOutputs(target);
      if (outputs && !outputs.includes(ref.output)) {
        const what = target.component === "Begin" ? "inputs" : "outputs";
        issues.push({
          ...at,
          code: "undeclared-output",
          message: `references ${ref.selector}, but ${target.id} (${target.component}) declares no output "${ref.output}" (its ${what}: ${outputs.join(", ")})`,
        });
      }
    }
  }
  return issues;
}
