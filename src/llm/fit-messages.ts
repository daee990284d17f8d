/**
 * Trimming a conversation to a model's context window, as RAGFlow's message_fit_in does before
 * every LLM and Agent call: the system prompt and the latest turn are kept, the oldest history
 * goes first, and only when the system prompt and the latest turn alone are too long is text
 * shortened. RAGFlow drops the whole history at once and then cuts the system prompt (when it
 * holds over 80% of the tokens) or the last message; here the history goes one message at a time,
 * oldest first, so as much of it is kept as fits, and the longest text is cut first.
 *
 * A tool-calling assistant message and the tool results answering it are dropped together: the
 * API refuses tool results whose call is missing.
 */
import { contentParts, countChatTokens, messageTokens, TOKENS_FOR_REPLY, toolsTokens, type Tokenizer } from "./tokens.js";
import type { ChatContentPart, ChatMessage, FunctionTool } from "./types.js";

interface FitResult {
  messages: ChatMessage[];
  /** The request's tokens after fitting. */
  tokens: number;
  /** Messages of the history left out. */
  dropped: number;
  /** Messages whose text was cut. */
  shortened: number;
  /** False when even the kept messages cut to nothing exceed the budget (the tools alone are too big). */
  fits: boolean;
}

/** Where the latest turn starts: the last user message (or the last message when there is none). */
function latestTurnStart(messages: readonly ChatMessage[], from: number): number {
  for (let i = messages.length - 1; i >= from; i--) if (messages[i].role === "user") return i;
  return Math.max(from, messages.length - 1);
}

/** The middle's messages in droppable units: [start, end) ranges, oldest first. */
function units(messages: readonly ChatMessage[], start: number, end: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = start;
  while (i < end) {
    let j = i + 1;
    if (messages[i].role === "assistant" && (messages[i].tool_calls?.length ?? 0) > 0) while (j < end && messages[j].role === "tool") j++;
    out.push([i, j]);
    i = j;
  }
  return out;
}

/** The message with its text cut to `keep` tokens (image parts stay). */
function withText(message: ChatMessage, text: string): ChatMessage {
  if (typeof message.content === "string" || message.content === null) return { ...message, content: text };
  let placed = false;
  const parts = message.content.flatMap((part): ChatContentPart[] => {
    if (part.type !== "text") return [part];
    if (placed) return [];
    placed = true;
    return [{ ...part, text }];
  });
  return { ...message, content: parts };
}

function cutText(text: string, keep: number, tokenizer: Tokenizer): string {
  if (keep <= 0) return "";
  return tokenizer.decode(tokenizer.encode(text).slice(0, keep));
}

export function fitMessages(input: readonly ChatMessage[], tools: readonly FunctionTool[] | undefined, budget: number, tokenizer: Tokenizer): FitResult {
  const messages = [...input];
  const counts = messages.map((m) => messageTokens(m, tokenizer));
  const fixed = TOKENS_FOR_REPLY + toolsTokens(tools, tokenizer);
  let total = fixed + counts.reduce((a, b) => a + b, 0);
  if (total <= budget) return { messages, tokens: total, dropped: 0, shortened: 0, fits: true };

  // 1. Drop history, oldest first: between the leading system messages and the latest turn.
  let headEnd = 0;
  while (headEnd < messages.length && messages[headEnd].role === "system") headEnd++;
  const tailStart = latestTurnStart(messages, headEnd);
  const drop = new Set<number>();
  for (const [start, end] of units(messages, headEnd, tailStart)) {
    if (total <= budget) break;
    for (let i = start; i < end; i++) {
      drop.add(i);
      total -= counts[i];
    }
  }
  const keptIndexes = messages.map((_, i) => i).filter((i) => !drop.has(i));
  const kept = keptIndexes.map((i) => messages[i]);
  const keptCounts = keptIndexes.map((i) => counts[i]);
  if (total <= budget) return { messages: kept, tokens: total, dropped: drop.size, shortened: 0, fits: true };

  // 2. Shorten what is left, the longest text first, until it fits.
  const shortened = new Set<number>();
  const exhausted = new Set<number>();
  while (total > budget) {
    let pick = -1;
    let pickTokens = 0;
    kept.forEach((message, i) => {
      if (exhausted.has(i)) return;
      const tokens = tokenizer.encode(contentParts(message.content).text).length;
      if (tokens > pickTokens) {
        pick = i;
        pickTokens = tokens;
      }
    });
    if (pick < 0) break;
    const text = contentParts(kept[pick].content).text;
    const keep = Math.max(0, pickTokens - (total - budget));
    kept[pick] = withText(kept[pick], cutText(text, keep, tokenizer));
    const recounted = messageTokens(kept[pick], tokenizer);
    // A cut inside a multi-byte character can decode to a replacement character worth a token more: cut again.
    if (recounted >= keptCounts[pick]) {
      kept[pick] = withText(kept[pick], cutText(text, keep - 2, tokenizer));
    }
    const after = messageTokens(kept[pick], tokenizer);
    total += after - keptCounts[pick];
    keptCounts[pick] = after;
    shortened.add(pick);
    if (contentParts(kept[pick].content).text === "") exhausted.add(pick);
  }
  return { messages: kept, tokens: countChatTokens(kept, tools, tokenizer), dropped: drop.size, shortened: shortened.size, fits: total <= budget };
}
