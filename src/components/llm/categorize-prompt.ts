/**
 * Categorize's prompts and its reading of the answer (RAGFlow categorize.py): the system prompt
 * lists the categories with their descriptions and examples, the user prompt holds the
 * conversation, and the category named most often in the answer wins.
 */
import type { ChatMessage } from "../../llm/types.js";
import { isPlainObject } from "../../util/values.js";
import { targetIds } from "../branch-targets.js";
import { withoutThinking } from "./think-tags.js";

interface CategorySpec {
  name: string;
  description: string;
  examples: string[];
  to: string[];
}

/** Examples as a list; a string holds one example per line (older DSLs). */
function exampleList(value: unknown): string[] {
  const items = typeof value === "string" ? value.split("\n") : Array.isArray(value) ? value : [];
  return items.filter((item): item is string => typeof item === "string" && item.trim() !== "");
}

/** The categories of `category_description`, in DSL order. */
export function categorySpecs(value: unknown): CategorySpec[] {
  if (!isPlainObject(value)) return [];
  return Object.entries(value).map(([name, raw]) => {
    const category = isPlainObject(raw) ? raw : {};
    return {
      name,
      description: typeof category.description === "string" ? category.description : "",
      examples: exampleList(category.examples),
      to: targetIds(category.to),
    };
  });
}

export function categorizeSystemPrompt(categories: readonly CategorySpec[]): string {
  const descriptions = categories
    .filter((c) => c.description.trim() !== "")
    .map((c) => `------\nCategory: ${c.name}\nDescription: ${c.description}`)
    .join("\n");
  const examples = categories.flatMap((c) => c.examples.map((example) => `USER: "${example.replace(/\n/g, "    ")}" → ${c.name}`));
  const lines = [
    "You are a classification system. Put the user's input into exactly ONE of these categories:",
    ...categories.map((c) => ` - ${c.name}`),
    ...(descriptions === "" ? [] : ["", "What each category means:", descriptions]),
    "",
    "---- Instructions ----",
    " - Consider both explicit mentions and implied context.",
    " - Prefer the most specific category that applies.",
    " - Answer with the category name only, without explanation.",
  ];
  if (examples.length > 0) lines.push("", "---- Examples ----", ...examples);
  return lines.join("\n");
}

/** The conversation, one line: `USER: "…" | ASSISTANT: "…" →`. */
export function categorizeUserPrompt(messages: readonly ChatMessage[]): string {
  const turns = messages.map((m) => `${m.role.toUpperCase()}: "${(typeof m.content === "string" ? m.content : "").replace(/\n/g, "")}"`);
  return `---- Real Data ----\n${turns.join(" | ")} →`;
}

/** Non-overlapping occurrences of `needle` in `haystack` (Python's str.count). */
function occurrences(haystack: string, needle: string): number {
  if (needle === "") return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * The chosen category: the one whose name occurs most often in the answer (case-insensitive;
 * ties go to the earlier category); when no name occurs, the last category.
 */
export function pickCategory(answer: string, categories: readonly CategorySpec[]): CategorySpec {
  if (categories.length === 0) throw new Error("category_description lists no category");
  const text = withoutThinking(answer).toLowerCase();
  let best: CategorySpec | undefined;
  let bestCount = 0;
  for (const category of categories) {
    const count = occurrences(text, category.name.toLowerCase());
    if (count > bestCount) {
      best = category;
      bestCount = count;
    }
  }
  return best ?? categories[categories.length - 1];
}
