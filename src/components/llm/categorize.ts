/**
 * Categorize: asks the model which category the `query` value falls into and continues with that
 * category's `to` components (research/ragflow.md §4.1 "Categorize"). A router: the categories'
 * targets are the candidates, the model's answer picks one.
 */
import { componentSchema } from "../../dsl/schemas.js";
import { findReferences, parseSelector, type Reference } from "../../refs/grammar.js";
import { isPlainObject, jsonPointer } from "../../util/values.js";
import { checkBranchTargets, targetIds } from "../branch-targets.js";
import { positiveInteger } from "../param-checks.js";
import { stringifyValue } from "../../refs/template.js";
import type { ChatMessage } from "../../llm/types.js";
import type { CheckInfo, ComponentContext, ComponentDefinition, InvokeResult, ParamProblem, Params } from "../types.js";
import { categorizeSystemPrompt, categorizeUserPrompt, categorySpecs, pickCategory } from "./categorize-prompt.js";
import { checkLlmId, checkSampling, LLM_DEFAULTS } from "./llm-params.js";
import { chatModelFor, completeChat, requestBase } from "./model-call.js";
import { historyWindow } from "./prompt.js";

interface Category {
  description?: unknown;
  examples?: unknown;
  to?: unknown;
}

function categories(params: Params): Array<[name: string, category: unknown]> {
  const value = params.category_description;
  return isPlainObject(value) ? Object.entries(value) : [];
}

/** The selector that names the text to classify; RAGFlow falls back to sys.query when it is empty. */
function queryOf(params: Params): string {
  return typeof params.query === "string" && params.query.trim() !== "" ? params.query : "sys.query";
}

/** `query` is a bare selector (braces optional); a template such as "{begin@a} {sys.query}" also reads its refs. */
function queryReferences(query: string): Reference[] {
  const ref = parseSelector(query);
  return ref ? [ref] : findReferences(query);
}

function checkCategories(params: Params, info: CheckInfo): ParamProblem[] {
  const entries = categories(params);
  if (entries.length === 0) return [{ pointer: "/category_description", message: "category_description lists no category" }];
  const problems: ParamProblem[] = [];
  for (const [name, raw] of entries) {
    if (name.trim() === "") {
      problems.push({ pointer: jsonPointer("category_description", name), message: "a category has an empty name" });
      continue;
    }
    if (!isPlainObject(raw)) {
      problems.push({ pointer: jsonPointer("category_description", name), message: `category "${name}" must be an object {description, examples, to}` });
      continue;
    }
    const category = raw as Category;
    if (targetIds(category.to).length === 0) {
      problems.push({ pointer: jsonPointer("category_description", name, "to"), message: `category "${name}" has no target ("to" is empty)` });
      continue;
    }
    problems.push(...checkBranchTargets(category.to, ["category_description", name, "to"], `category "${name}"`, info));
  }
  return problems;
}

function checkQuery(params: Params): ParamProblem[] {
  const query = params.query;
  if (query === undefined || query === null || query === "") return [];
  if (typeof query === "string" && queryReferences(query).length > 0) return [];
  return [{ pointer: "/query", message: `query must be a reference to the text to classify (e.g. "sys.query" or "begin@review"), not ${JSON.stringify(query)}` }];
}

export const Categorize: ComponentDefinition = {
  name: "Categorize",
  paramsSchema: componentSchema("Categorize"),
  defaults: { ...LLM_DEFAULTS, category_description: {}, query: "sys.query", message_history_window_size: 1 },
  capabilities: { router: true, provider: "llm", retriesInternally: true },
  primaryOutput: "category_name",
  timeoutMs: 600_000,
  thoughts: (params) => `Which should it falls into ${categories(params).map(([name]) => `\`${name}\``).join(",")}? ...`,
  references: (params) => queryReferences(queryOf(params)),
  branches: (params) => categories(params).map(([name, category]) => ({ label: name, targets: targetIds(isPlainObject(category) ? category.to : undefined) })),
  check: (params, info) => [
    ...positiveInteger(params, "message_history_window_size"),
    ...checkLlmId(params),
    ...checkSampling(params),
    ...checkQuery(params),
    ...checkCategories(params, info),
  ],
  invoke: categorize,
};

/** The text to classify: a bare selector is read, a template (older DSLs) is rendered. */
function queryValue(ctx: ComponentContext, query: string): string {
  const value = parseSelector(query) ? ctx.get(query) : ctx.render(query);
  return stringifyValue(value);
}

/**
 * The last turns of the conversation with the newest message replaced by the text to classify
 * (RAGFlow: `msg[-1]["content"] = query value`).
 */
function conversation(ctx: ComponentContext, text: string): ChatMessage[] {
  const messages: ChatMessage[] = ctx.canvas
    .history(historyWindow(ctx.params, 1))
    .map(([role, content]) => ({ role: role === "assistant" ? "assistant" : "user", content: stringifyValue(content) }));
  if (messages.length === 0) messages.push({ role: "user", content: "" });
  messages[messages.length - 1] = { ...messages[messages.length - 1], content: text };
  return messages;
}

async function categorize(ctx: ComponentContext): Promise<InvokeResult> {
  const params = ctx.params;
  const specs = categorySpecs(params.category_description);
  if (specs.length === 0) throw new Error("category_description lists no category");
  const model = chatModelFor(ctx, params);
  const text = queryValue(ctx, queryOf(params));
  const messages: ChatMessage[] = [
    { role: "system", content: categorizeSystemPrompt(specs) },
    { role: "user", content: categorizeUserPrompt(conversation(ctx, text)) },
  ];
  const result = await completeChat(model, { ...requestBase(params, ctx.signal), messages }, (usage) => ctx.addUsage(usage));
  const chosen = pickCategory(result.content, specs);
  ctx.setOutput("category_name", chosen.name);
  ctx.setOutput("_next", [...chosen.to]);
  return { next: [...chosen.to] };
}
