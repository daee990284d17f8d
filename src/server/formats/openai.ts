/**
 * The OpenAI-compatible wire format (research/ragflow-api.md §2.4), with RAGFlow's quirks fixed:
 * `id` is always the real session id (so `session_id: previous.id` continues the conversation),
 * a stream ends with a `finish_reason: "stop"` chunk carrying the usage (the `openai` SDK's
 * `finalChatCompletion()` needs it), and think markers become `<think>` / `</think>`. A run that
 * fails says `**ERROR**: …` in the content, as RAGFlow does, and still finishes normally.
 */
import type { TokenUsage } from "../../engine/events.js";
import { messageText, type SessionEvent, type TurnTranscript } from "../transcript.js";

/** The question of an OpenAI request: the content of the last user message ("" when none). */
export function lastUserContent(messages: ReadonlyArray<{ role: string; content?: unknown }>): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== "user") continue;
    const content = messages[i].content;
    if (typeof content === "string") return content;
    // Content parts: their text, in order (images and the like are not questions).
    if (Array.isArray(content)) return content.map((part) => (part && typeof part.text === "string" ? part.text : "")).join("");
    return "";
  }
  return "";
}

interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  completion_tokens_details: { reasoning_tokens: number; accepted_prediction_tokens: number; rejected_prediction_tokens: number };
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

/** The run's real token usage when it called a model; otherwise an estimate in words (RAGFlow counts tokens of question and answer). */
export function openAiUsage(usage: TokenUsage, question: string, answer: string): OpenAiUsage {
  const prompt = usage.calls > 0 ? usage.prompt_tokens : countWords(question);
  const completion = usage.calls > 0 ? usage.completion_tokens : countWords(answer);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.calls > 0 ? usage.total_tokens : prompt + completion,
    completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function errorText(error: string): string {
  return `**ERROR**: ${error}`;
}

/** The non-stream answer (`get_data_openai`). */
export function openAiCompletion(sessionId: string, agentId: string, question: string, transcript: TurnTranscript, created: number): Record<string, unknown> {
  const error = transcript.error;
  const content = error === undefined ? transcript.content : `${transcript.content}${errorText(error)}`;
  const message: Record<string, unknown> = { role: "assistant", content };
  const reference = transcript.reference;
  if ("chunks" in reference) message.reference = reference;
  return {
    id: sessionId,
    object: "chat.completion",
    created,
    model: agentId,
    param: null,
    usage: openAiUsage(transcript.usage, question, transcript.content),
    choices: [{ message, logprobs: null, finish_reason: "stop", index: 0 }],
  };
}

/** Turns a run's events into `chat.completion.chunk`s. */
export class OpenAiChunks {
  constructor(
    private readonly sessionId: string,
    private readonly agentId: string,
    private readonly created: number,
  ) {}

  /** The chunk an event becomes: one per `message` and per `message_end`; none for the others. */
  of(event: SessionEvent): Record<string, unknown> | undefined {
    if (event.event === "message") return this.chunk({ content: messageText(event.data) }, null, null);
    if (event.event === "message_end") {
      const reference = event.data.reference;
      return this.chunk({ content: "", ...(reference !== undefined && reference !== null ? { reference } : {}) }, null, null);
    }
    return undefined;
  }

  /** The last chunk: `finish_reason: "stop"` and the usage. */
  finish(usage: OpenAiUsage): Record<string, unknown> {
    return this.chunk({ content: "" }, "stop", usage);
  }

  /** A failure: its text as content, finishing the answer. */
  error(message: string, usage: OpenAiUsage): Record<string, unknown> {
    return this.chunk({ content: errorText(message) }, "stop", usage);
  }

  private chunk(delta: Record<string, unknown>, finishReason: string | null, usage: OpenAiUsage | null): Record<string, unknown> {
    return {
      id: this.sessionId,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.agentId,
      system_fingerprint: "",
      usage,
      choices: [{ delta: { ...delta, role: "assistant", function_call: null, tool_calls: null }, finish_reason: finishReason, index: 0, logprobs: null }],
    };
  }
}
