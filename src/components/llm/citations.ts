/**
 * Citation instructions for an Agent whose tools retrieved chunks while `cite` is on. RAGFlow
 * appends its citation prompt to the system prompt; a `<CITATION_GUIDELINES>` block in the
 * system prompt replaces the default wording.
 */
import type { ChatMessage } from "../../llm/types.js";

export const CITATION_INSTRUCTIONS = [
  "# Citations",
  "The tool results list retrieved chunks, each under an ID. When a sentence of your answer uses a chunk,",
  "cite it at the end of that sentence, before the final punctuation, written [ID:i] (several: [ID:i][ID:j], at most 4).",
  "Cite facts taken from the chunks (numbers, dates, definitions, quotes, claims); do not cite common knowledge",
  "or your own reasoning, and never cite an ID that is not in the results.",
].join("\n");

export function citationPrompt(overrides: Readonly<Record<string, string>>): string {
  const custom = overrides.citation_guidelines;
  return typeof custom === "string" && custom.trim() !== "" ? custom.trim() : CITATION_INSTRUCTIONS;
}

/** Append text to the system message, adding one when the conversation has none. */
export function appendToSystem(messages: ChatMessage[], text: string): void {
  const first = messages[0];
  if (first && first.role === "system" && typeof first.content === "string") {
    messages[0] = { ...first, content: first.content.trim() === "" ? text : `${first.content}\n\n${text}` };
  } else {
    messages.unshift({ role: "system", content: text });
  }
}
