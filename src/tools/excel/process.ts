/**
 * ExcelProcessor's operations (agent/component/excel_processor.py):
 * - read: each input file's sheets → `data` {"<file>[_<sheet>]": rows}, `summary` (rows and
 *   columns per sheet), `markdown` (the first 10 rows of each);
 * - merge: every sheet of every file, concatenated (or outer-joined on `join_on`) → `data`
 *   {"merged": rows};
 * - transform: `transform_data` (rows, or {sheet: rows}) → `data` and `markdown`;
 * - output: `transform_data` written as `output_filename`.xlsx (or .csv) into the files folder →
 *   `attachment` {doc_id, format, file_name} plus the `download` descriptor.
 */
import { markdownTable } from "../sql/markdown-table.js";
import { isPlainObject } from "../../util/values.js";
import { readFileValue, saveFile, safeFilename } from "../files/store.js";
import type { ToolContext, ToolOutput, ToolRun } from "../types.js";
import { choice } from "../web/args.js";
import type { Row } from "./workbook.js";
import { importNeeding } from "../../util/optional-package.js";

/** exceljs loads on first use: it takes seconds to import. */
const workbook = () => importNeeding(["exceljs"], "ExcelProcessor", () => import("./workbook.js"));

/** Column names of rows, in first-seen order. */
function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

function table(rows: readonly Row[], limit?: number): string {
  const shown = limit === undefined ? rows : rows.slice(0, limit);
  return markdownTable(columnsOf(rows), shown);
}

function selection(ctx: ToolContext): string {
  const value = ctx.params.sheet_selection;
  return typeof value === "string" && value.trim() !== "" ? value.trim() : "all";
}

/** The sheets of every input file, each keyed as RAGFlow keys it. */
async function inputSheets(ctx: ToolContext): Promise<Array<{ key: string; rows: Row[] }>> {
  const refs = Array.isArray(ctx.params.input_files) ? ctx.params.input_files : [];
  const out: Array<{ key: string; rows: Row[] }> = [];
  for (const ref of refs) {
    const value = typeof ref === "string" && ctx.get ? ctx.get(ref.replace(/^\{|\}$/g, "")) : ref;
    const file = await readFileValue(ctx, value);
    if (!file) continue;
    const isCsv = file.filename.toLowerCase().endsWith(".csv") || file.mimeType === "text/csv";
    const { readCsv, readXlsx } = await workbook();
    const sheets = isCsv ? await readCsv(file.bytes) : await readXlsx(file.bytes, selection(ctx));
    for (const [sheet, rows] of sheets) out.push({ key: sheets.size > 1 ? `${file.filename}_${sheet}` : file.filename, rows });
  }
  return out;
}

function transformData(ctx: ToolContext): unknown {
  const ref = ctx.params.transform_data;
  if (typeof ref !== "string" || ref.trim() === "" || !ctx.get) return undefined;
  let value = ctx.get(ref.trim().replace(/^\{|\}$/g, ""));
  if (typeof value === "string" && /^\s*[[{]/.test(value)) {
    try {
      value = JSON.parse(value);
    } catch {
      // Text stays text.
    }
  }
  return value;
}

/** transform_data as sheets: {sheet: rows}, rows, or one record. */
function asSheets(data: unknown): Map<string, Row[]> | undefined {
  if (Array.isArray(data)) return new Map([["Sheet1", data.map((r) => (isPlainObject(r) ? r : { value: r }))]]);
  if (isPlainObject(data)) {
    const values = Object.values(data);
    if (values.length > 0 && values.every(Array.isArray)) return new Map(Object.entries(data).map(([k, v]) => [k, (v as unknown[]).map((r) => (isPlainObject(r) ? r : { value: r }))]));
    return new Map([["Sheet1", [data]]]);
  }
  return undefined;
}

function outerJoin(left: Row[], right: Row[], on: string): Row[] {
  const out: Row[] = [];
  const matched = new Set<number>();
  for (const l of left) {
    const hits = right.map((r, i) => [r, i] as const).filter(([r]) => r[on] === l[on]);
    if (hits.length === 0) out.push({ ...l });
    for (const [r, i] of hits) {
      matched.add(i);
      out.push({ ...l, ...r });
    }
  }
  right.forEach((r, i) => {
    if (!matched.has(i)) out.push({ ...r });
  });
  return out;
}

export const runExcelProcessor: ToolRun = async (_args, ctx): Promise<ToolOutput> => {
  const operation = choice(String(ctx.params.operation ?? "read").toLowerCase(), "operation", ["read", "merge", "transform", "output"], "read");
  if (operation === "read") {
    const sheets = await inputSheets(ctx);
    const data = Object.fromEntries(sheets.map((s) => [s.key, s.rows]));
    const summary = sheets.map((s) => {
      const cols = columnsOf(s.rows);
      return `**${s.key}**: ${s.rows.length} rows, ${cols.length} columns (${cols.slice(0, 5).join(", ")}${cols.length > 5 ? "..." : ""})`;
    });
    return { data, summary: summary.join("\n") || "No Excel files found", markdown: sheets.map((s) => `### ${s.key}\n\n${table(s.rows, 10)}\n`).join("\n\n") || "No data" };
  }
  if (operation === "merge") {
    const sheets = await inputSheets(ctx);
    if (sheets.length === 0) return { data: {}, summary: "No data to merge" };
    const joinOn = typeof ctx.params.join_on === "string" ? ctx.params.join_on.trim() : "";
    const merged = ctx.params.merge_strategy === "join" && joinOn !== "" ? sheets.slice(1).reduce((acc, s) => outerJoin(acc, s.rows, joinOn), sheets[0].rows) : sheets.flatMap((s) => s.rows);
    return { data: { merged }, summary: `Merged ${sheets.length} sources into ${merged.length} rows, ${columnsOf(merged).length} columns`, markdown: table(merged, 20) };
  }
  const data = transformData(ctx);
  if (operation === "transform") {
    if (data === undefined || data === null || data === "") return { summary: typeof ctx.params.transform_data === "string" && ctx.params.transform_data !== "" ? "Transform data is empty" : "No transform data reference provided" };
    const sheets = asSheets(data);
    if (!sheets) return { data: { raw: String(data) }, markdown: String(data), summary: "Transformed data ready for processing" };
    const multi = isPlainObject(data) && sheets.size >= 1 && !sheets.has("Sheet1");
    return {
      data: multi ? Object.fromEntries(sheets) : sheets.get("Sheet1"),
      markdown: multi ? [...sheets].map(([name, rows]) => `### ${name}\n\n${table(rows)}`).join("\n\n") : table(sheets.get("Sheet1")!),
      summary: "Transformed data ready for processing",
    };
  }
  if (data === undefined || data === null || data === "") return { summary: "No data to output" };
  const sheets = asSheets(data);
  if (!sheets) return { summary: "Invalid data format for Excel output" };
  const format = choice(ctx.params.output_format, "output_format", ["xlsx", "csv"], "xlsx");
  const stem = typeof ctx.params.output_filename === "string" && ctx.params.output_filename.trim() !== "" ? ctx.params.output_filename : "output";
  const filename = safeFilename(stem, format);
  const { writeCsv, writeXlsx } = await workbook();
  const bytes = format === "csv" ? writeCsv([...sheets.values()][0]) : await writeXlsx(sheets);
  const info = await saveFile(ctx, bytes, filename, format === "csv" ? "text/csv" : XLSX_MIME);
  const rows = [...sheets.values()].reduce((n, r) => n + r.length, 0);
  return {
    attachment: { doc_id: info.doc_id, format, file_name: filename },
    download: JSON.stringify(info),
    summary: `Generated ${filename} with ${sheets.size} sheet(s), ${rows} total rows`,
    data: Object.fromEntries(sheets),
  };
};
