/**
 * The chat-model contract components use (LLM, Agent, Categorize). Implementations live beside
 * it: an OpenAI-compatible client on the `openai` package, resolved from RAGFlow `llm_id`s.
 * Components reach it through `ctx.services.llm` (an LlmProvider).
 */
export type { FunctionTool } from "../contracts/tool.js";
import type { FunctionTool } from "../contracts/tool.js";

export type ChatRole = "system" | "user" | "assistant" | "tool";

export type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: ChatRole;
  content: string | ChatContentPart[] | null;
  name?: string;
  /** Assistant messages that call tools. */
  tool_calls?: ChatToolCall[];
  /** Tool messages: the call they answer. */
  tool_call_id?: string;
}

export interface SamplingOptions {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  /** OpenAI's response_format, e.g. { type: "json_object" }. */
  response_format?: Record<string, unknown>;
}

/** How a request retries on 429 and 5xx responses (the component's max_retries / delay_after_error). */
export interface RetryOptions {
  maxRetries: number;
  /** The first delay in ms; later ones back off exponentially. */
  delayMs: number;
}

export interface ChatRequest extends SamplingOptions {
  messages: ChatMessage[];
  tools?: FunctionTool[];
  signal?: AbortSignal;
  retry?: RetryOptions;
  /** Per-request timeout in ms. */
  timeoutMs?: number;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatResult {
  content: string;
  toolCalls: ChatToolCall[];
  usage: ChatUsage;
  /**
   * False when the server sent no usage: the counts are then zeros, never estimates. Absent is
   * the same as true (models that always know their usage need not set it).
   */
  usageReported?: boolean;
  finishReason: string | null;
}

/** A streamed reply: text as it arrives, then the whole result (content, tool calls, usage). */
export type ChatDelta = { type: "text"; text: string } | { type: "done"; result: ChatResult };

export interface ChatModel {
  /** The llm_id this model was resolved from. */
  readonly llmId: string;
  /** The provider's model name, e.g. "gpt-4o-mini". */
  readonly model: string;
  /** Tokens its context window holds, when its config says (else llm/context-window.ts knows or assumes 8192). */
  readonly maxContextTokens?: number;
  complete(request: ChatRequest): Promise<ChatResult>;
  stream(request: ChatRequest): AsyncIterable<ChatDelta>;
  /**
   * Speech to text on the same endpoint (OpenAI's `POST /audio/transcriptions`): an ingestion
   * pipeline's audio setup names its speech model by llm_id, as a chat model is named.
   */
  transcribe?(audio: Uint8Array, fileName: string, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<string>;
}

/** Who is asking for a model, for error messages ("… of component Agent:X (Agent)"). */
export interface ModelRequester {
  id: string;
  type: string;
}

export interface LlmProvider {
  /**
   * The chat model for a RAGFlow llm_id (`model@Factory`, `org/model@default@FACTORY`, or a plain
   * name). Throws an error naming the llm_id and the component when it cannot be resolved.
   */
  chatModel(llmId: string, requester: ModelRequester): ChatModel;
}
