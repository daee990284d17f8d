/**
 * Dify's Start: the run's inputs, checked and typed by the form it declares (`variables`). A
 * required input that is missing refuses the run (Dify answers 400 before running; the CLI
 * gives a usage error that lists the form).
 */
import type { ComponentDefinition, InputField, ParamProblem, Params } from "../../components/types.js";
import { isPlainObject } from "../../util/values.js";
import { list } from "./common.js";

export interface StartVariable {
  variable: string;
  label?: string;
  type?: string;
  required?: boolean;
  max_length?: number | null;
  options?: unknown[];
  default?: unknown;
}

const START_VARIABLE_TYPES: ReadonlySet<string> = new Set([
  "text-input",
  "paragraph",
  "select",
  "number",
  "file",
  "file-list",
  "checkbox",
  "json_object",
  "external_data_tool",
]);

export function startVariables(params: Params): StartVariable[] {
  return list(params.variables).filter((v): v is StartVariable => isPlainObject(v) && typeof v.variable === "string" && v.variable !== "") as StartVariable[];
}

/** The Start's form as canvasflow describes input fields. */
export function startForm(params: Params): Record<string, InputField> {
  const form: Record<string, InputField> = {};
  for (const v of startVariables(params)) {
    form[v.variable] = {
      name: typeof v.label === "string" && v.label !== "" ? v.label : v.variable,
      type: v.type ?? "text-input",
      optional: v.required !== true,
      ...(Array.isArray(v.options) && v.options.length > 0 ? { options: v.options } : {}),
      ...(v.default !== undefined && v.default !== null && v.default !== "" ? { value: v.default } : {}),
    };
  }
  return form;
}

/** The form in one line, for a usage error: `query (text-input, required), blocking (number)`. */
export function describeForm(params: Params): string {
  const rows = startVariables(params).map((v) => `${v.variable} (${v.type ?? "text-input"}${v.required ? ", required" : ""})`);
  return rows.length > 0 ? rows.join(", ") : "no inputs";
}

function typed(variable: StartVariable, value: unknown): unknown {
  const name = variable.variable;
  switch (variable.type ?? "text-input") {
    case "number": {
      if (typeof value === "number") return value;
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
      if (!Number.isFinite(n)) throw new Error(`input ${name} must be a number, got ${JSON.stringify(value)}`);
      return n;
    }
    case "checkbox":
      if (typeof value === "boolean") return value;
      if (value === "true" || value === "1" || value === 1) return true;
      if (value === "false" || value === "0" || value === 0) return false;
      throw new Error(`input ${name} must be true or false, got ${JSON.stringify(value)}`);
    case "json_object": {
      const parsed = typeof value === "string" ? parseJsonObject(name, value) : value;
      if (!isPlainObject(parsed)) throw new Error(`input ${name} must be a JSON object`);
      return parsed;
    }
    case "file":
    case "file-list":
      return value;
    default: {
      const text = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;
      if (text === undefined) throw new Error(`input ${name} must be text, got ${JSON.stringify(value)}`);
      if (typeof variable.max_length === "number" && variable.max_length > 0 && [...text].length > variable.max_length) {
        throw new Error(`input ${name} must be at most ${variable.max_length} characters long`);
      }
      if (variable.type === "select" && Array.isArray(variable.options) && variable.options.length > 0 && !variable.options.includes(text)) {
        throw new Error(`input ${name} must be one of ${variable.options.map((o) => JSON.stringify(o)).join(", ")}`);
      }
      return text;
    }
  }
}

function parseJsonObject(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`input ${name} must be a JSON object, got text that is not JSON`);
  }
}

export const DifyStart: ComponentDefinition = {
  name: "DifyStart",
  capabilities: { entry: true },
  thoughts: () => "",
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    if (params.variables !== undefined && !Array.isArray(params.variables)) return [{ pointer: "/variables", message: "variables must be a list" }];
    list(params.variables).forEach((v, index) => {
      if (!isPlainObject(v) || typeof v.variable !== "string" || v.variable === "") {
        problems.push({ pointer: `/variables/${index}/variable`, message: "a start variable needs a name" });
        return;
      }
      if (v.type !== undefined && (typeof v.type !== "string" || !START_VARIABLE_TYPES.has(v.type))) {
        problems.push({ pointer: `/variables/${index}/type`, message: `start variable ${v.variable} has the unknown type ${JSON.stringify(v.type)}` });
      }
    });
    return problems;
  },
  invoke(ctx) {
    const inputs = ctx.inputs ?? {};
    const missing: string[] = [];
    for (const variable of startVariables(ctx.params)) {
      let value = Object.hasOwn(inputs, variable.variable) ? inputs[variable.variable] : undefined;
      if ((value === undefined || value === null) && variable.default !== undefined && variable.default !== null && variable.default !== "") value = variable.default;
      if (value === undefined || value === null) {
        if (variable.required) missing.push(variable.variable);
        // An optional input left out reads as nothing there (Dify leaves it out of the pool).
        continue;
      }
      const result = typed(variable, value);
      ctx.setInput(variable.variable, result);
      ctx.setOutput(variable.variable, result);
    }
    if (missing.length > 0) throw new Error(`missing required input${missing.length === 1 ? "" : "s"} ${missing.join(", ")}; the form is: ${describeForm(ctx.params)}`);
    // Dify's Start also shows the system variables of the run.
    for (const name of ["query", "files", "user_id", "conversation_id", "dialogue_count", "app_id", "workflow_id", "workflow_run_id"]) {
      try {
        const value = ctx.peek(`sys.${name}`);
        if (value !== undefined) ctx.setOutput(`sys.${name}`, value);
      } catch {
        // Not a variable of this run.
      }
    }
  },
};
