/**
 * Token counts as RAGFlow's pipelines take them (research/ragflow-pipelines.md §5.1):
 * `num_tokens_from_string` is the length of tiktoken's cl100k_base encoding, and 0 for a text that
 * tiktoken refuses (one holding a special token such as `<|endoftext|>`); `truncate(s, n)` decodes
 * the first n tokens. The chunkers count in tight loops, so the encoding is loaded once (async, on
 * first use) and counting is synchronous after that. The encoding is tiktoken's exactly (see
 * cl100k-bpe.ts), for texts of any length.
 */
import { importPackage } from "../../util/optional-package.js";
import { Cl100kEncoding, type RawRank } from "./cl100k-bpe.js";

/** cl100k_base counting, loaded. */
export interface TokenCounter {
  /** RAGFlow's `num_tokens_from_string`: 0 when the text holds a special token. */
  count(text: string): number;
  /** RAGFlow's `truncate(text, max)`: the text of its first `max` tokens (the whole text when tiktoken refuses it). */
  truncate(text: string, max: number): string;
  /**
   * `truncate` where tiktoken refusing the text matters: undefined when Python's `truncate` would
   * raise (the text holds a special token). An unfinished character at the cut reads as U+FFFD.
   */
  tryTruncate(text: string, max: number): string | undefined;
}

let counter: Promise<TokenCounter> | undefined;

function counterOf(encoding: Cl100kEncoding): TokenCounter {
  const count = (text: string): number => {
    if (text === "" || encoding.refuses(text)) return 0;
    let n = 0;
    for (const piece of encoding.pieces(text)) n += encoding.encodePiece(piece).length;
    return n;
  };
  const tryTruncate = (text: string, max: number): string | undefined => {
    if (encoding.refuses(text)) return undefined;
    const tokens: number[] = [];
    // Only the first `max` tokens matter, and the pre-tokens come lazily: stop once there are enough.
    if (max > 0) {
      for (const piece of encoding.pieces(text)) {
        for (const token of encoding.encodePiece(piece)) tokens.push(token);
        if (tokens.length >= max) break;
      }
    }
    return encoding.decode(tokens.slice(0, Math.max(0, max)));
  };
  return { count, tryTruncate, truncate: (text, max) => tryTruncate(text, max) ?? text };
}

/** The cl100k_base counter, loaded on first use (the rank table takes a moment). */
export function cl100kCounter(): Promise<TokenCounter> {
  counter ??= importPackage<{ default: readonly RawRank[] }>("gpt-tokenizer/bpeRanks/cl100k_base", "Counting tokens as RAGFlow's chunkers do (cl100k_base)")
    .then((module) => counterOf(new Cl100kEncoding(module.default)))
    .catch((error: unknown) => {
      counter = undefined; // a later call may find the package installed
      throw error;
    });
  return counter;
}
