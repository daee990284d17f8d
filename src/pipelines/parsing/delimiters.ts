/**
 * RAGFlow's delimiter field (research/ragflow-pipelines.md §5.2; `rag/nlp/delim.py`): a run
 * wrapped in backticks is one delimiter, every other character is its own; duplicates are
 * dropped and the longest come first, so "##" is tried before "#". CR and CRLF count as LF, in
 * the field and in the text it splits.
 */

/** CRLF and a lone CR become LF. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The delimiters of a field, longest first (ties in the order they were written). */
export function parseDelimiterField(field: string): string[] {
  if (!field) return [];
  const normalized = normalizeNewlines(field);
  const delimiters: string[] = [];
  const seen = new Set<string>();
  const add = (delimiter: string) => {
    if (delimiter && !seen.has(delimiter)) {
      seen.add(delimiter);
      delimiters.push(delimiter);
    }
  };
  let cursor = 0;
  for (const match of normalized.matchAll(/`([^`]+)`/g)) {
    for (const char of normalized.slice(cursor, match.index)) add(char);
    add(match[1]);
    cursor = match.index + match[0].length;
  }
  for (const char of normalized.slice(cursor)) add(char);
  // Array.prototype.sort is stable, so equal lengths keep their first-seen order.
  return delimiters.sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** An alternation matching any of the delimiters literally, or undefined for none. */
export function delimiterPattern(delimiters: readonly string[]): string | undefined {
  const parts = delimiters.filter((d) => d !== "").map(escapeRegExp);
  return parts.length === 0 ? undefined : parts.join("|");
}
