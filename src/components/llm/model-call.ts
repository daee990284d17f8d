/**
 * Talking to the chat model on behalf of a component: finding the model through the run's
 * LLM provider, the request options RAGFlow derives from LLMParam (gen_conf, retries), and
 * calls that report their tokens to the run.
 */
import { contextWindow } from "../../llm/context-window.js";
import { fitMessages } from "../../llm/fit-messages.js";
import { encodingFor, loadTokenizer, mayExceed } from "../../llm/tokens.js";
import type { ChatModel, ChatRequest, ChatResult, LlmProvider, RetryOptions, SamplingOptions } from "../../llm/types.js";
import { tracedChatModel } from "../../llm/traced-model.js";
import { finiteNumber } from "../../util/values.js";
import { ProviderMissingError } from "../needs-provider.js";
import type { ComponentContext, Params, UsageReport } from "../types.js";

function isProvider(value: unknown): value is LlmProvider {
  return typeof value === "object" && value !== null && typeof (value as LlmProvider).chatModel === "function";
}

/** The run's LLM provider (`services.llm`); without one the component fails with "needs an LLM provider". */
export function llmProvider(ctx: ComponentContext): LlmProvider {
  const provider = ctx.services.llm;
  if (!isProvider(provider)) throw new ProviderMissingError(ctx.id, ctx.componentName, "llm");
  return provider;
}

/**
 * The chat model named by `llm_id` (the provider resolves it, or explains why it cannot); each
 * of its calls is a `chat <model>` span under the component's when the run is traced.
 */
export function chatModelFor(ctx: ComponentContext, params: Params): ChatModel {
  const llmId = typeof params.llm_id === "string" ? params.llm_id : "";
  return tracedChatModel(llmProvider(ctx).chatModel(llmId, { id: ctx.id, type: ctx.componentName }), ctx);
}

/** Sampling params and the editor flag that lets gen_conf send them. */
const SAMPLED: ReadonlyArray<[key: "temperature" | "top_p" | "presence_penalty" | "frequency_penalty", flag: string]> = [
  ["temperature", "temperatureEnabled"],
  ["top_p", "topPEnabled"],
  ["presence_penalty", "presencePenaltyEnabled"],
  ["frequency_penalty", "frequencyPenaltyEnabled"],
];

/**
 * RAGFlow's gen_conf: a value is sent only when its editor flag is on (a missing flag is off)
 * and it is positive. Temperature 0 is sent too when its flag is on: it asks for determinism.
 */
export function samplingOptions(params: Params): SamplingOptions {
  const options: SamplingOptions = {};
  const maxTokens = finiteNumber(params.max_tokens);
  if (params.maxTokensEnabled === true && maxTokens !== undefined && maxTokens > 0) options.max_tokens = Math.floor(maxTokens);
  for (const [key, flag] of SAMPLED) {
    if (params[flag] !== true) continue;
    const value = finiteNumber(params[key]);
    if (value === undefined) continue;
    if (value > 0 || (key === "temperature" && value === 0)) options[key] = value;
  }
  return options;
}

/** How the model client retries 429 and 5xx answers: `max_retries` times, `delay_after_error` seconds apart. */
export function retryOptions(params: Params): RetryOptions {
  const retries = finiteNumber(params.max_retries);
  const delay = finiteNumber(params.delay_after_error);
  return {
    maxRetries: retries !== undefined && retries > 0 ? Math.floor(retries) : 0,
    delayMs: delay !== undefined && delay > 0 ? delay * 1000 : 2000,
  };
}

/** What every request of one component shares. */
export type RequestBase = Omit<ChatRequest, "messages" | "tools">;

export function requestBase(params: Params, signal: AbortSignal): RequestBase {
  return { ...samplingOptions(params), retry: retryOptions(params), signal };
}

/** Who hears about the tokens of each call. */
export type UsageSink = (usage: UsageReport) => void;

/** RAGFlow's LLM component sends at most 97% of the model's window (message_fit_in). */
export const CONTEXT_SHARE = 0.97;

/** The request with its conversation trimmed to the model's context window (see llm/fit-messages.ts). */
async function fitToContext(model: ChatModel, request: ChatRequest): Promise<ChatRequest> {
  const budget = Math.floor(contextWindow(model) * CONTEXT_SHARE);
  // Most requests are far below their window: the byte count proves it without loading a tokenizer.
  if (!mayExceed(request.messages, request.tools, budget)) return request;
  const tokenizer = await loadTokenizer(encodingFor(model.model));
  const fit = fitMessages(request.messages, request.tools, budget, tokenizer);
  return fit.dropped === 0 && fit.shortened === 0 ? request : { ...request, messages: fit.messages };
}

/** One blocking call, the conversation fitted to the window; its tokens are reported. */
export async function completeChat(model: ChatModel, request: ChatRequest, onUsage: UsageSink): Promise<ChatResult> {
  const result = await model.complete(await fitToContext(model, request));
  onUsage(result.usage);
  return result;
}

/**
 * One streamed call: yields the text as it arrives and returns the whole result (tool calls
 * included). The tokens are reported when the stream ends.
 */
export async function* streamChat(model: ChatModel, request: ChatRequest, onUsage: UsageSink): AsyncGenerator<string, ChatResult, undefined> {
  let result: ChatResult | undefined;
  let text = "";
  for await (const delta of model.stream(await fitToContext(model, request))) {
    if (delta.type === "text") {
      if (delta.text.length === 0) continue;
      text += delta.text;
      yield delta.text;
    } else {
      result = delta.result;
    }
  }
  if (!result) throw new Error(`the model ${model.model} ended its streamed answer without a final result`);
  onUsage(result.usage);
  return { ...result, content: result.content || text };
}
