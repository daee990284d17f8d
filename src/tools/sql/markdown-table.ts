/**
 * Rows as a Markdown (GitHub pipe) table, as RAGFlow shows query results to a model: a header of
 * column names, numbers right-aligned, nulls empty.
 */

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

export function markdownTable(columns: readonly string[], rows: ReadonlyArray<Readonly<Record<string, unknown>>>): string {
  const numeric = columns.map((c) => rows.some((r) => r[c] !== null && r[c] !== undefined) && rows.every((r) => r[c] === null || r[c] === undefined || typeof r[c] === "number"));
  const body = rows.map((r) => columns.map((c) => cell(r[c])));
  const header = columns.map(cell);
  const widths = columns.map((_, i) => Math.max(3, header[i].length, ...body.map((row) => row[i].length)));
  const line = (cells: readonly string[]) => `| ${cells.map((text, i) => (numeric[i] ? text.padStart(widths[i]) : text.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${"-".repeat(w + 1)}:` : `:${"-".repeat(w + 1)}`)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}
