/**
 * CodeExec (agent/tools/code_exec.py): runs `script` (a `main` function in Python or JavaScript)
 * with `arguments` read from the canvas, in the code sandbox (sandbox/code/: JavaScript in QuickJS,
 * Python in bubblewrap). Its `outputs` declare
 * exactly one business output (typed String, Number, Boolean, Object, Null, Any or Array<T>) that
 * receives the result (code/contract.ts).
 */
import { parseSelector, type Reference } from "../refs/grammar.js";
import type { ParamProblem, Params } from "../components/types.js";
import { isBlank, isPlainObject, jsonPointer, showValue } from "../util/values.js";
import { businessOutput, buildContract, canonicalContent, ContractError, inferActualType, isContractType, SYSTEM_OUTPUTS } from "./code/contract.js";
import { codeSandboxSettings } from "../sandbox/code/options.js";
import { runCode } from "../sandbox/code/run-code.js";
import { defineTool } from "./define-tool.js";
import { egressPolicyOf } from "../sandbox/egress/service.js";
import { ToolFailure, type ToolContext, type ToolOutput } from "./types.js";

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

/** "python" or "javascript" for the spellings RAGFlow accepts. */
export function normalizeLanguage(lang: unknown): "python" | "javascript" {
  const low = typeof lang === "string" ? lang.trim().toLowerCase() : "";
  if (low === "python" || low === "python3") return "python";
  if (low === "javascript" || low === "nodejs") return "javascript";
  throw new Error(`lang must be "python" or "javascript", not ${showValue(lang)}`);
}

/** A value as main receives it: JSON data (nothing becomes null). */
function jsonValue(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value) ?? "null");
}

/**
 * main's arguments: what the caller passed under an argument's name (an Agent's call), else the
 * value of the argument's reference, else null (RAGFlow's rule).
 */
function scriptArguments(params: Params, args: Record<string, unknown>, ctx: ToolContext): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, ref] of Object.entries(record(params.arguments))) {
    if (!isBlank(args[name])) values[name] = jsonValue(args[name]);
    else if (typeof ref !== "string" || ref.trim() === "") values[name] = null;
    else if (!ctx.get) throw new Error(`argument "${name}" refers to ${ref}, which can only be read when CodeExec runs inside a canvas`);
    else values[name] = jsonValue(ctx.get(ref));
  }
  return values;
}

/** The declared outputs; with no business output declared at all, one `result` of any type. */
function declaredOutputs(params: Params): Record<string, unknown> {
  const outputs = record(params.outputs);
  return Object.keys(outputs).some((name) => !SYSTEM_OUTPUTS.has(name)) ? outputs : { ...outputs, result: { type: "Any" } };
}

async function execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  const params = ctx.params;
  const lang = normalizeLanguage(args.lang ?? params.lang);
  const script = typeof args.script === "string" ? args.script : params.script;
  if (typeof script !== "string" || script.trim() === "") throw new Error("script is empty: CodeExec needs a script that defines main");
  const values = scriptArguments(params, args, ctx);
  const result = await runCode(lang, script, values, codeSandboxSettings(ctx.services.codeExec), { signal: ctx.signal, egress: () => egressPolicyOf(ctx.services) });

  const outputs = declaredOutputs(params);
  let contract;
  try {
    contract = buildContract(outputs, result);
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    const cleared = Object.fromEntries(Object.keys(outputs).filter((name) => !SYSTEM_OUTPUTS.has(name)).map((name) => [name, null]));
    throw new ToolFailure(error.message, { ...cleared, raw_result: result, actual_type: inferActualType(result), content: canonicalContent(result) });
  }
  return {
    [contract.businessOutput]: contract.value,
    content: contract.content,
    actual_type: contract.actualType,
    raw_result: result,
    attachments: [],
    formalized_content: contract.content,
  };
}

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
  run: execute,
  references: argumentReferences,
  check: (params) => {
    const problems: ParamProblem[] = [];
    if (typeof params.script !== "string" || params.script.trim() === "") problems.push({ pointer: "/script", message: "script is empty: CodeExec needs a main function to run" });
    return [...problems, ...checkArguments(params), ...checkOutputs(params)];
  },
});
