/**
 * One LLM turn without tools (the LLM component, and an Agent that has no tools): the prompt,
 * then either structured output, a stream for a downstream Message, or one blocking answer.
 */
import type { ChatMessage } from "../../llm/types.js";
import type { TextStream } from "../text-stream.js";
import type { ComponentContext, Params } from "../types.js";
import { chatModelFor, completeChat, requestBase, streamChat, type UsageSink } from "./model-call.js";
import { preparePrompt, withSystem, type PromptMessage } from "./prompt.js";
import { answerStream } from "./streaming.js";
import { structuredAnswer, structuredAttempts, structuredPrompt, structuredSchema } from "./structured.js";

export interface Answer {
  /** The answer text, or a stream of it for a downstream Message. */
  content: string | TextStream;
  /** The parsed value when `outputs.structured` asks for JSON. */
  structured?: unknown;
}

interface AnswerOptions {
  /** Stream the answer (the caller checked the streaming contract). */
  stream: boolean;
  signal: AbortSignal;
  onUsage: UsageSink;
  /** Replaces the prompts, unrendered (a sub-agent's task). */
  literalPrompts?: PromptMessage[];
}

/** Two prompt parts as one system prompt. */
export function joinPrompts(...parts: string[]): string {
  return parts.filter((part) => part.trim() !== "").join("\n\n");
}

export async function llmAnswer(ctx: ComponentContext, params: Params, options: AnswerOptions): Promise<Answer> {
  const model = chatModelFor(ctx, params);
  const prompt = preparePrompt(ctx, params, { literalPrompts: options.literalPrompts });
  const base = requestBase(params, options.signal);
  const ask = async (messages: ChatMessage[]) => (await completeChat(model, { ...base, messages }, options.onUsage)).content;

  const schema = structuredSchema(params);
  if (schema) {
    const messages = withSystem(joinPrompts(prompt.system, structuredPrompt(schema)), prompt.messages);
    const { value, text } = await structuredAnswer({ schema, attempts: structuredAttempts(params), messages, ask });
    return { content: text, structured: value };
  }

  const messages = withSystem(prompt.system, prompt.messages);
  if (options.stream) return { content: answerStream(params, streamChat(model, { ...base, messages }, options.onUsage)) };
  return { content: await ask(messages) };
}
