/**
 * RAGFlow's `naive_merge` for one text (`rag/nlp/__init__.py`, research §5.2), the OVER_CAP
 * strategy it runs by default:
 *
 * 1. CRLF and CR become LF.
 * 2. A field with a backtick-wrapped delimiter: every piece between delimiters is its own chunk
 *    (`"\n" + piece`), sizes ignored.
 * 3. Otherwise the text is cut at every delimiter (none: one piece), each piece a paragraph
 *    `"\n" + piece`, and paragraphs are grouped: a paragraph over `chunk_token_num` stands alone;
 *    a group closes once its token sum exceeds `chunk_token_num * (100 - overlap) / 100`, so a
 *    chunk can pass the size by one paragraph.
 * 4. With an overlap, each chunk after the first starts with the tail of the chunk before it
 *    (tags removed), from character `int(len * (100 - overlap) / 100)`.
 */
import { delimiterRegex, hasWrappedDelimiter, normalizeNewlines, parseDelimiterField, splitDropping } from "./delimiters.js";
import { removeTag } from "./pdf-positions.js";
import { pyLen, pySliceFrom } from "./python-str.js";
import type { TokenCounter } from "./tokens.js";

/** Paragraphs grouped OVER_CAP: the index groups of `_merge_paragraph_groups`. */
export function overCapGroups(sizes: readonly number[], cap: number, overlappedPercent: number): number[][] {
  const threshold = (cap * (100 - overlappedPercent)) / 100;
  const groups: number[][] = [];
  let current: number[] = [];
  let currentTokens = 0;
  sizes.forEach((size, i) => {
    if (size > cap) {
      if (current.length > 0) groups.push(current);
      groups.push([i]);
      current = [];
      currentTokens = 0;
    } else if (current.length === 0) {
      current = [i];
      currentTokens = size;
    } else if (currentTokens > threshold) {
      groups.push(current);
      current = [i];
      currentTokens = size;
    } else {
      current.push(i);
      currentTokens += size;
    }
  });
  if (current.length > 0) groups.push(current);
  return groups;
}

/** `_compute_overlap_prefix`: the tail of a chunk's visible text that the next chunk starts with. */
export function overlapPrefix(previous: string, overlappedPercent: number): string {
  const visible = removeTag(previous);
  if (visible === "") return "";
  return pySliceFrom(visible, Math.trunc((pyLen(visible) * (100 - overlappedPercent)) / 100));
}

/** `naive_merge(text, chunk_token_num, delimiter, overlapped_percent)` for a string. */
export function naiveMerge(text: string, chunkTokenNum: number, delimiterField: string, overlappedPercent: number, tokens: TokenCounter): string[] {
  if (text === "") return [];
  const section = normalizeNewlines(text);
  const pattern = delimiterRegex(parseDelimiterField(delimiterField));

  if (hasWrappedDelimiter(delimiterField)) {
    // Custom delimiters: each piece is its own chunk (a section's position tag would follow; a string has none).
    return splitDropping(section, pattern)
      .filter((piece) => piece !== "")
      .map((piece) => "\n" + piece);
  }

  const paragraphs = pattern ? splitDropping(section, pattern).filter((piece) => piece !== "") : [section];
  const texts = paragraphs.map((piece) => "\n" + piece);
  const groups = overCapGroups(
    texts.map((p) => tokens.count(p)),
    chunkTokenNum,
    overlappedPercent,
  );
  const chunks = groups.map((group) => group.map((i) => texts[i]).join(""));
  if (overlappedPercent <= 0) return chunks;
  // The overlap is cut from the previous *output* chunk, its own overlap included.
  const out: string[] = [];
  for (const chunk of chunks) {
    const prefix = out.length > 0 ? overlapPrefix(out[out.length - 1], overlappedPercent) : "";
    out.push(prefix + chunk);
  }
  return out;
}
