/**
 * A ChatModel on the `openai` package: any OpenAI-compatible chat completions endpoint (OpenAI,
 * Ollama, vLLM, DeepSeek, our mock). The client's own retries are off; `retry.ts` is the policy.
 *
 * Reasoning that a server sends apart from the answer (`reasoning_content`, as DeepSeek and vLLM
 * do, or `reasoning`, as Ollama does) becomes `<think>…</think>` text before the answer, as
 * RAGFlow's LLMBundle does, so every model looks like one that thinks inline. The streamed text
 * joined is always exactly the result's `content`.
 */
import type OpenAI from "openai";
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { LlmRequestError, type LlmFailureKind } from "./errors.js";
import { AttemptScope, backoffDelay, isRetryableStatus, waitUnlessAborted } from "./retry.js";
import { LazyOpenAIClient, loadOpenAISdk, type OpenAISdk } from "./openai-sdk.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";
import type { ChatDelta, ChatMessage, ChatModel, ChatRequest, ChatResult, ChatToolCall, ChatUsage } from "./types.js";

export interface OpenAIChatModelOptions {
  /** The llm_id this model was resolved from (kept for messages). */
  llmId: string;
  /** The model name sent to the server. */
  model: string;
  /** A client made with `maxRetries: 0` (see provider.ts), or one made on first use. */
  client: OpenAI | LazyOpenAIClient;
  /** The context window from the model's config route, if it gives one. */
  maxContextTokens?: number;
}

const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";
const NO_USAGE: ChatUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

type WireRequest = Omit<ChatCompletionCreateParamsBase, "stream">;

export class OpenAIChatModel implements ChatModel {
  readonly llmId: string;
  readonly model: string;
  readonly maxContextTokens: number | undefined;
  private readonly client: OpenAI | LazyOpenAIClient;

  constructor(options: OpenAIChatModelOptions) {
    this.llmId = options.llmId;
    this.model = options.model;
    this.client = options.client;
    this.maxContextTokens = options.maxContextTokens;
  }

  get baseURL(): string {
    return this.client.baseURL;
  }

  async complete(request: ChatRequest): Promise<ChatResult> {
    const body = this.wireRequest(request);
    const [client, sdk] = await this.connection();
    for (let attempt = 1; ; attempt++) {
      const scope = new AttemptScope(request.signal, request.timeoutMs);
      try {
        const response = await client.chat.completions.create(
          { ...body, stream: false },
          { signal: scope.signal, maxRetries: 0, ...(request.timeoutMs ? { timeout: request.timeoutMs } : {}) },
        );
        const choice = response.choices[0];
        const message = choice?.message;
        const reasoning = reasoningText(message);
        const content = `${reasoning ? `${THINK_OPEN}${reasoning}${THINK_CLOSE}` : ""}${message?.content ?? ""}`;
        const toolCalls: ChatToolCall[] = [];
        for (const call of message?.tool_calls ?? []) {
          if (call.type !== "function") continue;
          toolCalls.push({ id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments || "{}" } });
        }
        return { content, toolCalls, ...usageOf(response.usage), finishReason: choice?.finish_reason ?? null };
      } catch (error) {
        const failure = this.failure(sdk, error, scope, attempt);
        if (await this.shouldRetry(failure, request, attempt)) continue;
        throw failure;
      } finally {
        scope.dispose();
      }
    }
  }

  async *stream(request: ChatRequest): AsyncGenerator<ChatDelta, void, undefined> {
    const body = this.wireRequest(request);
    const [client, sdk] = await this.connection();
    for (let attempt = 1; ; attempt++) {
      const scope = new AttemptScope(request.signal, request.timeoutMs);
      // Once text has been handed out, a retry would repeat it: only failures before that retry.
      let started = false;
      try {
        const stream = await client.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          { signal: scope.signal, maxRetries: 0, ...(request.timeoutMs ? { timeout: request.timeoutMs } : {}) },
        );
        const calls = new ToolCallAssembler();
        let content = "";
        let thinking = false;
        let usage: ChatUsage | undefined;
        let finishReason: string | null = null;
        for await (const chunk of stream) {
          if (chunk.usage) usage = usageOf(chunk.usage).usage;
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          if (choice.finish_reason) finishReason = choice.finish_reason;
          const delta = choice.delta ?? {};
          let text = "";
          const reasoning = reasoningText(delta);
          if (reasoning) {
            text += thinking ? reasoning : `${THINK_OPEN}${reasoning}`;
            thinking = true;
          }
          if (typeof delta.content === "string" && delta.content !== "") {
            if (thinking) {
              text += THINK_CLOSE;
              thinking = false;
            }
            text += delta.content;
          }
          for (const call of delta.tool_calls ?? []) calls.add(call);
          if (text) {
            content += text;
            started = true;
            yield { type: "text", text };
          }
        }
        // The client's stream ends quietly when its signal fires: a cut-off answer is not an answer.
        if (scope.signal.aborted) throw scope.signal.reason ?? new Error("aborted");
        if (thinking) {
          content += THINK_CLOSE;
          yield { type: "text", text: THINK_CLOSE };
        }
        const counted = usage ? { usage, usageReported: true } : { usage: { ...NO_USAGE }, usageReported: false };
        yield { type: "done", result: { content, toolCalls: calls.result(), ...counted, finishReason } };
        return;
      } catch (error) {
        const failure = this.failure(sdk, error, scope, attempt);
        if (!started && (await this.shouldRetry(failure, request, attempt))) continue;
        throw failure;
      } finally {
        scope.dispose();
      }
    }
  }

  /** The client, and the package whose error classes it throws. */
  async transcribe(audio: Uint8Array, fileName: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string> {
    const [client, sdk] = await this.connection();
    const scope = new AttemptScope(options.signal, options.timeoutMs);
    try {
      const file = await sdk.toFile(audio, fileName);
      const result = await client.audio.transcriptions.create({ model: this.model, file }, { signal: scope.signal, maxRetries: 0, ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}) });
      return result.text;
    } catch (error) {
      throw this.failure(sdk, error, scope, 1);
    } finally {
      scope.dispose();
    }
  }

  private async connection(): Promise<[OpenAI, OpenAISdk]> {
    const client = this.client instanceof LazyOpenAIClient ? await this.client.get() : this.client;
    return [client, await loadOpenAISdk()];
  }

  /** Waits out the backoff and says whether to try again. */
  private async shouldRetry(failure: LlmRequestError, request: ChatRequest, attempt: number): Promise<boolean> {
    const maxRetries = Math.max(0, Math.floor(request.retry?.maxRetries ?? 0));
    if (failure.kind !== "http" || !isRetryableStatus(failure.status) || attempt > maxRetries) return false;
    await waitUnlessAborted(backoffDelay(attempt, request.retry?.delayMs ?? 0), request.signal);
    return !request.signal?.aborted;
  }

  private wireRequest(request: ChatRequest): WireRequest {
    const body: WireRequest = { model: this.model, messages: request.messages.map(wireMessage) };
    if (request.tools && request.tools.length > 0) body.tools = request.tools as WireRequest["tools"];
    for (const key of ["temperature", "top_p", "max_tokens", "presence_penalty", "frequency_penalty"] as const) {
      const value = request[key];
      if (value !== undefined) body[key] = value;
    }
    if (request.response_format) body.response_format = request.response_format as unknown as WireRequest["response_format"];
    return body;
  }

  private label(): string {
    const id = this.llmId && this.llmId !== this.model ? ` (llm_id "${this.llmId}")` : "";
    return `model "${this.model}"${id} at ${this.client.baseURL}`;
  }

  /** What went wrong, in words that name the model, the status and what the server said. */
  private failure({ default: OpenAI }: OpenAISdk, error: unknown, scope: AttemptScope, attempts: number): LlmRequestError {
    if (error instanceof LlmRequestError) return error;
    const details = { llmId: this.llmId, model: this.model, baseURL: this.client.baseURL, attempts, cause: error };
    const make = (kind: LlmFailureKind, message: string, extra: { status?: number; serverMessage?: string } = {}) =>
      new LlmRequestError({ ...details, ...extra, kind }, message);
    const tries = attempts > 1 ? ` (after ${attempts} attempts)` : "";
    if (scope.timedOut || error instanceof OpenAI.APIConnectionTimeoutError) {
      return make("timeout", `${this.label()} did not answer within ${timeoutText(scope, error instanceof OpenAI.APIConnectionTimeoutError)}`);
    }
    if (scope.callerAborted) return make("aborted", `the request to ${this.label()} was aborted`);
    if (error instanceof OpenAI.APIError && typeof error.status === "number") {
      const serverMessage = serverMessageOf(error);
      return make("http", `${this.label()} answered HTTP ${error.status}: ${serverMessage}${tries}`, { status: error.status, serverMessage });
    }
    if (error instanceof OpenAI.APIConnectionError) {
      const cause = (error as { cause?: unknown }).cause;
      const serverMessage = cause instanceof Error ? cause.message : error.message;
      return make("connection", `${this.label()} could not be reached: ${serverMessage}`, { serverMessage });
    }
    const serverMessage = error instanceof Error ? error.message : String(error);
    return make("stream", `${this.label()} failed while answering: ${serverMessage}`, { serverMessage });
  }
}

function timeoutText(scope: AttemptScope, clientTimedOut: boolean): string {
  if (scope.timedOut && scope.timeoutMs !== undefined) return `${scope.timeoutMs} ms`;
  return clientTimedOut ? "the client's timeout" : "its timeout";
}

/** The server's own words: the `error.message` of an OpenAI-style body, else the body or status text. */
function serverMessageOf(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === "string" && body.message) return body.message;
  if (body && typeof body === "object") return JSON.stringify(body);
  return error.message.replace(new RegExp(`^${error.status} `), "") || "(no body)";
}

function usageOf(usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined): {
  usage: ChatUsage;
  usageReported: boolean;
} {
  if (!usage) return { usage: { ...NO_USAGE }, usageReported: false };
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  return { usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: usage.total_tokens ?? prompt + completion }, usageReported: true };
}

/** Reasoning sent beside the answer: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (Ollama). */
function reasoningText(part: unknown): string {
  if (!part || typeof part !== "object") return "";
  const { reasoning_content, reasoning } = part as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof reasoning_content === "string") return reasoning_content;
  return typeof reasoning === "string" ? reasoning : "";
}

function wireMessage(message: ChatMessage, index: number): ChatCompletionMessageParam {
  const wire: Record<string, unknown> = { role: message.role };
  if (message.role === "tool") {
    if (!message.tool_call_id) throw new Error(`chat message ${index} has role "tool" but no tool_call_id (the call it answers)`);
    wire.tool_call_id = message.tool_call_id;
  }
  // Assistant messages that only call tools have null content; the others need text.
  wire.content = message.content ?? (message.role === "assistant" ? null : "");
  if (message.name) wire.name = message.name;
  if (message.tool_calls && message.tool_calls.length > 0) wire.tool_calls = message.tool_calls;
  return wire as unknown as ChatCompletionMessageParam;
}
