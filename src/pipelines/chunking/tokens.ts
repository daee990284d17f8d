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
   * The count of `text`, kept so that the count of `text` with more appended (extendCount) reads
   * only what was appended and the last few characters before it.
   */
  startCount(text: string): CountState;
  /** The count of the state's text followed by `more`: equal to `count(text + more)`. */
  extendCount(state: CountState, more: string): CountState;
  /**
   * `truncate` where tiktoken refusing the text matters: undefined when Python's `truncate` would
   * raise (the text holds a special token). An unfinished character at the cut reads as U+FFFD.
   */
  tryTruncate(text: string, max: number): string | undefined;
}

/** A counted text, ready to be extended: its count, and the end that text appended to it may re-cut. */
export interface CountState {
  readonly count: number;
  /** The text's end from the first pre-token that appending could change. */
  readonly tail: string;
  /** Tokens of the text before `tail`. */
  readonly stable: number;
  /** It holds a special token, so it and every extension count 0. */
  readonly refused: boolean;
}

/**
 * Appending text can change only the pre-tokens that end within this many UTF-16 units of the
 * end: a contraction ("'l" + "l") reaches back 3 characters, a special token ("<|endofprompt|>")
 * 15, whitespace and letter runs only the last pre-token.
 */
const UNSTABLE_END = 16;

let counter: Promise<TokenCounter> | undefined;

/**
 * A pre-token longer than this (a run of CJK text with no punctuation, a line of one repeated
 * character) is truncated from a window at its start: merging all of it again for every cut
 * would make a hard split quadratic (tiktoken takes minutes to hours there). Merges are local,
 * so the first tokens of a window are the run's own, except in pathological texts.
 */
export const LONG_PIECE = 16_384;
/** Tokens a window must give beyond those needed, so that the cut at its end cannot reach them. */
const WINDOW_MARGIN = 32;

/** The first tokens of a long pre-token, from growing windows at its start. */
function headOfLongPiece(encoding: Cl100kEncoding, piece: string, need: number): readonly number[] {
  for (let width = Math.max(256, need * 4); ; width *= 2) {
    if (width >= piece.length) return encoding.encodePiece(piece);
    // Never between the halves of a surrogate pair.
    const end = (piece.charCodeAt(width - 1) & 0xfc00) === 0xd800 ? width + 1 : width;
    const tokens = encoding.encodePiece(piece.slice(0, end));
    if (tokens.length >= need + WINDOW_MARGIN) return tokens;
  }
}

function counterOf(encoding: Cl100kEncoding): TokenCounter {
  const count = (text: string): number => {
    if (text === "" || encoding.refuses(text)) return 0;
    let n = 0;
    for (const piece of encoding.pieces(text)) n += encoding.encodePiece(piece).length;
    return n;
  };
  /**
   * The first `max` tokens of `text`, or undefined when they cannot be told from it. With `partial`,
   * `text` is a window of a longer text: its last two pre-tokens may differ from the longer
   * text's (a cut inside "'ll", a number or a run of spaces), so they are not used, unless the
   * last is long (only its start is read, far from the cut).
   */
  const headTokens = (text: string, max: number, partial: boolean): number[] | undefined => {
    const pieces = [...encoding.pieces(text)];
    const lastIsLong = (pieces.at(-1)?.length ?? 0) > LONG_PIECE;
    const tokens: number[] = [];
    for (let i = 0; i < pieces.length; i++) {
      if (partial && i >= pieces.length - 2 && !lastIsLong) return undefined;
      const piece = pieces[i];
      for (const token of piece.length > LONG_PIECE ? headOfLongPiece(encoding, piece, max - tokens.length) : encoding.encodePiece(piece)) tokens.push(token);
      if (tokens.length >= max) return tokens;
    }
    return partial ? undefined : tokens;
  };
  const tryTruncate = (text: string, max: number): string | undefined => {
    if (encoding.refuses(text)) return undefined;
    if (max <= 0) return "";
    // Only the first `max` tokens matter: read a window of the text first, the whole text if that is not enough.
    const window = Math.max(2 * LONG_PIECE, 64 * max);
    let tokens: number[] | undefined;
    if (text.length > window) {
      const end = (text.charCodeAt(window - 1) & 0xfc00) === 0xd800 ? window + 1 : window;
      tokens = headTokens(text.slice(0, end), max, true);
    }
    tokens ??= headTokens(text, max, false)!;
    return encoding.decode(tokens.slice(0, max));
  };
  const extendCount = (state: CountState, more: string): CountState => {
    const tail = state.tail + more;
    if (state.refused || encoding.refuses(tail)) return { count: 0, tail: "", stable: 0, refused: true };
    let stable = state.stable;
    let cut = 0;
    let total = 0;
    let end = 0;
    for (const piece of encoding.pieces(tail)) {
      const n = encoding.encodePiece(piece).length;
      end += piece.length;
      total += n;
      if (cut === end - piece.length && end <= tail.length - UNSTABLE_END) {
        stable += n;
        cut = end;
      }
    }
    return { count: state.stable + total, tail: tail.slice(cut), stable, refused: false };
  };
  const startCount = (text: string): CountState => extendCount({ count: 0, tail: "", stable: 0, refused: false }, text);
  return { count, tryTruncate, truncate: (text, max) => tryTruncate(text, max) ?? text, startCount, extendCount };
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
