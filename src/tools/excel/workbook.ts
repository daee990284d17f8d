/**
 * Workbooks as rows (exceljs): reading every sheet (or the chosen ones) of an xlsx, or a csv, into
 * records keyed by the header row, as pandas.read_excel gives them to RAGFlow; writing records
 * back as sheets (header row from the keys, in first-seen order).
 */
import ExcelJS from "exceljs";
import { Readable } from "node:stream";

export type Row = Record<string, unknown>;

/** A cell's value as pandas would read it: numbers, text, booleans, dates as ISO text; formulas give their result. */
function cellValue(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    if ("result" in value) return cellValue(value.result as ExcelJS.CellValue);
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("text" in value) return String(value.text);
    if ("error" in value) return String(value.error);
    return JSON.stringify(value);
  }
  return value;
}

function sheetRows(sheet: ExcelJS.Worksheet): Row[] {
  const header: string[] = [];
  const rows: Row[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const values = row.values as ExcelJS.CellValue[];
    if (number === 1 || header.length === 0) {
      for (let c = 1; c < values.length; c++) header[c] = String(cellValue(values[c]) ?? `Unnamed: ${c - 1}`);
      return;
    }
    const record: Row = {};
    for (let c = 1; c < header.length; c++) if (header[c] !== undefined) record[header[c]] = cellValue(values[c]) ?? null;
    rows.push(record);
  });
  return rows;
}

/** Sheets of an xlsx file, by name, as `selection` picks them ("all", "first", or names separated by commas). */
export async function readXlsx(bytes: Buffer, selection: string): Promise<Map<string, Row[]>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const names = workbook.worksheets.map((s) => s.name);
  const wanted = selection === "all" ? names : selection === "first" ? names.slice(0, 1) : selection.split(",").map((s) => s.trim()).filter((s) => names.includes(s));
  const out = new Map<string, Row[]>();
  for (const name of wanted) out.set(name, sheetRows(workbook.getWorksheet(name)!));
  return out;
}

export async function readCsv(bytes: Buffer): Promise<Map<string, Row[]>> {
  const workbook = new ExcelJS.Workbook();
  const sheet = await workbook.csv.read(Readable.from([bytes]), { parserOptions: { delimiter: "," } });
  return new Map([["Sheet1", sheetRows(sheet)]]);
}

/** Column names of rows, in first-seen order. */
export function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

function writable(value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return value;
  return JSON.stringify(value);
}

/** An xlsx of sheets (names cut to Excel's 31 characters, slashes replaced, as RAGFlow does). */
export async function writeXlsx(sheets: ReadonlyMap<string, readonly Row[]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "canvasflow";
  for (const [name, rows] of sheets) {
    const sheet = workbook.addWorksheet(name.slice(0, 31).replace(/[/\\]/g, "_") || "Sheet1");
    const columns = columnsOf(rows);
    sheet.addRow(columns);
    for (const row of rows) sheet.addRow(columns.map((c) => writable(row[c])));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The first sheet as CSV (RFC 4180 quoting). */
export function writeCsv(rows: readonly Row[]): Buffer {
  const columns = columnsOf(rows);
  const cell = (value: unknown) => {
    const text = value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return Buffer.from([columns.map(cell).join(","), ...rows.map((row) => columns.map((c) => cell(row[c])).join(","))].join("\n") + "\n", "utf8");
}
