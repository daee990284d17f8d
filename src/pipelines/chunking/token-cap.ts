/**
 * The TitleChunker's token cap (`BaseTitleChunker._enforce_token_cap`, research §4.4 step 5): a
 * text chunk over `chunk_token_cap` tokens is cut into sentences, packed greedily while a piece
 * stays within the cap; a piece still over it is cut every `cap` tokens (a character split at the
 * cut is trimmed off, so the pieces join back into the text). The first piece keeps the chunk's
 * positions; the others get none. Tables and images are never cut.
 */
import type { Chunk } from "../payload.js";
import { PDF_POSITIONS_KEY } from "./pdf-positions.js";
import { pyDropLast, pyLen, pySliceTo } from "./python-str.js";
import { sentences } from "./sentences.js";
import type { CountState, TokenCounter } from "./tokens.js";

/** `_token_count`: tokens, or characters when the count is 0 for a non-empty text (a special token in it). */
export function capTokenCount(text: string, tokens: TokenCounter): number {
  const n = tokens.count(text);
  return n === 0 && text !== "" ? pyLen(text) : n;
}

/** `_hard_split_by_tokens`: prefixes of at most `cap` tokens that join back into the text. */
export function hardSplit(text: string, cap: number, tokens: TokenCounter): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest !== "") {
    // Where tiktoken refuses the text, RAGFlow falls back to `cap` characters.
    let head = tokens.tryTruncate(rest, cap) ?? pySliceTo(rest, cap);
    if (head !== "" && !rest.startsWith(head)) head = pyDropLast(head);
    if (head === "") {
      out.push(rest);
      break;
    }
    out.push(head);
    if (head === rest) break;
    rest = rest.slice(head.length);
  }
  return out;
}

/** `_split_text_chunk_by_cap`: one over-cap text chunk as chunks within the cap. */
function splitChunk(chunk: Chunk, cap: number, tokens: TokenCounter): Chunk[] {
  const pieces = sentences(chunk.text);
  if (pieces.length === 0) return [chunk];
  const groups: string[] = [];
  let current = "";
  let counted = tokens.startCount("");
  // `_token_count` of a state: tokens, or characters when tiktoken counts 0 for a non-empty text.
  const capCount = (state: CountState, text: string) => (state.count === 0 && text !== "" ? pyLen(text) : state.count);
  for (const sentence of pieces) {
    // The candidate's count reads only the new sentence and the end of `current` (see extendCount).
    const candidateCount = current !== "" ? tokens.extendCount(counted, sentence) : tokens.startCount(sentence);
    const candidate = current !== "" ? current + sentence : sentence;
    if (current !== "" && capCount(candidateCount, candidate) > cap) {
      groups.push(current);
      current = sentence;
      counted = tokens.startCount(sentence);
    } else {
      current = candidate;
      counted = candidateCount;
    }
  }
  if (current !== "") groups.push(current);
  const parts = groups.flatMap((group) => (capTokenCount(group, tokens) <= cap ? [group] : hardSplit(group, cap, tokens)));
  if (parts.length === 0) return [chunk];
  const hasPositions = PDF_POSITIONS_KEY in chunk;
  return parts.map((text, i) => {
    const sub: Chunk = { ...chunk, text };
    if (hasPositions) sub[PDF_POSITIONS_KEY] = i === 0 ? chunk[PDF_POSITIONS_KEY] : [];
    return sub;
  });
}

/** Every text chunk within `cap` tokens (0: no cap). */
export function enforceTokenCap(chunks: readonly Chunk[], cap: number, tokens: TokenCounter): Chunk[] {
  if (cap <= 0) return [...chunks];
  return chunks.flatMap((chunk) => {
    if ((chunk.doc_type_kwd ?? "text") !== "text") return [chunk];
    if (capTokenCount(chunk.text, tokens) <= cap) return [chunk];
    return splitChunk(chunk, cap, tokens);
  });
}
