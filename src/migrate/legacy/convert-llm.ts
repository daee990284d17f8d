/**
 * v0.19's LLM components → Agent (no tools) or Categorize, keeping the model (`llm_id`) and the
 * sampling settings. v0.19 sent a sampling param only when it was above 0, which is what the
 * `…Enabled` flags say now.
 */
import { isPlainObject, numericValue } from "../../util/values.js";
import type { LegacyModel } from "./model.js";
import { keywordPrompt, RELEVANCE_PROMPT, rewritePrompt } from "./prompts.js";

export interface Converted {
  name: string;
  params: Record<string, unknown>;
  change: string;
  reason: string;
  /** Further changes worth a note of their own (after the main one). */
  more?: Array<{ change: string; reason: string }>;
}

const SAMPLING: ReadonlyArray<[key: string, flag: string]> = [
  ["temperature", "temperatureEnabled"],
  ["top_p", "topPEnabled"],
  ["presence_penalty", "presencePenaltyEnabled"],
  ["frequency_penalty", "frequencyPenaltyEnabled"],
  ["max_tokens", "maxTokensEnabled"],
];

/** The model and sampling settings of a v0.19 LLM component. */
function llmSettings(legacy: Record<string, unknown>, defaults: { temperature?: number } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { llm_id: typeof legacy.llm_id === "string" ? legacy.llm_id : "" };
  for (const [key, flag] of SAMPLING) {
    const raw = legacy[key] ?? (key === "temperature" ? defaults.temperature : undefined);
    const value = numericValue(raw) ?? 0;
    out[key] = key === "max_tokens" ? Math.max(0, Math.trunc(value)) : value;
    out[flag] = value > 0;
  }
  const window = numericValue(legacy.message_history_window_size);
  if (window !== undefined && Number.isInteger(window) && window > 0) out.message_history_window_size = window;
  return out;
}

function agent(settings: Record<string, unknown>, sysPrompt: string, userPrompt: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...settings,
    sys_prompt: sysPrompt,
    prompts: [{ role: "user", content: userPrompt }],
    tools: [],
    mcp: [],
    max_rounds: 1,
    outputs: { content: { type: "string", value: "" } },
    ...extra,
  };
}

/** Generate: one LLM call with the prompt as system prompt and the conversation as messages. */
export function convertGenerate(model: LegacyModel, id: string): Converted & { dangling: string[]; placeholders: string[] } {
  const legacy = model.params(id);
  let prompt = typeof legacy.prompt === "string" ? legacy.prompt : "";
  // Older DSLs bound `{key}` placeholders to components through `parameters`.
  const bound: string[] = [];
  if (Array.isArray(legacy.parameters)) {
    for (const p of legacy.parameters) {
      if (!isPlainObject(p) || typeof p.key !== "string" || typeof p.component_id !== "string") continue;
      const ref = model.referenceTo(p.component_id);
      if (ref && prompt.includes(`{${p.key}}`)) {
        prompt = prompt.split(`{${p.key}}`).join(`{${ref}}`);
        bound.push(`{${p.key}} → {${ref}}`);
      }
    }
  }
  const rewritten = model.rewriteText(prompt, id);
  const question = model.question(id);
  return {
    name: "Agent",
    params: agent(llmSettings(legacy), rewritten.text, `{${question}}`, { cite: legacy.cite !== false }),
    change:
      `Generate → Agent without tools: the prompt became the system prompt with explicit references${bound.length > 0 ? ` (parameters ${bound.join(", ")})` : ""}, ` +
      `the user prompt is {${question}}, llm_id "${String(legacy.llm_id ?? "")}" and sampling kept`,
    reason: "Generate no longer exists; an Agent without tools makes the same single model call, and inputs are now explicit references",
    dangling: rewritten.dangling,
    placeholders: rewritten.placeholders,
  };
}

/** RewriteQuestion: rewrote the latest user message using the conversation. */
export function convertRewriteQuestion(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const language = typeof legacy.language === "string" ? legacy.language : "";
  return {
    name: "Agent",
    params: agent(llmSettings(legacy, { temperature: 0.9 }), rewritePrompt(language), "{sys.query}"),
    change: `RewriteQuestion → Agent that rewrites {sys.query} into a standalone question (its output is {${id}@content}); llm_id kept`,
    reason: "RewriteQuestion no longer exists; v0.19 replaced the user's message in the history, now the components after it read the Agent's output instead",
  };
}

/** KeywordExtract: asked the model for the top_n keywords of its input. */
export function convertKeywordExtract(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const topN = Math.max(1, Math.trunc(numericValue(legacy.top_n) ?? 1));
  const input = model.inputTemplate(id);
  return {
    name: "Agent",
    params: agent({ ...llmSettings(legacy), message_history_window_size: 1 }, keywordPrompt(topN), input),
    change: `KeywordExtract → Agent that lists the ${topN} main keyword(s) of ${input}; llm_id kept`,
    reason: "KeywordExtract no longer exists; its built-in instruction is now the Agent's system prompt and its implicit input an explicit reference",
  };
}

/** Relevant: a yes/no grade of retrieved documents against the question (the routing is a Switch, added later). */
export function convertRelevant(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const documents = model.inputTemplate(id);
  const question = model.question(id);
  return {
    name: "Agent",
    params: agent({ ...llmSettings(legacy), message_history_window_size: 1 }, RELEVANCE_PROMPT, `Question: {${question}}\nDocuments:\n${documents}`),
    change: `Relevant → Agent that answers yes or no (is ${documents} relevant to {${question}}?); llm_id kept`,
    reason: "Relevant no longer exists; an Agent grades the documents and a Switch after it routes on the answer",
  };
}

/** Examples were one text with one example per line; now a list. */
function exampleList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  if (typeof value !== "string") return [];
  return value
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** Categorize: category `to` was one id and examples one text; the input is now the `query` selector. */
export function convertCategorize(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const categories: Record<string, unknown> = {};
  const raw = isPlainObject(legacy.category_description) ? legacy.category_description : {};
  for (const [name, value] of Object.entries(raw)) {
    const category = isPlainObject(value) ? value : {};
    const to = typeof category.to === "string" ? (category.to === "" ? [] : [category.to]) : Array.isArray(category.to) ? category.to : [];
    categories[name] = { ...category, description: typeof category.description === "string" ? category.description : "", examples: exampleList(category.examples), to };
  }
  const query = model.inputSelector(id);
  const window = numericValue(legacy.message_history_window_size);
  return {
    name: "Categorize",
    params: {
      ...llmSettings(legacy),
      message_history_window_size: window !== undefined && Number.isInteger(window) && window > 0 ? window : 1,
      category_description: categories,
      query,
      outputs: { category_name: { type: "string", value: "" } },
    },
    change: `category targets became lists and examples one list entry per line; the text to classify is query "${query}"; llm_id kept`,
    reason: "the current Categorize routes through lists of ids and reads its input from an explicit reference",
  };
}
