/**
 * The files a local knowledge base reads, and their text as chunks. Each format is read with a
 * library made for it:
 *
 * - `.md`/`.markdown`, `.txt`, `.json`: as text (chunking.ts);
 * - `.html`/`.htm`: html-to-text, headings kept as Markdown headings so sections stay sections;
 * - `.docx`: mammoth to HTML (headings from Word's heading styles), then as HTML;
 * - `.pdf`: the text layer through unpdf (PDF.js), one section per page; a scanned PDF without
 *   a text layer has no text and is reported as such;
 * - `.csv`: csv-parse, one chunk per row ("column: value" lines), the header row naming columns.
 */
import type * as CsvParse from "csv-parse/sync";
import type * as HtmlToText from "html-to-text";
import type { HtmlToTextOptions } from "html-to-text";
import { importPackage, lazyPackage } from "../util/optional-package.js";
import { chunkJson, chunkMarkdown, chunkText, splitToCap, MAX_CHUNK_CHARS, type TextChunk } from "./chunking.js";

const csvParse = lazyPackage<typeof CsvParse>("csv-parse/sync", "reading .csv files");
const htmlToText = lazyPackage<typeof HtmlToText>("html-to-text", "reading .html files");

export type DocumentFormat = "markdown" | "text" | "json" | "html" | "docx" | "pdf" | "csv";

const EXTENSIONS: Readonly<Record<string, DocumentFormat>> = {
  md: "markdown",
  markdown: "markdown",
  txt: "text",
  json: "json",
  html: "html",
  htm: "html",
  docx: "docx",
  pdf: "pdf",
  csv: "csv",
};

/** The format of a file by its extension, or undefined for files a knowledge base ignores. */
export function formatOf(fileName: string): DocumentFormat | undefined {
  const dot = fileName.lastIndexOf(".");
  return dot < 0 ? undefined : EXTENSIONS[fileName.slice(dot + 1).toLowerCase()];
}

/** A file that cannot be read as its format; the message says why. */
export class DocumentError extends Error {}

const HTML_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  formatters: {
    markdownHeading: (elem, walk, builder, options) => {
      builder.openBlock({ leadingLineBreaks: 2 });
      builder.addInline(`${"#".repeat((options as { level: number }).level)} `);
      walk(elem.children, builder);
      builder.closeBlock({ trailingLineBreaks: 2 });
    },
  },
  selectors: [
    ...[1, 2, 3, 4, 5, 6].map((level) => ({ selector: `h${level}`, format: "markdownHeading", options: { level } })),
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    { selector: "table", format: "dataTable" },
  ],
};

/** HTML as Markdown-like text: headings as "# …", the rest as readable text. */
export function htmlText(html: string): string {
  return htmlToText().convert(html, HTML_OPTIONS);
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw new DocumentError("it is not UTF-8 text");
  }
}

function sniffDelimiter(text: string): string {
  const firstLine = text.slice(0, text.indexOf("\n") < 0 ? text.length : text.indexOf("\n"));
  const counts = [",", ";", "\t", "|"].map((d) => ({ d, n: firstLine.split(d).length - 1 }));
  return counts.sort((a, b) => b.n - a.n)[0].n > 0 ? counts[0].d : ",";
}

/** CSV: one chunk per data row, as "column: value" lines; the section is the row number. */
export function chunkCsv(text: string, max = MAX_CHUNK_CHARS): TextChunk[] {
  let rows: string[][];
  try {
    rows = csvParse().parse(text, { delimiter: sniffDelimiter(text), relax_column_count: true, skip_empty_lines: true, bom: true, trim: true }) as string[][];
  } catch (error) {
    throw new DocumentError(`it is not valid CSV: ${(error as Error).message}`);
  }
  if (rows.length === 0) return [];
  const [header, ...data] = rows;
  const name = (i: number) => (header[i] && header[i] !== "" ? header[i] : `column ${i + 1}`);
  return data.flatMap((row, r) => {
    const lines = row.map((value, i) => (value === "" ? "" : `${name(i)}: ${value}`)).filter((line) => line !== "");
    return lines.length === 0 ? [] : splitToCap(lines.join("\n"), max).map((content) => ({ section: `row ${r + 1}`, content }));
  });
}

async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const { extractText, getDocumentProxy } = await importPackage<typeof import("unpdf")>("unpdf", "Knowledge bases' .pdf files");
  let pdf;
  try {
    // PDF.js takes ownership of the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    throw new DocumentError(`it is not a readable PDF: ${(error as Error).message}`);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text;
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** PDF: the text layer, page by page (section "page N"), each page cut by paragraphs. */
export async function chunkPdf(bytes: Uint8Array, max = MAX_CHUNK_CHARS): Promise<TextChunk[]> {
  const pages = await pdfPages(bytes);
  const chunks = pages.flatMap((page, i) => chunkText(page, max).map((chunk) => ({ ...chunk, section: `page ${i + 1}` })));
  if (chunks.length === 0 && pages.length > 0) throw new DocumentError(`its ${pages.length} page(s) have no text layer (a scan needs OCR first)`);
  return chunks;
}

/** Word: mammoth turns the document into HTML (Word's heading styles become headings). */
export async function chunkDocx(bytes: Uint8Array, max = MAX_CHUNK_CHARS): Promise<TextChunk[]> {
  const mammoth = (await importPackage<{ default: typeof import("mammoth") }>("mammoth", "Knowledge bases' .docx files")).default;
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value;
  } catch (error) {
    throw new DocumentError(`it is not a readable .docx file: ${(error as Error).message}`);
  }
  return chunkMarkdown(htmlText(html), max);
}

/** The chunks of a file's bytes in its format. Throws a DocumentError saying why it cannot. */
export async function chunkDocument(format: DocumentFormat, bytes: Uint8Array, max = MAX_CHUNK_CHARS): Promise<TextChunk[]> {
  switch (format) {
    case "pdf":
      return chunkPdf(bytes, max);
    case "docx":
      return chunkDocx(bytes, max);
    case "html":
      return chunkMarkdown(htmlText(decodeUtf8(bytes)), max);
    case "csv":
      return chunkCsv(decodeUtf8(bytes), max);
    case "json":
      try {
        return chunkJson(decodeUtf8(bytes), max);
      } catch (error) {
        if (error instanceof DocumentError) throw error;
        throw new DocumentError(`it is not valid JSON: ${(error as Error).message}`);
      }
    case "markdown":
      return chunkMarkdown(decodeUtf8(bytes), max);
    case "text":
      return chunkText(decodeUtf8(bytes), max);
  }
}
