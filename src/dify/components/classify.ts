/**
 * Dify's model-driven nodes that are not a chat answer:
 * - question-classifier: asks the model which class the query belongs to and takes that class's
 *   port (its id); an answer that names no class takes the first. Outputs `class_name`,
 *   `class_id`, `usage`.
 * - parameter-extractor: asks the model for a JSON object of the declared parameters. An answer
 *   that cannot be read does not fail the node: `__is_success` is 0 and `__reason` says why.
 *   Outputs each parameter, `__is_success`, `__reason`, `__usage`.
 * Both use canvasflow's chat client (and its mock), with the node's `instruction` rendered.
 */
import { completeChat } from "../../components/llm/model-call.js";
import { jsonText } from "../../components/llm/structured.js";
import type { ComponentContext, ComponentDefinition, ParamProblem } from "../../components/types.js";
import type { ChatMessage } from "../../llm/types.js";
import { isPlainObject } from "../../util/values.js";
import { textOf } from "../render.js";
import { checkSelector, list, readSelector, referencesIn, renderText } from "./common.js";
import { chatModelOf, checkModel, samplingOf, usageOutput } from "./llm.js";

function queryOf(ctx: ComponentContext, selector: unknown): string {
  const value = selector === undefined || (Array.isArray(selector) && selector.length === 0) ? ctx.peek("sys.query") : readSelector(ctx, selector);
  return textOf(value);
}

async function ask(ctx: ComponentContext, messages: ChatMessage[]): Promise<{ content: string; usage: Record<string, number> }> {
  const result = await completeChat(chatModelOf(ctx, ctx.params.model), { messages, ...samplingOf(ctx.params.model), retry: { maxRetries: 0, delayMs: 0 }, signal: ctx.signal }, (usage) => ctx.addUsage(usage));
  return { content: result.content, usage: usageOutput(result) };
}

interface QuestionClass {
  id: string;
  name: string;
}

function classes(params: Record<string, unknown>): QuestionClass[] {
  return list(params.classes)
    .filter(isPlainObject)
    .filter((c) => (typeof c.id === "string" || typeof c.id === "number") && String(c.id) !== "")
    .map((c) => ({ id: String(c.id), name: typeof c.name === "string" ? c.name : String(c.id) }));
}

/** The class an answer names: by id in a JSON answer, else by name or id in its text; the first otherwise. */
function pickClass(answer: string, options: readonly QuestionClass[]): QuestionClass {
  try {
    const parsed = JSON.parse(jsonText(answer)) as unknown;
    if (isPlainObject(parsed)) {
      const id = parsed.category_id ?? parsed.class_id;
      const byId = options.find((c) => c.id === String(id));
      if (byId) return byId;
      const name = parsed.category_name ?? parsed.class_name;
      const byName = options.find((c) => c.name === name);
      if (byName) return byName;
    }
  } catch {
    // Not JSON: look for a class in the text.
  }
  const text = answer.trim();
  return options.find((c) => c.name === text) ?? options.find((c) => c.id === text) ?? options.find((c) => text.includes(c.name)) ?? options[0];
}

export const DifyQuestionClassifier: ComponentDefinition = {
  name: "DifyQuestionClassifier",
  capabilities: { branches: true, provider: "llm" },
  timeoutMs: 600_000,
  thoughts: () => "",
  references: (params) => referencesIn([params.query_variable_selector], [params.instruction]),
  check(params, info): ParamProblem[] {
    const problems = [...checkModel(params), ...checkSelector(params, "query_variable_selector", false, info)];
    if (classes(params).length === 0) problems.push({ pointer: "/classes", message: "the classifier needs at least one class {id, name}" });
    return problems;
  },
  async invoke(ctx) {
    const options = classes(ctx.params);
    if (options.length === 0) throw new Error("the classifier has no class");
    const query = queryOf(ctx, ctx.params.query_variable_selector);
    ctx.setInput("query", query);
    const instruction = renderText(ctx, ctx.params.instruction ?? "");
    const system = [
      "You are a text classification engine. Read the input text and choose the one category it belongs to.",
      `Categories (id: name):\n${options.map((c) => `${c.id}: ${c.name}`).join("\n")}`,
      ...(instruction !== "" ? [`Classification instructions: ${instruction}`] : []),
      'Answer with JSON only: {"category_id": "<id>", "category_name": "<name>"}.',
    ].join("\n\n");
    const answer = await ask(ctx, [
      { role: "system", content: system },
      { role: "user", content: query },
    ]);
    const chosen = pickClass(answer.content, options);
    ctx.setOutput("class_name", chosen.name);
    ctx.setOutput("class_id", chosen.id);
    ctx.setOutput("usage", answer.usage);
    return { handle: chosen.id };
  },
};

interface Parameter {
  name: string;
  type: string;
  description: string;
  required: boolean;
  options: unknown[];
}

function parameters(params: Record<string, unknown>): Parameter[] {
  return list(params.parameters)
    .filter(isPlainObject)
    .filter((p) => typeof p.name === "string" && p.name !== "")
    .map((p) => ({
      name: p.name as string,
      type: typeof p.type === "string" ? p.type : "string",
      description: typeof p.description === "string" ? p.description : "",
      required: p.required === true,
      options: Array.isArray(p.options) ? p.options : [],
    }));
}

/** A parameter's value as its type; undefined when it does not fit. */
function coerce(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case "string":
      return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;
    case "number": {
      const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
      return Number.isFinite(n) ? n : undefined;
    }
    case "boolean":
    case "bool":
      return typeof value === "boolean" ? value : value === "true" ? true : value === "false" ? false : undefined;
    default:
      if (type.startsWith("array")) return Array.isArray(value) ? value : undefined;
      return value;
  }
}

/** The empty value of a parameter's type, for one the model did not give. */
function emptyOf(type: string): unknown {
  if (type === "number") return 0;
  if (type === "boolean" || type === "bool") return false;
  if (type.startsWith("array")) return [];
  return "";
}

export const DifyParameterExtractor: ComponentDefinition = {
  name: "DifyParameterExtractor",
  capabilities: { provider: "llm" },
  timeoutMs: 600_000,
  thoughts: () => "",
  references: (params) => referencesIn([params.query], [params.instruction]),
  check(params, info): ParamProblem[] {
    const problems = [...checkModel(params), ...checkSelector(params, "query", true, info)];
    if (parameters(params).length === 0) problems.push({ pointer: "/parameters", message: "the extractor declares no parameter" });
    return problems;
  },
  async invoke(ctx) {
    const wanted = parameters(ctx.params);
    const query = queryOf(ctx, ctx.params.query);
    ctx.setInput("query", query);
    const instruction = renderText(ctx, ctx.params.instruction ?? "");
    const schema = wanted.map((p) => `- ${p.name} (${p.type}${p.required ? ", required" : ""})${p.description ? `: ${p.description}` : ""}${p.options.length > 0 ? ` — one of ${p.options.map((o) => JSON.stringify(o)).join(", ")}` : ""}`);
    const system = [
      "You extract structured parameters from the user's text.",
      `Parameters:\n${schema.join("\n")}`,
      ...(instruction !== "" ? [`Instructions: ${instruction}`] : []),
      "Answer with one JSON object holding these parameters and nothing else.",
    ].join("\n\n");
    const answer = await ask(ctx, [
      { role: "system", content: system },
      { role: "user", content: query },
    ]);
    let extracted: Record<string, unknown> = {};
    let reason = "";
    try {
      const parsed = JSON.parse(jsonText(answer.content)) as unknown;
      if (isPlainObject(parsed)) extracted = parsed;
      else reason = "the model's answer is not a JSON object";
    } catch {
      reason = "the model's answer is not JSON";
    }
    for (const p of wanted) {
      const value = coerce(extracted[p.name], p.type);
      if (value === undefined && p.required && reason === "") reason = `the required parameter ${p.name} is missing or not a ${p.type}`;
      ctx.setOutput(p.name, value === undefined ? emptyOf(p.type) : value);
    }
    ctx.setOutput("__is_success", reason === "" ? 1 : 0);
    ctx.setOutput("__reason", reason === "" ? null : reason);
    ctx.setOutput("__usage", answer.usage);
  },
};
