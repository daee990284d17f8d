/**
 * Multi-turn question refinement (RAGFlow's `full_question`): the model rewrites the latest user
 * question into one that stands on its own, filling in what the earlier turns say and turning
 * relative dates into absolute ones. RAGFlow uses it in one place of a canvas: an Agent with
 * tools that streams into a Message, once its conversation (history and prompts, without the
 * system prompt) holds more than 3 messages; the rewritten question replaces the last message.
 * The tools then get queries written from a complete question.
 */
import type { ChatMessage, ChatModel } from "../../llm/types.js";
import { contextWindow } from "../../llm/context-window.js";
import { fitMessages } from "../../llm/fit-messages.js";
import { countChatTokens, encodingFor, loadTokenizer, mayExceed } from "../../llm/tokens.js";
import { CONTEXT_SHARE, completeChat, type RequestBase, type UsageSink } from "./model-call.js";
import { withoutThinking } from "./think-tags.js";

/** More messages than this (history and prompts) and the latest question is refined. */
const REFINE_AFTER_MESSAGES = 3;

/** Today, yesterday and tomorrow as YYYY-MM-DD (the process's local date, as RAGFlow's `date.today()`). */
interface QuestionDates {
  today: string;
  yesterday: string;
  tomorrow: string;
}

function isoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function questionDates(now: Date): QuestionDates {
  const shifted = (days: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return { today: isoDate(now), yesterday: isoDate(shifted(-1)), tomorrow: isoDate(shifted(1)) };
}

/** A message's text: a string as it is, the text parts of a multi-part message. */
function messageText(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) return "";
  return message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/** The conversation as the prompt shows it: `USER: …` and `ASSISTANT: …` lines; other roles are left out. */
export function conversationText(messages: readonly ChatMessage[]): string {
  return messages
    .filter((m) => m.role === "user" || m.role === "assistant")
    .map((m) => `${m.role.toUpperCase()}: ${messageText(m)}`)
    .join("\n");
}

/** The system prompt of the rewrite request. */
export function fullQuestionPrompt(messages: readonly ChatMessage[], dates: QuestionDates, language?: string): string {
  const languageRule = language && language.trim() !== "" ? `Write the question in ${language.trim()}.` : "Write the question in the language of the user's latest question.";
  return [
    "You turn the latest user question of a conversation into a question that can be understood without the conversation.",
    "",
    "Rules:",
    '1. Fill in from the earlier turns whatever the latest question leaves out: who or what words such as "he", "it" or "that one" point to, and the subject it continues.',
    `2. Replace relative dates with absolute ones. Today is ${dates.today}; "yesterday" is ${dates.yesterday}; "tomorrow" is ${dates.tomorrow}.`,
    "3. When the latest question is already complete, give it back unchanged.",
    "4. Reply with the rewritten question and nothing else: do not answer it or explain it.",
    `5. ${languageRule}`,
    "",
    "Example 1",
    "USER: Who wrote Pride and Prejudice?",
    "ASSISTANT: Jane Austen.",
    "USER: When was she born?",
    "Question: When was Jane Austen, the author of Pride and Prejudice, born?",
    "",
    "Example 2",
    "USER: Is the city museum open today?",
    "ASSISTANT: Yes, until 6 pm.",
    "USER: And tomorrow?",
    `Question: Is the city museum open on ${dates.tomorrow}?`,
    "",
    "The conversation:",
    conversationText(messages),
  ].join("\n");
}

/** The user message of the rewrite request. */
export const FULL_QUESTION_CUE = "Question:";

interface RefineOptions {
  model: ChatModel;
  base: RequestBase;
  onUsage: UsageSink;
  now?: Date;
  language?: string;
}

/**
 * The latest question rewritten to stand alone. When the model fails or answers nothing, the
 * original question is kept (RAGFlow keeps it when the answer is an error); a cancelled run
 * still stops.
 */
export async function fullQuestion(messages: readonly ChatMessage[], options: RefineOptions): Promise<string> {
  const last = messages.at(-1);
  const original = last ? messageText(last) : "";
  const dates = questionDates(options.now ?? new Date());
  let system = fullQuestionPrompt(messages, dates, options.language);
  const cue: ChatMessage = { role: "user", content: FULL_QUESTION_CUE };
  const budget = Math.floor(contextWindow(options.model) * CONTEXT_SHARE);
  if (mayExceed([{ role: "system", content: system }, cue], undefined, budget)) {
    // A long conversation is shown as the model's window allows: its oldest turns go first, as in the Agent's own request.
    const tokenizer = await loadTokenizer(encodingFor(options.model.model));
    const frame = countChatTokens([{ role: "system", content: fullQuestionPrompt([], dates, options.language) }, cue], undefined, tokenizer);
    system = fullQuestionPrompt(fitMessages(messages, undefined, budget - frame, tokenizer).messages, dates, options.language);
  }
  try {
    // As RAGFlow, no sampling options: only the component's retries and the run's cancellation.
    const result = await completeChat(options.model, { retry: options.base.retry, signal: options.base.signal, messages: [{ role: "system", content: system }, cue] }, options.onUsage);
    const answer = withoutThinking(result.content).trim().replace(/^question:\s*/i, "");
    return answer === "" ? original : answer;
  } catch (error) {
    if (options.base.signal?.aborted) throw error;
    return original;
  }
}

/** The conversation with its last message replaced by the refined question (images kept). */
export function withRefinedQuestion(messages: readonly ChatMessage[], question: string): ChatMessage[] {
  const out = [...messages];
  const last = out.at(-1);
  if (!last) return out;
  if (Array.isArray(last.content)) {
    const images = last.content.filter((part) => part.type !== "text");
    out[out.length - 1] = { role: "user", content: [{ type: "text", text: question }, ...images] };
  } else {
    out[out.length - 1] = { role: "user", content: question };
  }
  return out;
}

/** RAGFlow refines only when the conversation (without the system prompt) has more than 3 messages. */
export function shouldRefine(messages: readonly ChatMessage[]): boolean {
  return messages.length > REFINE_AFTER_MESSAGES;
}
