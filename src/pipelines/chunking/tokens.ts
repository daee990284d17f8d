/**
 * Token counts as RAGFlow's pipelines take them (research/ragflow-pipelines.md §5.1):
 * `num_tokens_from_string` is the length of tiktoken's cl100k_base encoding, and 0 for a text that
 * tiktoken refuses (one holding a special token such as `<|endoftext|>`); `truncate(s, n)` decodes
 * the first n tokens. The chunkers count in tight loops, so the encoding is loaded once (async, on
 * first use) and counting is synchronous after that.
 */
import { loadTokenizer, type Tokenizer } from "../../llm/tokens.js";

/** cl100k_base counting, loaded. */
export interface TokenCounter {
  /** RAGFlow's `num_tokens_from_string`: 0 when the text holds a special token. */
  count(text: string): number;
  /** RAGFlow's `truncate(text, max)`: the text of its first `max` tokens. */
  truncate(text: string, max: number): string;
}

let counter: Promise<TokenCounter> | undefined;

function counterOf(tokenizer: Tokenizer): TokenCounter {
  const encode = (text: string): number[] | undefined => {
    try {
      return tokenizer.encode(text);
    } catch {
      // gpt-tokenizer, like tiktoken, refuses special tokens in ordinary text; RAGFlow counts that as 0.
      return undefined;
    }
  };
  return {
    count: (text) => (text === "" ? 0 : (encode(text)?.length ?? 0)),
    truncate: (text, max) => {
      const tokens = encode(text);
      if (!tokens) return text;
      return tokens.length <= max ? text : tokenizer.decode(tokens.slice(0, Math.max(0, max)));
    },
  };
}

/** The cl100k_base counter, loaded on first use (gpt-tokenizer's tables take a moment). */
export function cl100kCounter(): Promise<TokenCounter> {
  counter ??= loadTokenizer("cl100k_base").then(counterOf);
  return counter;
}
