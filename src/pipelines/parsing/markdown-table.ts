/**
 * A table in the Markdown pipe format as RAGFlow's spreadsheet markdown writes it (pandas
 * `to_markdown(index=False)`, which is tabulate's "pipe" format): cells padded to the column's
 * width (East Asian wide characters count two, as with wcwidth), numeric columns right-aligned on
 * their decimal points, text columns left-aligned, and an alignment row of colons.
 */
import { cellText, type CellValue } from "./sheet-values.js";

/** Display width: wide and fullwidth characters take two columns, combining marks none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (/\p{Mn}|\p{Me}|\p{Cf}/u.test(ch)) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

const INT = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?(?:inf|infinity|nan)$/i;

/** tabulate's `_afterpoint`: digits after the decimal point (or exponent) of a number, -1 for an integer or a non-number. */
function afterPoint(text: string): number {
  if (!NUMBER.test(text) || INT.test(text)) return -1;
  let at = text.lastIndexOf(".");
  if (at < 0) at = text.toLowerCase().lastIndexOf("e");
  return at < 0 ? -1 : text.length - at - 1;
}

/** Whether tabulate types the value as a number (numbers, and strings that read as one). */
function isNumeric(value: CellValue): boolean {
  if (value.kind === "int" || value.kind === "float") return true;
  if (value.kind === "string") return NUMBER.test(value.text.trim());
  return false;
}

/** A cell's text in a pipe table: one line, and a `|` that would end the cell escaped. */
function cellMarkdown(value: CellValue | null): string {
  if (value === null) return "";
  return cellText(value).replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

const padLeft = (text: string, width: number) => " ".repeat(Math.max(0, width - displayWidth(text))) + text;
const padRight = (text: string, width: number) => text + " ".repeat(Math.max(0, width - displayWidth(text)));

/** tabulate's padding of at least 2 around a header. */
const MIN_PADDING = 2;

export function pipeTable(headers: readonly string[], rows: readonly (readonly (CellValue | null)[])[]): string {
  const columns = headers.map((header, c) => {
    const values = rows.map((row) => row[c] ?? null);
    const present = values.filter((v): v is CellValue => v !== null && cellText(v).trim() !== "");
    const numeric = present.length > 0 && present.every(isNumeric);
    let texts = values.map(cellMarkdown);
    if (numeric) {
      // Decimal alignment: pad each number on the right so the points line up.
      const points = texts.map(afterPoint);
      let most = -1;
      for (const point of points) most = Math.max(most, point);
      texts = texts.map((text, i) => text + " ".repeat(most - points[i]));
    }
    const headerText = header.replace(/\|/g, "\\|");
    let width = displayWidth(headerText) + MIN_PADDING;
    for (const text of texts) width = Math.max(width, displayWidth(text));
    return {
      numeric,
      width,
      header: numeric ? padLeft(headerText, width) : padRight(headerText, width),
      cells: texts.map((text) => (numeric ? padLeft(text, width) : padRight(text, width))),
    };
  });
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const rule = `|${columns.map((c) => (c.numeric ? "-".repeat(c.width + 1) + ":" : ":" + "-".repeat(c.width + 1))).join("|")}|`;
  return [line(columns.map((c) => c.header)), rule, ...rows.map((_, r) => line(columns.map((c) => c.cells[r])))].join("\n");
}
