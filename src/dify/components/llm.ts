/**
 * Dify's LLM node, on canvasflow's chat client (and its mock):
 * - the model `{provider, name}` is the llm_id `name@vendor` (the provider's last segment);
 * - the messages are `prompt_template` rendered (`{{#…#}}` as `.text`, `{{#context#}}` as the
 *   context variable, jinja2 messages with `prompt_config.jinja2_variables`);
 * - with `memory` (chatflows), the past turns come before the last message, and the rendered
 *   `query_prompt_template` (default `{{#sys.query#}}`) is the last user message; without it no
 *   user turn is added;
 * - the answer streams as `text`; `usage` and `finish_reason` follow when it ends.
 */
import { pastMessages } from "../../components/llm/prompt.js";
import { llmProvider, streamChat } from "../../components/llm/model-call.js";
import { TextStream } from "../../components/text-stream.js";
import type { ComponentContext, ComponentDefinition, ParamProblem, Params } from "../../components/types.js";
import type { ChatMessage, ChatModel, ChatResult, SamplingOptions } from "../../llm/types.js";
import { tracedChatModel } from "../../llm/traced-model.js";
import { finiteNumber, isPlainObject } from "../../util/values.js";
import { textOf } from "../render.js";
import { list, readSelector, record, referencesIn, renderText } from "./common.js";
import { renderJinja2 } from "./template-transform.js";

const CONTEXT_PLACEHOLDER = "{{#context#}}";

/** The llm_id of a Dify model: `name@vendor` (`langgenius/openai/openai` → `openai`). */
function llmIdOf(model: unknown): string {
  const m = record(model);
  const name = typeof m.name === "string" ? m.name : "";
  const provider = typeof m.provider === "string" ? m.provider : "";
  const vendor = provider.split("/").at(-1) ?? "";
  return vendor ? `${name}@${vendor}` : name;
}

export function chatModelOf(ctx: ComponentContext, model: unknown): ChatModel {
  return tracedChatModel(llmProvider(ctx).chatModel(llmIdOf(model), { id: ctx.id, type: ctx.componentName }), ctx);
}

/** `completion_params` as the client's sampling options. */
export function samplingOf(model: unknown): SamplingOptions {
  const params = record(record(model).completion_params);
  const options: SamplingOptions = {};
  for (const key of ["temperature", "top_p", "presence_penalty", "frequency_penalty"] as const) {
    const value = finiteNumber(params[key]);
    if (value !== undefined) options[key] = value;
  }
  const maxTokens = finiteNumber(params.max_tokens);
  if (maxTokens !== undefined && maxTokens > 0) options.max_tokens = Math.floor(maxTokens);
  return options;
}

function checkModel(params: Params): ParamProblem[] {
  const model = params.model;
  if (!isPlainObject(model)) return [{ pointer: "/model", message: "the node needs a model {provider, name}" }];
  return typeof model.name === "string" && model.name !== ""
    ? []
    : [{ pointer: "/model/name", severity: "warning", message: "the model has no name: the run asks the LLM provider for its default model" }];
}

export { checkModel };

/** The text the context variable gives `{{#context#}}` (knowledge results read as their contents). */
function contextText(ctx: ComponentContext): string | undefined {
  const context = record(ctx.params.context);
  if (context.enabled !== true) return undefined;
  const value = readSelector(ctx, context.variable_selector);
  if (Array.isArray(value) && value.every((item) => isPlainObject(item) && typeof item.content === "string")) {
    return value.map((item) => (item as { content: string }).content).join("\n");
  }
  return textOf(value);
}

function renderMessage(ctx: ComponentContext, item: Record<string, unknown>, context: string | undefined): string {
  if (item.edition_type === "jinja2") {
    const values: Record<string, unknown> = {};
    for (const variable of list(record(ctx.params.prompt_config).jinja2_variables)) {
      if (isPlainObject(variable) && typeof variable.variable === "string") values[variable.variable] = readSelector(ctx, variable.value_selector) ?? null;
    }
    return renderJinja2(typeof item.jinja2_text === "string" ? item.jinja2_text : "", values);
  }
  const text = typeof item.text === "string" ? item.text : "";
  return renderText(ctx, context === undefined ? text : text.split(CONTEXT_PLACEHOLDER).join(context));
}

/** The chat messages of an LLM node. */
function llmMessages(ctx: ComponentContext): ChatMessage[] {
  const context = contextText(ctx);
  const template = ctx.params.prompt_template;
  const rows = Array.isArray(template) ? template.filter(isPlainObject) : isPlainObject(template) ? [{ ...template, role: "user" }] : [];
  const rendered: ChatMessage[] = rows.map((item) => ({
    role: item.role === "system" || item.role === "assistant" ? item.role : "user",
    content: renderMessage(ctx, item, context),
  }));
  // Dify drops empty system prompts.
  const messages = rendered.filter((m) => !(m.role === "system" && m.content === ""));
  const memory = ctx.params.memory;
  if (!isPlainObject(memory)) return messages;
  const window = record(memory.window);
  const size = window.enabled === true ? Math.max(0, Math.floor(Number(window.size) || 0)) : 50;
  const history = pastMessages(ctx, size);
  const systems = messages.filter((m) => m.role === "system");
  const others = messages.filter((m) => m.role !== "system");
  const queryTemplate = typeof memory.query_prompt_template === "string" && memory.query_prompt_template !== "" ? memory.query_prompt_template : "{{#sys.query#}}";
  const query = renderText(ctx, queryTemplate);
  return [...systems, ...history, ...others, ...(query !== "" ? [{ role: "user" as const, content: query }] : [])];
}

/**
 * Stream a chat answer as a TextStream: the first chunk is awaited here, so a request that fails
 * outright fails the node (and its retries apply); `onEnd` receives the whole result.
 */
async function streamAnswer(ctx: ComponentContext, model: ChatModel, messages: ChatMessage[], sampling: SamplingOptions, onEnd: (result: ChatResult) => void): Promise<TextStream> {
  const chunks = streamChat(model, { messages, ...sampling, retry: { maxRetries: 0, delayMs: 0 }, signal: ctx.signal }, (usage) => ctx.addUsage(usage));
  const first = await chunks.next();
  async function* rest(): AsyncGenerator<string, void, undefined> {
    let step = first;
    while (!step.done) {
      yield step.value;
      step = await chunks.next();
    }
    onEnd(step.value);
  }
  return new TextStream(rest());
}

export function usageOutput(result: ChatResult): Record<string, number> {
  return { prompt_tokens: result.usage.prompt_tokens, completion_tokens: result.usage.completion_tokens, total_tokens: result.usage.total_tokens };
}

export const DifyLLM: ComponentDefinition = {
  name: "DifyLLM",
  capabilities: { provider: "llm" },
  timeoutMs: 600_000,
  thoughts: () => "",
  references: (params) => {
    const rows = Array.isArray(params.prompt_template) ? params.prompt_template.filter(isPlainObject) : [];
    const memory = record(params.memory);
    return referencesIn(
      [record(params.context).variable_selector, ...list(record(params.prompt_config).jinja2_variables).map((v) => record(v).value_selector)],
      [...rows.map((r) => r.text), memory.query_prompt_template],
    );
  },
  check: (params) => checkModel(params),
  async invoke(ctx) {
    const model = chatModelOf(ctx, ctx.params.model);
    const messages = llmMessages(ctx);
    ctx.setInput("prompts", messages);
    const stream = await streamAnswer(ctx, model, messages, samplingOf(ctx.params.model), (result) => {
      ctx.setOutput("usage", usageOutput(result));
      ctx.setOutput("finish_reason", result.finishReason ?? "stop");
    });
    ctx.setOutput("text", stream);
    ctx.setOutput("reasoning_content", "");
  },
};
