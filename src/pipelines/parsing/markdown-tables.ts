/**
 * RAGFlow's table pass over a Markdown document before it is cut into elements
 * (`extract_tables_and_remainder(separate_tables=False)`): every pipe table outside a code fence,
 * bordered (`| a | b |`) or not (`a | b`), is replaced in place by the HTML python-markdown's
 * `tables` extension writes for it; then the attributes of table, tr, td, th, thead, tbody and
 * div tags are dropped outside fences, and each HTML table gets a line break after it.
 *
 * The table HTML follows python-markdown's layout (`<table>\n<thead>\n<tr>\n<th>…</th>\n…`), its
 * rules for splitting a row into cells (escaped pipes, pipes inside code spans) and for padding
 * or cutting rows to the header's width. The inline Markdown of the cells is rendered by marked,
 * set to write what python-markdown writes for the common cases (`&`, `<`, `>` escaped and quotes
 * not; `<img alt="" src="" />`).
 */
import type * as MarkedModule from "marked";
import { importPackage } from "../../util/optional-package.js";

type Marked = MarkedModule.Marked<string, string>;

let inline: Promise<Marked> | undefined;

/** Text escaped as python-markdown's serializer escapes it: `&` (not an entity's), `<` and `>`. */
function escapeText(text: string): string {
  return text
    .replace(/&(?!#?\w+;)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;");
}

/** A marked instance whose inline output matches python-markdown's for table cells. */
function loadInline(): Promise<Marked> {
  inline ??= importPackage<typeof MarkedModule>("marked", "Rendering Markdown tables as HTML").then(({ Marked }) => {
    const marked = new Marked<string, string>({ gfm: false, breaks: false, async: false });
    marked.use({
      renderer: {
        text(token) {
          return "tokens" in token && token.tokens ? this.parser.parseInline(token.tokens) : escapeText(token.text);
        },
        codespan(token) {
          // python-markdown strips the code and escapes &, < and > in it; marked's text is escaped its own way.
          const code = token.raw.replace(/^`+|`+$/g, "").trim();
          return `<code>${code.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</code>`;
        },
        image({ href, title, text }) {
          return `<img alt="${escapeAttribute(text)}" src="${escapeAttribute(href)}"${title ? ` title="${escapeAttribute(title)}"` : ""} />`;
        },
        br() {
          return "<br />";
        },
      },
    });
    return marked;
  });
  return inline;
}

// python-markdown's row splitting (markdown/extensions/tables.py).
const CODE_OR_PIPE = /(\\\\)|(\\`+)|(`+)|(\\\|)|(\|)/g;
const END_BORDER = /(?<!\\)(?:\\\\)*\|$/;

/** Cells of a row, with pipes inside code spans and escaped pipes kept as text. */
function splitCells(row: string): string[] {
  const pipes: number[] = [];
  const ticks: { length: number; start: number; end: number; escape: number }[] = [];
  for (const match of row.matchAll(CODE_OR_PIPE)) {
    if (match[2]) ticks.push({ length: match[2].length - 1, start: match.index, end: match.index + match[2].length - 1, escape: 1 });
    else if (match[3]) ticks.push({ length: match[3].length, start: match.index, end: match.index + match[3].length - 1, escape: 0 });
    else if (match[5]) pipes.push(match.index);
  }
  // Pair each run of backticks with the next run of the same length: pipes between them are code.
  const regions: [number, number][] = [];
  for (let pos = 0; pos < ticks.length; ) {
    const size = ticks[pos].length - ticks[pos].escape;
    const close = size === 0 ? -1 : ticks.findIndex((tick, i) => i > pos && tick.length === size);
    if (close < 0) {
      pos++;
      continue;
    }
    regions.push([ticks[pos].start, ticks[close].end]);
    pos = close + 1;
  }
  const cells: string[] = [];
  let start = 0;
  for (const pipe of pipes) {
    if (regions.some(([from, to]) => from <= pipe && pipe <= to)) continue;
    cells.push(row.slice(start, pipe));
    start = pipe + 1;
  }
  cells.push(row.slice(start));
  return cells;
}

interface TableShape {
  bordered: boolean;
  separator: string[];
}

function splitRow(row: string, bordered: boolean): string[] {
  if (bordered) {
    if (row.startsWith("|")) row = row.slice(1);
    row = row.replace(END_BORDER, "");
  }
  return splitCells(row);
}

const stripSpaces = (text: string) => text.replace(/^ +| +$/g, "");

/** python-markdown's test of whether a block of lines is a table. */
function tableShape(lines: string[]): TableShape | undefined {
  const rows = lines.map(stripSpaces);
  if (rows.length < 2) return undefined;
  const header = rows[0];
  const bordered = header.startsWith("|") || END_BORDER.test(header);
  const width = splitRow(header, bordered).length;
  let isTable = width > 1;
  // A single column needs a pipe on every row.
  if (!isTable && width === 1 && bordered) {
    isTable = rows.slice(1).every((row) => row.startsWith("|") || END_BORDER.test(row));
  }
  if (!isTable) return undefined;
  const separator = splitRow(rows[1], bordered);
  if (separator.length !== width || !/^[|:\- ]*$/.test(separator.join(""))) return undefined;
  return { bordered, separator };
}

function alignments(separator: string[]): (string | undefined)[] {
  return separator.map((cell) => {
    const c = stripSpaces(cell);
    if (c.startsWith(":") && c.endsWith(":")) return "center";
    if (c.startsWith(":")) return "left";
    if (c.endsWith(":")) return "right";
    return undefined;
  });
}

function renderTable(lines: string[], shape: TableShape, marked: Marked): string {
  const align = alignments(shape.separator);
  const row = (line: string, tag: "th" | "td") => {
    const cells = splitRow(stripSpaces(line), shape.bordered);
    const rendered = align.map((a, i) => {
      const text = marked.parseInline(stripSpaces(cells[i] ?? "")) as string;
      return `<${tag}${a ? ` style="text-align: ${a};"` : ""}>${text}</${tag}>`;
    });
    return `<tr>\n${rendered.join("\n")}\n</tr>`;
  };
  const body = lines.length > 2 ? lines.slice(2).map((line) => row(line, "td")) : [`<tr>\n${align.map(() => "<td></td>").join("\n")}\n</tr>`];
  return `<table>\n<thead>\n${row(lines[0], "th")}\n</thead>\n<tbody>\n${body.join("\n")}\n</tbody>\n</table>`;
}

/** Python's str.expandtabs(4): each tab to the next multiple of four columns in its line. */
function expandTabs(text: string): string {
  if (!text.includes("\t")) return text;
  let column = 0;
  let out = "";
  for (const char of text) {
    if (char === "\t") {
      const spaces = 4 - (column % 4);
      out += " ".repeat(spaces);
      column += spaces;
    } else {
      out += char;
      column = char === "\n" ? 0 : column + 1;
    }
  }
  return out;
}

/**
 * The HTML python-markdown (with the tables extension) writes for a matched table. A match that
 * it would not read as a table comes out as its paragraphs.
 */
export async function renderMarkdownTable(raw: string): Promise<string> {
  const marked = await loadInline();
  const source = expandTabs(raw).replace(/(?<=\n) +\n/g, "\n");
  const blocks = source
    .split(/\n{2,}/)
    .map((block) => block.replace(/^\n+|\n+$/g, ""))
    .filter((block) => block !== "");
  return blocks
    .map((block) => {
      const lines = block.split("\n");
      const shape = tableShape(lines);
      return shape ? renderTable(lines, shape, marked) : `<p>${marked.parseInline(block.trimStart()) as string}</p>`;
    })
    .join("\n");
}

// RAGFlow's patterns, with `.` written as [^\n] (the text's line ends are LF by now).
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]{0,3}\1[ \t]*$|$(?![\s\S]))/gm;
const BORDERED_TABLE = /(?:\n|^)(?:\|[^\n]*?\|[^\n]*?\|[^\n]*?\n)(?:\|(?:\s*[:-]+[-| :]*\s*)\|[^\n]*?\n)(?:\|[^\n]*?\|[^\n]*?\|[^\n]*?\n)+/g;
const BORDERLESS_TABLE = /(?:\n|^)(?:\S[^\n]*?\|[^\n]*?\n)(?:(?:\s*[:-]+[-| :]*\s*)[^\n]*?\n)(?:\S[^\n]*?\|[^\n]*?\n)+/g;
const TABLE_TAG_WITH_ATTRIBUTES = /<(?:table|td|tr|th|tbody|thead|div)[^>]*>/gi;
const HTML_TABLE =
  /(?:\n|^)\s*(?:(?:<html[^>]*>\s*<body[^>]*>\s*<table[^>]*>[\s\S]*?<\/table>\s*<\/body>\s*<\/html>)|(?:<body[^>]*>\s*<table[^>]*>[\s\S]*?<\/table>\s*<\/body>)|(?:<table[^>]*>[\s\S]*?<\/table>))\s*(?=\n|$)/gi;

function fencedSpans(text: string): [number, number][] {
  return [...text.matchAll(FENCE)].map((match) => [match.index, match.index + match[0].length]);
}

const inSpan = (spans: [number, number][], position: number) => spans.some(([start, end]) => start <= position && position < end);

async function replaceTables(text: string, pattern: RegExp): Promise<string> {
  const spans = fencedSpans(text);
  let out = "";
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (inSpan(spans, match.index)) continue;
    // RAGFlow drops the line break the match starts with, which glues the table to a line of text
    // right above it; it is kept when that line would otherwise be glued.
    const lead = match[0].startsWith("\n") && match.index > 0 && text[match.index - 1] !== "\n" ? "\n" : "";
    out += text.slice(last, match.index) + lead + (await renderMarkdownTable(match[0])) + "\n";
    last = match.index + match[0].length;
  }
  return out + text.slice(last);
}

/** RAGFlow's Markdown table pass (tables kept in place): the text the elements are then cut from. */
export async function inlineMarkdownTables(markdown: string): Promise<string> {
  let text = markdown;
  if (text.includes("|")) {
    text = await replaceTables(text, BORDERED_TABLE);
    text = await replaceTables(text, BORDERLESS_TABLE);
  }
  const spans = fencedSpans(text);
  text = text.replace(TABLE_TAG_WITH_ATTRIBUTES, (tag: string, offset: number) => (inSpan(spans, offset) ? tag : `<${/^<(\w+)/.exec(tag)![1]}>`));
  if (text.toLowerCase().includes("<table>")) {
    const tableSpans = fencedSpans(text);
    let out = "";
    let last = 0;
    for (const match of text.matchAll(HTML_TABLE)) {
      if (inSpan(tableSpans, match.index)) continue;
      out += text.slice(last, match.index) + match[0] + "\n";
      last = match.index + match[0].length;
    }
    text = out + text.slice(last);
  }
  return text;
}
