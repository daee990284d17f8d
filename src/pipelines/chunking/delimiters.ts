/**
 * Delimiters as RAGFlow's chunkers read them (research §4.3, §5.2; `rag/nlp/delim.py`):
 *
 * - The TokenChunker's primary delimiters are only the backtick-wrapped tokens of its joined
 *   `delimiters` (`` `##` ``); bare ones such as `"\n"` give no pattern and go to naive_merge.
 * - naive_merge's delimiter field: a backtick-wrapped run is one delimiter, every other character
 *   is its own; CRLF and CR become LF first.
 * - Children delimiters are literal strings.
 *
 * A set of delimiters is matched as RAGFlow's escaped alternation sorted longest first: at the
 * leftmost position, the longest delimiter that matches there.
 */

const BACKTICKED = /`([^`]+)`/g;

/** The distinct strings, longest first (ties keep their order; no two equal-length strings can match at one place). */
function longestFirst(strings: Iterable<string>): string[] {
  return [...new Set(strings)].sort((a, b) => b.length - a.length);
}

/** The TokenChunker's `_compile_delimiter_pattern`: the backtick-wrapped tokens of the joined delimiters. */
export function backtickDelimiters(delimiters: readonly string[]): string[] {
  const joined = delimiters.filter((d) => d !== "").join("");
  return longestFirst([...joined.matchAll(BACKTICKED)].map((match) => match[1]));
}

/** The children delimiters, literal, longest first (the TokenChunker's `custom_pattern`). */
export function literalDelimiters(delimiters: readonly string[]): string[] {
  return longestFirst(delimiters.filter((d) => d !== ""));
}

/** delim.py's `normalize_text_newlines`: CRLF and CR become LF. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

/** delim.py's `has_wrapped_delimiter`: whether the field holds a backtick-wrapped token. */
export function hasWrappedDelimiter(field: string): boolean {
  return /`[^`]+`/.test(field);
}

/** delim.py's `parse_delimiter_field`: backtick-wrapped tokens and single characters, each once, longest first. */
export function parseDelimiterField(field: string): string[] {
  if (field === "") return [];
  const normalized = normalizeNewlines(field);
  const found: string[] = [];
  let cursor = 0;
  for (const match of normalized.matchAll(BACKTICKED)) {
    found.push(...Array.from(normalized.slice(cursor, match.index)), match[1]);
    cursor = match.index + match[0].length;
  }
  found.push(...Array.from(normalized.slice(cursor)));
  return longestFirst(found);
}

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** A regex matching any of the delimiters (longest first), or undefined for none. */
export function delimiterRegex(delimiters: readonly string[]): RegExp | undefined {
  if (delimiters.length === 0) return undefined;
  return new RegExp(delimiters.map((d) => d.replace(SYNTAX, "\\$&")).join("|"), "gu");
}

/** A text cut at every match, the matches dropped: `re.split("(" + pattern + ")", text)` without the captured delimiters. */
export function splitDropping(text: string, delimiters: RegExp | undefined): string[] {
  return delimiters ? text.split(delimiters) : [text];
}

/** A piece of a split, with where it lies in the text (UTF-16 offsets). */
export interface Segment {
  text: string;
  start: number;
  end: number;
}

/** The pieces between delimiter matches, with their offsets; empty pieces left out. */
export function segmentsOf(text: string, delimiters: RegExp): Segment[] {
  const segments: Segment[] = [];
  let start = 0;
  delimiters.lastIndex = 0;
  for (const match of text.matchAll(delimiters)) {
    if (match.index > start) segments.push({ text: text.slice(start, match.index), start, end: match.index });
    start = match.index + match[0].length;
  }
  if (start < text.length) segments.push({ text: text.slice(start), start, end: text.length });
  return segments;
}
