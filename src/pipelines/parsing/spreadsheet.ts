/**
 * Spreadsheets (research/ragflow-pipelines.md §4.2 "Spreadsheet"), as RAGFlow's `deepdoc` method
 * writes them:
 * - `html`: the first sheet that has data rows as one `<table>` with the sheet name as caption,
 *   the first row as `<th>` cells;
 * - `json`: one item per data row of every sheet, `header：value` pairs joined by "; ", plus
 *   " ——<sheet>" when the sheet's name does not contain "sheet" (a CSV's sheet is "Data");
 * - `markdown`: the first sheet as a pipe table (pandas `to_markdown`).
 *
 * XLSX sheets stream out of the container (xlsx-reader.ts) and CSV out of the source
 * (csv-reader.ts); rows stop at ParseLimits.maxRows with a warning. A CSV's HTML is written as its
 * rows stream (its width is its header's), so a large CSV is never held whole; an XLSX sheet's
 * `html` (its width is known at its end) and any sheet's `markdown` (padded to its widest cells)
 * hold the sheet's rows first. Like RAGFlow, a file is read as
 * CSV unless it starts as a ZIP (XLSX) or an OLE2 file (XLS, refused here), whatever its extension.
 */
import { DocumentParseError } from "../payload.js";
import type { FormatParser, FormatParseRequest, FormatParseResult } from "./contract.js";
import { checkAborted, checkFileSize, extensionOf, outputFormatOf, readWhole, TextBudget } from "./binary-input.js";
import { readCsv } from "./csv-reader.js";
import { pipeTable } from "./markdown-table.js";
import { cellText, type CellValue } from "./sheet-values.js";
import { checkSheetPart, readWorkbook, sheetRows, type SheetRow } from "./xlsx-reader.js";
import { ZipArchive } from "./zip.js";

const SPREADSHEET_OUTPUT_FORMATS = ["json", "markdown", "html"] as const;

/** A sheet: its name and its rows as they come (XLSX rows may skip numbers; row 1 is the header row). */
interface SheetSource {
  name: string;
  rows: AsyncGenerator<SheetRow>;
  /**
   * The sheet's width when it is known before its rows are read (a CSV's: its header's columns,
   * since longer rows are skipped and each row has a cell per column), so its HTML can be written
   * row by row as the rows stream instead of from every row held at once.
   */
  width?: number;
}

interface OpenedSpreadsheet {
  sheets: AsyncGenerator<SheetSource>;
  close(): void;
  /** Said once the rows are read (CSV lines skipped). */
  notes(): string[];
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

function refuseXls(name: string): never {
  throw new DocumentParseError(
    name,
    `${name} is a legacy Excel .xls workbook (OLE2), which canvasflow does not read; save it as .xlsx (or export the sheet as .csv) and parse that`,
  );
}

async function openXlsx(request: FormatParseRequest, bytes: Uint8Array): Promise<OpenedSpreadsheet> {
  const zip = await ZipArchive.open(request.source.name, "XLSX", bytes, { maxInflatedBytes: request.limits.maxInflatedBytes });
  try {
    const workbook = await readWorkbook(zip);
    async function* sheets(): AsyncGenerator<SheetSource> {
      for (const sheet of workbook.sheets) {
        checkSheetPart(zip, sheet);
        yield { name: sheet.name, rows: sheetRows(zip, workbook, sheet) };
      }
    }
    return { sheets: sheets(), close: () => zip.close(), notes: () => [] };
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function openCsv(request: FormatParseRequest, pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<OpenedSpreadsheet> {
  const csv = await readCsv(request.source.name, pieces);
  async function* sheets(): AsyncGenerator<SheetSource> {
    if (csv.columns.length === 0) return;
    const header: SheetRow = { row: 1, cells: new Map(csv.columns.map((name, i) => [i + 1, { kind: "string", text: name }])) };
    async function* rows(): AsyncGenerator<SheetRow> {
      yield header;
      yield* csv.rows;
    }
    // RAGFlow loads a CSV into a workbook whose only sheet is named "Data".
    yield { name: "Data", rows: rows(), width: csv.columns.length };
  }
  return {
    sheets: sheets(),
    close: () => void csv.rows.return(undefined),
    notes: () => (csv.skipped() > 0 ? [`${request.source.name}: ${csv.skipped()} CSV line(s) with more fields than the header has columns were skipped`] : []),
  };
}

/** The stream's pieces, with the first one looked at to tell a ZIP or OLE2 file from CSV text. */
async function sniffStream(pieces: AsyncIterable<Uint8Array>): Promise<{ first: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const iterator = pieces[Symbol.asyncIterator]();
  let first = new Uint8Array();
  const held: Uint8Array[] = [];
  while (first.byteLength < 4) {
    const next = await iterator.next();
    if (next.done) break;
    held.push(next.value);
    first = Buffer.concat([first, next.value]);
  }
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* held;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { first, all: all() };
}

async function openSpreadsheet(request: FormatParseRequest): Promise<OpenedSpreadsheet> {
  const { source } = request;
  if (extensionOf(source.name) === "csv") {
    checkFileSize(request);
    const { first, all } = await sniffStream(source.stream());
    if (startsWith(first, ZIP_MAGIC)) return openXlsx(request, await readWhole(request));
    if (startsWith(first, OLE_MAGIC)) refuseXls(source.name);
    return openCsv(request, all);
  }
  const bytes = await readWhole(request);
  if (startsWith(bytes, ZIP_MAGIC)) return openXlsx(request, bytes);
  if (startsWith(bytes, OLE_MAGIC)) refuseXls(source.name);
  return openCsv(request, [bytes]);
}

/** Counts data rows against ParseLimits.maxRows; the first row past it warns once. */
class RowBudget {
  private rows = 0;
  stopped = false;
  constructor(private readonly request: FormatParseRequest) {}
  take(): boolean {
    if (this.rows >= this.request.limits.maxRows) {
      if (!this.stopped) this.request.warn(`${this.request.source.name}: only the first ${this.request.limits.maxRows} rows are read (the config's pipelines.limits.maxRows); the rest are left out`);
      this.stopped = true;
      return false;
    }
    this.rows++;
    if (this.rows % 1000 === 0) checkAborted(this.request);
    return true;
  }
}

/** Python's `html.escape`. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

function fmt(value: CellValue | null | undefined): string {
  return value ? cellText(value).trim() : "";
}

/** The sheet's rows, buffered (up to the row budget) for the formats that need its width first. */
async function bufferedSheet(sheet: SheetSource, rows: RowBudget): Promise<SheetRow[]> {
  const kept: SheetRow[] = [];
  for await (const row of sheet.rows) {
    // Row 1 (or the first row) is the header and does not count as a data row.
    if (kept.length > 0 && !rows.take()) break;
    kept.push(row);
  }
  return kept;
}

const TABLE_END = "</table>\n";

/**
 * The table's start (caption and header row), counted with its end against the text budget like
 * the rows, so the whole table stays within maxTextChars: a chunker given more fails the document.
 */
function tableStart(sheet: SheetSource, header: ReadonlyArray<CellValue | null | undefined>, budget: TextBudget): string {
  const start = `<table><caption>${escapeHtml(sheet.name)}</caption>${htmlRow(header, "th")}`;
  budget.take(start + TABLE_END);
  return start;
}

/** An HTML table row: `<td>` cells (`<th>` for the header), an absent cell as an empty one. */
function htmlRow(cells: ReadonlyArray<CellValue | null | undefined>, tag: "th" | "td"): string {
  return `<tr>${cells.map((v) => (v === null || v === undefined ? `<${tag}></${tag}>` : `<${tag}>${escapeHtml(fmt(v))}</${tag}>`)).join("")}</tr>`;
}

/**
 * `html` of a sheet whose width is known first (a CSV): each row written as it streams, so no more
 * than one row is held, and reading stops where the text budget does. Rows are consecutive here
 * (a CSV has no gaps). Undefined when the sheet has no data rows.
 */
async function streamedSheetHtml(sheet: SheetSource, width: number, rows: RowBudget, budget: TextBudget): Promise<string | undefined> {
  let html: string | undefined;
  let dataRows = 0;
  const cellsOf = (row: SheetRow) => Array.from({ length: width }, (_, c) => row.cells.get(c + 1) ?? null);
  for await (const row of sheet.rows) {
    if (html === undefined) {
      html = tableStart(sheet, cellsOf(row), budget);
      continue;
    }
    if (!rows.take()) break;
    dataRows++;
    const tr = htmlRow(cellsOf(row), "td");
    if (!budget.take(tr)) break;
    html += tr;
  }
  return html === undefined || dataRows === 0 ? undefined : html + TABLE_END;
}

/** `html`: the first sheet with data rows, every row padded to the sheet's widest row, gaps as empty rows. */
async function sheetHtml(sheets: AsyncIterable<SheetSource>, rows: RowBudget, budget: TextBudget): Promise<string> {
  for await (const sheet of sheets) {
    if (sheet.width !== undefined) {
      const html = await streamedSheetHtml(sheet, sheet.width, rows, budget);
      if (html === undefined) continue;
      return html;
    }
    const kept = await bufferedSheet(sheet, rows);
    if (kept.length === 0) continue;
    const lastRow = kept[kept.length - 1].row;
    // Data rows from row 2 on (openpyxl's rows start at row 1, whatever holds the first cell).
    if (lastRow < 2) continue;
    let width = 0;
    for (const row of kept) for (const column of row.cells.keys()) width = Math.max(width, column);
    const byNumber = new Map(kept.map((row) => [row.row, row]));
    const cellsOf = (n: number) => Array.from({ length: width }, (_, c) => byNumber.get(n)?.cells.get(c + 1) ?? null);
    let html = tableStart(sheet, cellsOf(1), budget);
    for (let n = 2; n <= lastRow; n++) {
      const row = htmlRow(cellsOf(n), "td");
      if (!budget.take(row)) break;
      html += row;
    }
    return html + TABLE_END;
  }
  return "";
}

/** `json`: one item per data row of every sheet. */
async function sheetJson(sheets: AsyncIterable<SheetSource>, rows: RowBudget, budget: TextBudget): Promise<{ text: string; doc_type_kwd: "text" }[]> {
  const items: { text: string; doc_type_kwd: "text" }[] = [];
  for await (const sheet of sheets) {
    if (rows.stopped || budget.exhausted) break;
    const suffix = sheet.name.toLowerCase().includes("sheet") ? "" : ` ——${sheet.name}`;
    let header: Map<number, CellValue | null> | undefined;
    for await (const row of sheet.rows) {
      if (header === undefined) {
        // The header is row 1, empty when the sheet's first cells are further down.
        header = row.row === 1 ? row.cells : new Map();
        if (row.row === 1) continue;
      }
      if (!rows.take()) break;
      const fields: string[] = [];
      for (const column of [...row.cells.keys()].sort((a, b) => a - b)) {
        const value = row.cells.get(column);
        if (!value || cellText(value).trim() === "") continue;
        const head = header.get(column);
        const name = head ? cellText(head) : "";
        fields.push(name ? `${name}：${cellText(value)}` : cellText(value));
      }
      if (fields.length === 0) continue;
      const text = fields.join("; ") + suffix;
      if (!budget.take(text)) break;
      items.push({ text, doc_type_kwd: "text" });
    }
  }
  return items;
}

/** `markdown`: the first sheet as pandas reads it (blank rows skipped, the first row the header), as a pipe table. */
async function sheetMarkdown(sheets: AsyncIterable<SheetSource>, rows: RowBudget, budget: TextBudget, maxChars: number): Promise<string> {
  for await (const sheet of sheets) {
    const kept = (await bufferedSheet(sheet, rows)).filter((row) => [...row.cells.values()].some((v) => v !== null && cellText(v).trim() !== ""));
    if (kept.length === 0) return "";
    // pandas drops empty cells at the end of each row, then pads the rows to the widest.
    let width = 0;
    for (const row of kept) for (const [column, v] of row.cells) if (v !== null && cellText(v).trim() !== "") width = Math.max(width, column);
    const dense = kept.map((row) =>
      Array.from({ length: width }, (_, c) => {
        const value = row.cells.get(c + 1) ?? null;
        // pandas' replace(r"^\s*$", ""): blank strings are empty cells.
        return value && cellText(value).trim() === "" ? null : value;
      }),
    );
    const seen = new Map<string, number>();
    const headers = dense[0].map((value, i) => {
      const name = value ? cellText(value) : `Unnamed: ${i}`;
      const count = seen.get(name) ?? 0;
      seen.set(name, count + 1);
      return count === 0 ? name : `${name}.${count}`;
    });
    const markdown = pipeTable(headers, dense.slice(1));
    // Past the text budget the table ends at the last whole row that fits.
    return budget.take(markdown) ? markdown : markdown.slice(0, Math.max(0, markdown.lastIndexOf("\n", maxChars)));
  }
  return "";
}

/** Spreadsheets (XLSX, CSV; `.xls` refused) with RAGFlow's `deepdoc` method. */
export const parseSpreadsheet: FormatParser = async (request) => {
  const name = request.source.name;
  const format = outputFormatOf(request, "Spreadsheet", SPREADSHEET_OUTPUT_FORMATS);
  const method = String(request.setup.parse_method ?? "deepdoc").trim().toLowerCase();
  if (method === "tcadp parser") {
    throw new DocumentParseError(name, `Spreadsheet parse_method "tcadp parser" needs Tencent Cloud's ADP document-parsing API, which canvasflow does not run; use parse_method "deepdoc", which reads XLSX and CSV here`);
  }
  const opened = await openSpreadsheet(request);
  const rows = new RowBudget(request);
  const budget = new TextBudget(request.limits, name, request.warn);
  try {
    let result: FormatParseResult;
    if (format === "html") result = { output_format: "html", html: await sheetHtml(opened.sheets, rows, budget) };
    else if (format === "json") result = { output_format: "json", json: await sheetJson(opened.sheets, rows, budget) };
    else result = { output_format: "markdown", markdown: await sheetMarkdown(opened.sheets, rows, budget, request.limits.maxTextChars) };
    for (const note of opened.notes()) request.warn(note);
    return result;
  } finally {
    await opened.sheets.return(undefined);
    opened.close();
  }
};
