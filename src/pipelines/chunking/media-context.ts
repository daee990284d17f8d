/**
 * Context windows for tables and images (TokenChunker's `_attach_context_to_media_chunks`,
 * research §4.3): a media chunk gets up to `image_context_size` / `table_context_size` tokens of
 * the text chunks around it. Walking away from it (over other media, which are skipped), whole
 * texts are taken while they fit the remaining budget; from the first that does not, sentences
 * are taken from its near end until they reach the budget.
 */
import { sentencePieces } from "./sentences.js";
import type { TokenCounter } from "./tokens.js";

/** A TokenChunker working chunk, as far as context windows read and write it. */
export interface ContextChunk {
  ck_type: "text" | "table" | "image";
  text: string;
  tk_nums: number;
  context_above?: string;
  context_below?: string;
}

/** `_take_sentences`: sentences from one end until their token count reaches `need` (or the text runs out). */
function takeSentences(text: string, need: number, fromEnd: boolean, tokens: TokenCounter): string {
  const pieces = sentencePieces(text);
  if (fromEnd) pieces.reverse();
  let collected = "";
  for (const sentence of pieces) {
    collected = fromEnd ? sentence + collected : collected + sentence;
    if (tokens.count(collected) >= need) break;
  }
  return collected;
}

function contextOf(chunks: readonly ContextChunk[], from: number, step: -1 | 1, size: number, tokens: TokenCounter): string {
  const parts: string[] = [];
  let remain = size;
  for (let i = from + step; i >= 0 && i < chunks.length && remain > 0; i += step) {
    const chunk = chunks[i];
    if (chunk.ck_type !== "text") continue;
    if (chunk.tk_nums >= remain) {
      parts.push(takeSentences(chunk.text, remain, step < 0, tokens));
      break;
    }
    parts.push(chunk.text);
    remain -= chunk.tk_nums;
  }
  if (step < 0) parts.reverse();
  return parts.join("");
}

/** Sets `context_above` and `context_below` on every table and image chunk whose window is over 0. */
export function attachMediaContext(chunks: ContextChunk[], tableContextSize: number, imageContextSize: number, tokens: TokenCounter): void {
  chunks.forEach((chunk, i) => {
    if (chunk.ck_type === "text") return;
    const size = chunk.ck_type === "image" ? imageContextSize : tableContextSize;
    if (size <= 0) return;
    chunk.context_above = contextOf(chunks, i, -1, size, tokens);
    chunk.context_below = contextOf(chunks, i, 1, size, tokens);
  });
}
