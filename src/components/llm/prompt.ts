/**
 * The conversation an LLM or Agent sends (RAGFlow LLM._prepare_prompt_variables): the rendered
 * system prompt, the last turns of the canvas history, the rendered prompts, and the user's
 * files (text appended to the last user message, images as data-URI parts).
 */
import type { ChatContentPart, ChatMessage } from "../../llm/types.js";
import { stringifyValue } from "../../refs/template.js";
import { finiteNumber, isPlainObject } from "../../util/values.js";
import type { ComponentContext, Params } from "../types.js";

export interface PromptMessage {
  role: "user" | "assistant";
  content: string;
}

interface PreparedPrompt {
  /** The rendered system prompt, prompt-override blocks cut out. */
  system: string;
  /** Blocks cut out of the system prompt, by lower-case tag (e.g. `citation_guidelines`). */
  overrides: Record<string, string>;
  /** History and prompts, without the system message. */
  messages: ChatMessage[];
}

/** Blocks of a system prompt that configure RAGFlow's built-in prompts instead of being sent. */
const OVERRIDE_TAGS = ["TASK_ANALYSIS", "PLAN_GENERATION", "REFLECTION", "CONTEXT_SUMMARY", "CONTEXT_RANKING", "CITATION_GUIDELINES"];

/** Cut `<TAG>…</TAG>` blocks out of a system prompt (RAGFlow LLM._extract_prompts). */
export function extractOverrides(system: string): { system: string; overrides: Record<string, string> } {
  const overrides: Record<string, string> = {};
  let text = system;
  for (const tag of OVERRIDE_TAGS) {
    const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "gi");
    const first = pattern.exec(text);
    if (!first) continue;
    overrides[tag.toLowerCase()] = first[1];
    text = text.replace(pattern, "");
  }
  return { system: text, overrides };
}

/** `prompts` as a list of {role, content}: a string is one user prompt; other roles read as user. */
export function promptList(value: unknown): PromptMessage[] {
  if (typeof value === "string") return [{ role: "user", content: value }];
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (!isPlainObject(item) || typeof item.content !== "string") return [];
    return [{ role: item.role === "assistant" ? "assistant" : "user", content: item.content } satisfies PromptMessage];
  });
}

/** The history window (`message_history_window_size` turns), as RAGFlow's get_history. */
export function historyWindow(params: Params, fallback: number): number {
  const n = finiteNumber(params.message_history_window_size);
  return n === undefined ? fallback : Math.max(0, Math.floor(n));
}

/**
 * Past turns as chat messages. The history ends with this turn's user query, which the prompts
 * carry instead (RAGFlow drops it with `get_history(n)[:-1]`).
 */
export function pastMessages(ctx: ComponentContext, window: number): ChatMessage[] {
  const entries = ctx.canvas.history(window);
  const messages: ChatMessage[] = entries.map(([role, content]) => ({
    role: role === "assistant" ? "assistant" : "user",
    content: stringifyValue(content),
  }));
  const last = messages.at(-1);
  if (last && last.role === "user" && ctx.query !== "" && last.content === ctx.query) messages.pop();
  return messages;
}

/** Append the prompts; the first one replaces a trailing history message of the same role. */
export function withPrompts(history: ChatMessage[], prompts: readonly PromptMessage[]): ChatMessage[] {
  const messages = [...history];
  prompts.forEach((prompt, i) => {
    if (i === 0 && messages.at(-1)?.role === prompt.role) messages.pop();
    messages.push({ role: prompt.role, content: prompt.content });
  });
  return messages;
}

/** Text and images taken from a files value (`sys.files` or `visual_files_var`). */
interface FileContents {
  texts: string[];
  images: string[];
}

function isImageUri(value: unknown): value is string {
  return typeof value === "string" && value.startsWith("data:image/");
}

/** Files as RAGFlow hands them to a model: data-URI strings are images, other strings are text. */
export function fileContents(value: unknown, imagesOnly = false): FileContents {
  const out: FileContents = { texts: [], images: [] };
  const items = Array.isArray(value) ? value : value === undefined || value === null || value === "" ? [] : [value];
  for (const item of items) {
    if (isImageUri(item)) out.images.push(item);
    else if (isPlainObject(item) && (isImageUri(item.url) || isImageUri(item.data))) out.images.push((isImageUri(item.url) ? item.url : item.data) as string);
    else if (imagesOnly) continue;
    else if (typeof item === "string" && item.trim() !== "") out.texts.push(item);
    else if (isPlainObject(item) && typeof (item.content ?? item.text) === "string") out.texts.push((item.content ?? item.text) as string);
  }
  return out;
}

/** Add file texts to the last user message and images as image parts of it. */
export function withFiles(messages: ChatMessage[], files: FileContents): ChatMessage[] {
  if (files.texts.length === 0 && files.images.length === 0) return messages;
  const out = [...messages];
  let index = out.map((m) => m.role).lastIndexOf("user");
  if (index < 0) {
    out.push({ role: "user", content: "" });
    index = out.length - 1;
  }
  const current = out[index];
  let text = typeof current.content === "string" ? current.content : "";
  if (files.texts.length > 0) text = [text, ...files.texts].filter((t) => t !== "").join("\n\n");
  if (files.images.length === 0) {
    out[index] = { ...current, content: text };
    return out;
  }
  const parts: ChatContentPart[] = [{ type: "text", text }, ...files.images.map((url) => ({ type: "image_url" as const, image_url: { url } }))];
  out[index] = { ...current, content: parts };
  return out;
}

/** True when a text reads `sys.files` itself, so the files are not added a second time. */
function mentionsFiles(texts: readonly string[]): boolean {
  return texts.some((text) => /\{\s*sys\.files\s*\}/i.test(text));
}

interface PromptOptions {
  /** Replaces the prompts; not rendered (a sub-agent's task, written by the calling model). */
  literalPrompts?: PromptMessage[];
  /** History turns used when the params hold none (the ComponentParamBase default). */
  defaultWindow?: number;
}

/** The whole conversation of an LLM or Agent turn, references rendered. */
export function preparePrompt(ctx: ComponentContext, params: Params, options: PromptOptions = {}): PreparedPrompt {
  const rawSystem = typeof params.sys_prompt === "string" ? params.sys_prompt : "";
  const { system, overrides } = extractOverrides(ctx.render(rawSystem));
  const rawPrompts = options.literalPrompts ? [] : promptList(params.prompts);
  const prompts = options.literalPrompts ?? rawPrompts.map((p) => ({ role: p.role, content: ctx.render(p.content) }));
  const history = pastMessages(ctx, historyWindow(params, options.defaultWindow ?? 13));
  let messages = withPrompts(history, prompts);

  const files: FileContents = { texts: [], images: [] };
  const visual = params.visual_files_var;
  if (typeof visual === "string" && visual.trim() !== "") files.images.push(...fileContents(ctx.get(visual), true).images);
  if (!mentionsFiles([rawSystem, ...rawPrompts.map((p) => p.content)])) {
    const own = fileContents(ctx.get("sys.files"));
    files.texts.push(...own.texts);
    for (const image of own.images) if (!files.images.includes(image)) files.images.push(image);
  }
  messages = withFiles(messages, files);
  return { system, overrides, messages };
}

/** The system message (when there is one) followed by the conversation. */
export function withSystem(system: string, messages: readonly ChatMessage[]): ChatMessage[] {
  return system.trim() === "" ? [...messages] : [{ role: "system", content: system }, ...messages];
}
