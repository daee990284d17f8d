/**
 * Retrieval's `cross_languages` (RAGFlow's cross_languages): before a search, the run's default
 * chat model translates the query into each language listed, and the translations, one per line,
 * are what the local knowledge bases are searched with, so documents in any of those languages
 * match. A RAGFlow server gets `cross_languages` with the original query and translates itself.
 * When the model fails, the original query is searched (as RAGFlow does).
 */
import { completeChat } from "../../components/llm/model-call.js";
import type { UsageReport } from "../../components/types.js";
import type { ChatModel, LlmProvider } from "../../llm/types.js";

export const TRANSLATOR_PROMPT = [
  "You translate search queries.",
  "You get a query after `Input:` and, after a line `===`, the languages to translate it into, separated by commas.",
  "Translate the query into each language, in the order given, keeping names, numbers and technical terms exact.",
  "Reply with the translations only, one per language, separated by lines that hold only `###`.",
].join("\n");

export function translationRequest(query: string, languages: readonly string[]): string {
  return `Input: ${query}\n===\n${languages.join(", ")}`;
}

/** The translations of a reply, one per line (blank parts dropped). */
export function parseTranslations(reply: string): string {
  const text = reply.replace(/^[\s\S]*<\/think>/, "").replace(/^\s*Output:\s*/i, "");
  return text
    .split(/^\s*###\s*$/m)
    .map((part) => part.replace(/\s*\n+\s*/g, " ").trim())
    .filter((part) => part !== "")
    .join("\n");
}

interface TranslateOptions {
  provider: LlmProvider | undefined;
  label: string;
  signal: AbortSignal;
  onUsage: (usage: UsageReport) => void;
}

/** The query in every language of `languages` (one per line), or the query itself when it cannot be translated. */
export async function crossLanguageQuery(query: string, languages: readonly string[], options: TranslateOptions): Promise<string> {
  if (languages.length === 0 || !options.provider) return query;
  let model: ChatModel;
  try {
    model = options.provider.chatModel("", { id: options.label, type: "Retrieval" });
  } catch {
    return query;
  }
  try {
    const messages = [
      { role: "system" as const, content: TRANSLATOR_PROMPT },
      { role: "user" as const, content: translationRequest(query, languages) },
    ];
    const result = await completeChat(model, { temperature: 0.2, signal: options.signal, messages }, options.onUsage);
    const translated = parseTranslations(result.content);
    return translated === "" ? query : translated;
  } catch (error) {
    if (options.signal.aborted) throw error;
    return query;
  }
}
