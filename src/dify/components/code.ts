/**
 * Dify's code node: `main(**variables)` in Python or `main({variables})` in JavaScript, in
 * canvasflow's code sandbox (sandbox/code/), as RAGFlow's CodeExec runs. It returns a dict whose keys are
 * the declared outputs, each checked against its type and Dify's limits (strings up to 400 000
 * characters, NUL bytes removed, nesting up to 5 levels, arrays up to 1000 numbers or 30
 * strings / objects).
 */
import type { ComponentDefinition, ParamProblem } from "../../components/types.js";
import { codeSandboxSettings } from "../../sandbox/code/options.js";
import { isPlainObject } from "../../util/values.js";
import { egressPolicyOf } from "../../sandbox/egress/service.js";
import { checkVariableRows, list, record, referencesIn, rowValues } from "./common.js";

const CODE_LIMITS = { string: 400_000, depth: 5, numbers: 1000, strings: 30, objects: 30 } as const;

const OUTPUT_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array[string]", "array[number]", "array[object]", "array[boolean]", "array[any]", "any"]);

function language(value: unknown): "python" | "javascript" {
  if (value === "python3" || value === "python") return "python";
  if (value === "javascript" || value === "nodejs") return "javascript";
  throw new Error(`code_language ${JSON.stringify(value)} is not supported (python3 or javascript)`);
}

/** Check one declared output against its type; returns the value as Dify stores it. */
function checkOutput(name: string, type: string, value: unknown, depth = 1): unknown {
  if (depth > CODE_LIMITS.depth) throw new Error(`output ${name} is nested deeper than ${CODE_LIMITS.depth} levels`);
  if (value === null || value === undefined) return null;
  const fail = (what: string) => new Error(`output ${name} must be ${what}, got ${JSON.stringify(value)?.slice(0, 80)}`);
  switch (type) {
    case "string": {
      if (typeof value !== "string") throw fail("a string");
      const text = value.replace(/\u0000/g, "");
      if (text.length > CODE_LIMITS.string) throw new Error(`output ${name} is ${text.length} characters long, more than ${CODE_LIMITS.string}`);
      return text;
    }
    case "number":
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) throw fail("a number");
      return value;
    case "boolean":
      if (typeof value !== "boolean") throw fail("a boolean");
      return value;
    case "object":
      if (!isPlainObject(value)) throw fail("an object");
      return value;
    case "any":
      return value;
    default: {
      if (!type.startsWith("array[")) return value;
      if (!Array.isArray(value)) throw fail("an array");
      const item = type.slice(6, -1);
      const limit = item === "number" ? CODE_LIMITS.numbers : item === "string" ? CODE_LIMITS.strings : item === "object" ? CODE_LIMITS.objects : Number.POSITIVE_INFINITY;
      if (value.length > limit) throw new Error(`output ${name} has ${value.length} items, more than ${limit}`);
      return item === "any" ? value : value.map((v, i) => checkOutput(`${name}[${i}]`, item, v, depth + 1));
    }
  }
}

export const DifyCode: ComponentDefinition = {
  name: "DifyCode",
  thoughts: () => "",
  timeoutMs: 600_000,
  references: (params) => referencesIn(list(params.variables).map((v) => (isPlainObject(v) ? v.value_selector : undefined))),
  check(params, info): ParamProblem[] {
    const problems = checkVariableRows(params, "variables", "variable", info);
    if (typeof params.code !== "string" || params.code.trim() === "") problems.push({ pointer: "/code", message: "the code node has no code (it must define main)" });
    try {
      language(params.code_language);
    } catch (error) {
      problems.push({ pointer: "/code_language", message: (error as Error).message });
    }
    for (const [name, spec] of Object.entries(record(params.outputs))) {
      const type = record(spec).type;
      if (typeof type !== "string" || !OUTPUT_TYPES.has(type)) problems.push({ pointer: `/outputs/${name}/type`, message: `output ${name} has the unknown type ${JSON.stringify(type)}` });
    }
    return problems;
  },
  async invoke(ctx) {
    const lang = language(ctx.params.code_language);
    const code = String(ctx.params.code ?? "");
    const args = JSON.parse(JSON.stringify(rowValues(ctx, ctx.params.variables))) as Record<string, unknown>;
    // The sandbox is loaded when a code node first runs.
    const { runCode } = await import("../../sandbox/code/run-code.js");
    const run = () => runCode(lang, code, args, codeSandboxSettings(ctx.services.codeExec), { signal: ctx.signal, egress: () => egressPolicyOf(ctx.services) });
    const result = ctx.span ? await ctx.span("canvasflow.code_exec", { "canvasflow.code_exec.language": lang }, run) : await run();
    if (!isPlainObject(result)) throw new Error(`main must return a dict of the declared outputs, got ${JSON.stringify(result)?.slice(0, 80)}`);
    for (const [name, spec] of Object.entries(record(ctx.params.outputs))) {
      if (!Object.hasOwn(result, name)) throw new Error(`output ${name} is missing from what main returned`);
      ctx.setOutput(name, checkOutput(name, String(record(spec).type ?? "any"), result[name]));
    }
  },
};
