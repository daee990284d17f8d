/**
 * A chat model whose calls are spans (issue 29): each `complete` or `stream` is a child span of
 * the calling component's, `chat <model>`, with the OpenTelemetry GenAI attributes (operation,
 * provider when known, request model and sampling, finish reason, token usage). The prompt and the
 * completion are recorded only when the operator turns it on (`services.tracing.recordContent`:
 * they may hold personal data), bounded to `contentLimit` characters each.
 *
 * Without tracing, `ctx.span` just runs the call: the wrapper costs a closure per call.
 */
import type { SpanAttributes, SpanScope } from "../contracts/values.js";
import type { ComponentContext } from "../contracts/component.js";
import type { ChatDelta, ChatMessage, ChatModel, ChatRequest, ChatResult } from "./types.js";

/** Characters of prompt or completion a span keeps when content is recorded and no limit is set. */
export const DEFAULT_CONTENT_LIMIT = 4000;

/** What a traced call needs of its caller: the span maker and the services (for `tracing`). */
export type CallTracer = Pick<ComponentContext, "span" | "services">;

/** RAGFlow factory names (the `@Factory` of an llm_id) that name a GenAI provider of the semantic conventions. */
const PROVIDERS: Readonly<Record<string, string>> = {
  openai: "openai",
  "azure-openai": "azure.ai.openai",
  anthropic: "anthropic",
  deepseek: "deepseek",
  mistral: "mistral_ai",
  groq: "groq",
  gemini: "gcp.gemini",
  "google cloud": "gcp.vertex_ai",
  bedrock: "aws.bedrock",
  xai: "x_ai",
  cohere: "cohere",
  perplexity: "perplexity",
};

/** Whether and how much content the operator lets spans record (`services.tracing`). */
function contentSettings(services: CallTracer["services"]): { limit: number } | undefined {
  const tracing = services.tracing as { recordContent?: unknown; contentLimit?: unknown } | undefined;
  if (typeof tracing !== "object" || tracing === null || tracing.recordContent !== true) return undefined;
  const limit = tracing.contentLimit;
  return { limit: typeof limit === "number" && Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : DEFAULT_CONTENT_LIMIT };
}

/** Text cut to `limit` characters (the last one an ellipsis when cut). */
export function bounded(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 1))}…`;
}

function providerOf(llmId: string): string | undefined {
  const at = llmId.lastIndexOf("@");
  return at < 0 ? undefined : PROVIDERS[llmId.slice(at + 1).trim().toLowerCase()];
}

function requestAttributes(model: ChatModel, request: ChatRequest, content: { limit: number } | undefined): SpanAttributes {
  const provider = providerOf(model.llmId);
  return {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": provider,
    "gen_ai.system": provider,
    "gen_ai.request.model": model.model,
    "gen_ai.request.temperature": request.temperature,
    "gen_ai.request.top_p": request.top_p,
    "gen_ai.request.max_tokens": request.max_tokens,
    "gen_ai.request.presence_penalty": request.presence_penalty,
    "gen_ai.request.frequency_penalty": request.frequency_penalty,
    "gen_ai.prompt": content ? bounded(JSON.stringify(request.messages), content.limit) : undefined,
  };
}

function resultAttributes(result: ChatResult, content: { limit: number } | undefined): SpanAttributes {
  const reported = result.usageReported !== false;
  const completion: ChatMessage = { role: "assistant", content: result.content, ...(result.toolCalls.length > 0 ? { tool_calls: result.toolCalls } : {}) };
  return {
    "gen_ai.response.finish_reasons": result.finishReason ? [result.finishReason] : undefined,
    "gen_ai.usage.input_tokens": reported ? result.usage.prompt_tokens : undefined,
    "gen_ai.usage.output_tokens": reported ? result.usage.completion_tokens : undefined,
    "gen_ai.completion": content ? bounded(JSON.stringify([completion]), content.limit) : undefined,
  };
}

/**
 * `model` with each call in a span of `tracer` (a component's context). A context without `span`
 * (made outside the engine) gets the model itself.
 */
export function tracedChatModel(model: ChatModel, tracer: CallTracer): ChatModel {
  const span = tracer.span?.bind(tracer);
  if (!span) return model;
  // Everything else (llmId, model, maxContextTokens, transcribe, a client's own getters) is the model's.
  const name = `chat ${model.model}`;
  const complete: ChatModel["complete"] = (request) => {
    const content = contentSettings(tracer.services);
    return span(name, requestAttributes(model, request, content), async (scope) => {
      const result = await model.complete(request);
      scope.setAttributes(resultAttributes(result, content));
      return result;
    });
  };
  const stream: ChatModel["stream"] = (request) => tracedStream(span, name, model, request, contentSettings(tracer.services));
  // Defined, not assigned: a frozen model's own methods must not stop the wrapper's.
  return Object.create(model, { complete: { value: complete }, stream: { value: stream } }) as ChatModel;
}

/** A streamed call whose span lasts from its first read to its end (or to when its reader stops). */
async function* tracedStream(
  span: NonNullable<CallTracer["span"]>,
  name: string,
  model: ChatModel,
  request: ChatRequest,
  content: { limit: number } | undefined,
): AsyncGenerator<ChatDelta, void, undefined> {
  let settle!: (error?: { error: unknown }) => void;
  let opened!: (scope: SpanScope) => void;
  const scope = new Promise<SpanScope>((resolve) => (opened = resolve));
  // The span's work is the stream: it settles when the stream does.
  const ended = span(name, requestAttributes(model, request, content), (s) => {
    opened(s);
    return new Promise<void>((resolve, reject) => (settle = (failed) => (failed ? reject(failed.error) : resolve())));
  }).catch(() => undefined);
  const current = await scope;
  let failed: { error: unknown } | undefined;
  try {
    for await (const delta of model.stream(request)) {
      if (delta.type === "done") current.setAttributes(resultAttributes(delta.result, content));
      yield delta;
    }
  } catch (error) {
    failed = { error };
    throw error;
  } finally {
    settle(failed);
    await ended;
  }
}
