/**
 * CodeExec's run: the script in the code sandbox, its result checked against the declared
 * outputs. Loaded when a script first runs (tools/code-exec.ts holds the definition), with the
 * sandbox it needs.
 */
import type { Params } from "../../components/types.js";
import { codeSandboxSettings } from "../../sandbox/code/options.js";
import { runCode } from "../../sandbox/code/run-code.js";
import { egressPolicyOf } from "../../sandbox/egress/service.js";
import { isBlank, isPlainObject } from "../../util/values.js";
import { ToolFailure, type ToolContext, type ToolOutput } from "../types.js";
import { normalizeLanguage } from "./language.js";
import { buildContract, canonicalContent, ContractError, inferActualType, SYSTEM_OUTPUTS } from "./contract.js";

function record(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
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

export async function execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  const params = ctx.params;
  const lang = normalizeLanguage(args.lang ?? params.lang);
  const script = typeof args.script === "string" ? args.script : params.script;
  if (typeof script !== "string" || script.trim() === "") throw new Error("script is empty: CodeExec needs a script that defines main");
  const values = scriptArguments(params, args, ctx);
  const run = () => runCode(lang, script, values, codeSandboxSettings(ctx.services.codeExec), { signal: ctx.signal, egress: () => egressPolicyOf(ctx.services) });
  const result = ctx.span ? await ctx.span("canvasflow.code_exec", { "canvasflow.code_exec.language": lang }, run) : await run();

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
