/**
 * Counting a chat request's tokens as OpenAI models count them (gpt-tokenizer's BPE encodings:
 * o200k_base for the GPT-4o, GPT-4.1, GPT-5 and o-series families, cl100k_base for the rest),
 * with OpenAI's framing: a few tokens per message and for the reply's start. For other vendors'
 * models the count is an estimate in the same unit, which is what context windows are quoted in.
 *
 * An encoding's tables take a moment to load, so they load on first use, and only when a request
 * could be over its budget at all (see mayExceed).
 */
import type { ChatMessage, FunctionTool } from "./types.js";
import { importPackage } from "../util/optional-package.js";

export type EncodingName = "o200k_base" | "cl100k_base";

export interface Tokenizer {
  readonly encoding: EncodingName;
  encode(text: string): number[];
  decode(tokens: readonly number[]): string;
}

/** Tokens OpenAI's chat format adds around each message, and before the reply. */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_FOR_REPLY = 3;
/** What one image part counts for (OpenAI's low-detail image cost); images are never cut. */
export const TOKENS_PER_IMAGE = 85;

const O200K_FAMILIES = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)/;

/** The encoding of a model name (a provider prefix such as "openai/" is ignored). */
export function encodingFor(model: string): EncodingName {
  const name = model.toLowerCase().split("/").at(-1) ?? "";
  return O200K_FAMILIES.test(name) ? "o200k_base" : "cl100k_base";
}

const loaded = new Map<EncodingName, Promise<Tokenizer>>();

export function loadTokenizer(encoding: EncodingName): Promise<Tokenizer> {
  let tokenizer = loaded.get(encoding);
  if (!tokenizer) {
    const module = importPackage<typeof import("gpt-tokenizer/encoding/cl100k_base")>(`gpt-tokenizer/encoding/${encoding}`, "Counting tokens to fit a model's context window");
    tokenizer = module.then((m) => ({ encoding, encode: (text: string) => encodeInSlices(text, m.encode), decode: (tokens: readonly number[]) => m.decode(tokens as number[]) }));
    loaded.set(encoding, tokenizer);
  }
  return tokenizer;
}

/**
 * Longest text encoded in one piece. BPE's merge loop is quadratic in the length of one
 * pre-token, and a long run with no space or punctuation (base64, a repeated character) is one
 * pre-token: 40 000 "a"s take 0.6 s, a megabyte would take minutes. Longer texts are encoded in
 * slices cut at whitespace where there is some; the tokens of the slices decode to the same text,
 * and the count differs from the exact one by at most a token or two per cut.
 */
export const MAX_ENCODE_SLICE = 4096;

export function encodeInSlices(text: string, encode: (text: string) => number[]): number[] {
  if (text.length <= MAX_ENCODE_SLICE) return encode(text);
  const tokens: number[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + MAX_ENCODE_SLICE, text.length);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > start + MAX_ENCODE_SLICE / 2) end = space;
      // Never between the two halves of a surrogate pair.
      else if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? "")) end--;
    }
    for (const token of encode(text.slice(start, end))) tokens.push(token);
    start = end;
  }
  return tokens;
}

/** The text parts and the number of images of a message's content. */
export function contentParts(content: ChatMessage["content"]): { text: string; images: number } {
  if (typeof content === "string") return { text: content, images: 0 };
  if (!Array.isArray(content)) return { text: "", images: 0 };
  let text = "";
  let images = 0;
  for (const part of content) {
    if (part.type === "text") text += part.text;
    else images++;
  }
  return { text, images };
}

/** The tokens of one message: its framing, role, content, name and tool calls. */
export function messageTokens(message: ChatMessage, tokenizer: Tokenizer): number {
  const { text, images } = contentParts(message.content);
  let n = TOKENS_PER_MESSAGE + tokenizer.encode(message.role).length + tokenizer.encode(text).length + images * TOKENS_PER_IMAGE;
  if (message.name) n += tokenizer.encode(message.name).length + 1;
  for (const call of message.tool_calls ?? []) n += TOKENS_PER_MESSAGE + tokenizer.encode(call.function.name).length + tokenizer.encode(call.function.arguments).length;
  if (message.tool_call_id) n += tokenizer.encode(message.tool_call_id).length;
  return n;
}

/** What the offered tools cost: their schemas as JSON (the API's own rendering is close to it). */
export function toolsTokens(tools: readonly FunctionTool[] | undefined, tokenizer: Tokenizer): number {
  return tools && tools.length > 0 ? tokenizer.encode(JSON.stringify(tools)).length : 0;
}

/** The tokens a request sends: every message, the tools, and the reply's start. */
export function countChatTokens(messages: readonly ChatMessage[], tools: readonly FunctionTool[] | undefined, tokenizer: Tokenizer): number {
  return messages.reduce((sum, message) => sum + messageTokens(message, tokenizer), TOKENS_FOR_REPLY) + toolsTokens(tools, tokenizer);
}

/**
 * False when the request is certainly within `budget` without counting: a BPE token is at least
 * one UTF-8 byte, so the bytes bound the tokens from above.
 */
export function mayExceed(messages: readonly ChatMessage[], tools: readonly FunctionTool[] | undefined, budget: number): boolean {
  let bound = TOKENS_FOR_REPLY + (tools && tools.length > 0 ? Buffer.byteLength(JSON.stringify(tools)) : 0);
  for (const message of messages) {
    const { text, images } = contentParts(message.content);
    bound += TOKENS_PER_MESSAGE + Buffer.byteLength(message.role) + Buffer.byteLength(text) + images * TOKENS_PER_IMAGE;
    if (message.name) bound += Buffer.byteLength(message.name) + 1;
    for (const call of message.tool_calls ?? []) bound += TOKENS_PER_MESSAGE + Buffer.byteLength(call.function.name) + Buffer.byteLength(call.function.arguments);
    if (message.tool_call_id) bound += Buffer.byteLength(message.tool_call_id);
    if (bound > budget) return true;
  }
  return bound > budget;
}
