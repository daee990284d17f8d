/**
 * CodeExec (agent/tools/code_exec.py): runs `script` (a `main` function in Python or JavaScript)
 * in a sandbox with `arguments` read from the canvas. Its `outputs` declare exactly one business
 * output (typed String, Number, Boolean, Object, Null, Any or Array<T>) that receives the result.
 */
import { parseSelector, type Reference } from "../refs/grammar.js";
import type { ParamProblem, Params } from "../components/types.js";
import { isPlainObject, jsonPointer } from "../util/values.js";
import { defineTool } from "./define-tool.js";

/** Outputs CodeExec sets itself; none of them can be the business output. */
const SYSTEM_OUTPUTS: ReadonlySet<string> = new Set([
  "content", "actual_type", "attachments", "_ERROR", "_ARTIFACTS", "_ATTACHMENT_CONTENT", "raw_result", "_created_time", "_elapsed_time",
]);

const SIMPLE_TYPES: ReadonlySet<string> = new Set(["string", "number", "boolean", "object", "null", "any"]);

/** Whether a declared output type is one the result can be checked against (code_exec_contract). */
export function isContractType(type: string): boolean {
  const t = type.trim().toLowerCase();
  if (t === "" || SIMPLE_TYPES.has(t)) return true;
  return t.startsWith("array<") && t.endsWith(">") && isContractType(t.slice(6, -1)) && t.slice(6, -1).trim() !== "";
}

function record(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

/** The name of the one business output, or the problem that prevents choosing it. */
export function businessOutput(outputs: Record<string, unknown>): { name: string } | { problem: string } {
  const names = Object.keys(outputs);
  const candidates = names.length === 1 ? names : names.filter((name) => !SYSTEM_OUTPUTS.has(name));
  if (candidates.length !== 1) return { problem: `outputs must declare exactly one business output besides ${[...SYSTEM_OUTPUTS].slice(0, 3).join(", ")}…, found ${candidates.length}` };
  const name = candidates[0];
  if (name.trim() === "") return { problem: "the business output name is empty" };
  if (SYSTEM_OUTPUTS.has(name)) return { problem: `"${name}" is reserved and cannot be the business output` };
  if (name.includes(".")) return { problem: `the business output name "${name}" must not contain "."` };
  return { name };
}

function checkOutputs(params: Params): ParamProblem[] {
  const outputs = record(params.outputs);
  const chosen = businessOutput(outputs);
  if ("problem" in chosen) return [{ pointer: "/outputs", message: chosen.problem }];
  const type = record(outputs[chosen.name]).type;
  if (type === undefined || type === null || (typeof type === "string" && isContractType(type))) return [];
  return [{ pointer: jsonPointer("outputs", chosen.name, "type"), message: `output "${chosen.name}" has type ${JSON.stringify(type)}; use String, Number, Boolean, Object, Null, Any or Array<…>` }];
}

/** Each argument is read with get_variable_value: a non-empty value must be a reference. */
function checkArguments(params: Params): ParamProblem[] {
  return Object.entries(record(params.arguments)).flatMap(([name, value]): ParamProblem[] => {
    if (value === undefined || value === null || value === "") return [];
    return typeof value === "string" && parseSelector(value) !== null
      ? []
      : [{ pointer: jsonPointer("arguments", name), message: `argument "${name}" must be a reference such as "begin@${name}", not ${JSON.stringify(value)}` }];
  });
}

function argumentReferences(params: Params): Reference[] {
  return Object.values(record(params.arguments)).flatMap((value) => {
    const ref = typeof value === "string" ? parseSelector(value) : null;
    return ref ? [ref] : [];
  });
}

export const CodeExec = defineTool({
  name: "CodeExec",
  meta: {
    lang: { default: "python", textOnly: true },
    script: { default: 'def main(arg1: str, arg2: str) -> dict: return {"result": arg1 + arg2}', textOnly: true },
  },
  defaults: {
    arguments: {},
    outputs: { result: { value: "", type: "object" }, attachments: { value: [], type: "Array<String>" } },
  },
  timeoutSeconds: 600,
  primaryOutput: "result",
  references: argumentReferences,
  check: (params) => {
    const problems: ParamProblem[] = [];
    if (typeof params.script !== "string" || params.script.trim() === "") problems.push({ pointer: "/script", message: "script is empty: CodeExec needs a main function to run" });
    return [...problems, ...checkArguments(params), ...checkOutputs(params)];
  },
});
