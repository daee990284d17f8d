/**
 * CodeExec (agent/tools/code_exec.py): runs `script` (a `main` function in Python or JavaScript)
 * with `arguments` read from the canvas, in the code sandbox (sandbox/code/: JavaScript in QuickJS,
 * Python in bubblewrap). Its `outputs` declare
 * exactly one business output (typed String, Number, Boolean, Object, Null, Any or Array<T>) that
 * receives the result (code/contract.ts).
 */
import { parseSelector, type Reference } from "../refs/grammar.js";
import type { ParamProblem, Params } from "../components/types.js";
import { isPlainObject, jsonPointer } from "../util/values.js";
import { businessOutput, isContractType } from "./code/contract.js";
import { defineTool, lazyRun } from "./define-tool.js";

export { businessOutput, isContractType } from "./code/contract.js";

function record(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
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

export { normalizeLanguage } from "./code/language.js";

export const CodeExec = defineTool({
  name: "CodeExec",
  functionName: "execute_code",
  description: [
    "This tool has a sandbox that can execute code written in 'Python'/'Javascript'. It receives a piece of code and returns the result of its `main` function as JSON.",
    "",
    "Python (`main` MUST be defined; it receives the arguments as keyword arguments):",
    "def main() -> dict:",
    "    return {\"result\": sum(range(10))}",
    "",
    "JavaScript (`main` MUST be defined; it receives the arguments as one object and may be async). There is no require, no I/O, no timers and no network:",
    "function main(args) {",
    "  return { result: [1, 2, 3].map((n) => n * 2) };",
    "}",
  ].join("\n"),
  meta: {
    lang: { default: "python", textOnly: true, type: "string", description: "The programming language of this piece of code.", enum: ["python", "javascript"], required: true },
    script: {
      default: 'def main(arg1: str, arg2: str) -> dict: return {"result": arg1 + arg2}',
      textOnly: true,
      type: "string",
      description: "A piece of code in right format. There MUST be main function.",
      required: true,
    },
  },
  defaults: {
    arguments: {},
    outputs: { result: { value: "", type: "object" }, attachments: { value: [], type: "Array<String>" } },
  },
  timeoutSeconds: 600,
  primaryOutput: "result",
  thoughts: () => "Running a short script to process data.",
  run: lazyRun(() => import("./code/execute.js"), (m) => m.execute),
  references: argumentReferences,
  check: (params) => {
    const problems: ParamProblem[] = [];
    if (typeof params.script !== "string" || params.script.trim() === "") problems.push({ pointer: "/script", message: "script is empty: CodeExec needs a main function to run" });
    return [...problems, ...checkArguments(params), ...checkOutputs(params)];
  },
});
