/**
 * PDF (research/ragflow-pipelines.md §4.2 "PDF methods"): the `plain_text` method reads the text
 * layer with pdf.js (through unpdf), one item per line as pypdf's `extract_text` gives them; a
 * `parse_method` naming a vision model renders each page and has the model describe it. The other
 * named methods need RAGFlow's DeepDOC models or an external service, and are refused with a
 * message naming what does run (methods.ts decides which).
 */
import type { OutlineEntry, ParsedItem } from "../payload.js";
import { DocumentParseError } from "../payload.js";
import type { FormatParser, FormatParseRequest, FormatParseResult } from "./contract.js";
import { checkAborted, outputFormatOf, readWhole, TextBudget } from "./binary-input.js";
import { removeToc, removeTocByOutline } from "./toc.js";
import { importPackage, MissingPackageError } from "../../util/optional-package.js";

type Unpdf = typeof import("unpdf");
type PdfDocument = Awaited<ReturnType<Unpdf["getDocumentProxy"]>>;

const PDF_OUTPUT_FORMATS = ["json", "markdown"] as const;

async function loadUnpdf(): Promise<Unpdf> {
  return importPackage<Unpdf>("unpdf", "Parsing PDF documents");
}

async function openPdf(name: string, bytes: Uint8Array): Promise<{ unpdf: Unpdf; pdf: PdfDocument }> {
  const unpdf = await loadUnpdf();
  try {
    // pdf.js takes ownership of the buffer it is given: hand it a copy.
    return { unpdf, pdf: await unpdf.getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: false, verbosity: 0 }) };
  } catch (error) {
    const e = error as { name?: string; message?: string };
    if (e.name === "PasswordException") {
      throw new DocumentParseError(name, `${name} is an encrypted PDF that needs a password to open; remove the password (or save an unprotected copy) and parse it again`);
    }
    throw new DocumentParseError(name, `${name} is not a readable PDF: ${e.message ?? String(error)}`);
  }
}

/** The bookmarks as RAGFlow keeps them: [title, depth (0-based), page (1-based)]. Entries without a page are left out. */
async function pdfOutlines(pdf: PdfDocument): Promise<OutlineEntry[]> {
  let outline: Awaited<ReturnType<PdfDocument["getOutline"]>>;
  try {
    outline = await pdf.getOutline();
  } catch {
    return [];
  }
  const entries: OutlineEntry[] = [];
  const walk = async (nodes: typeof outline, depth: number): Promise<void> => {
    for (const node of nodes ?? []) {
      const page = await destinationPage(pdf, node.dest);
      if (page !== undefined) entries.push([node.title, depth, page]);
      if (node.items?.length) await walk(node.items, depth + 1);
    }
  };
  await walk(outline, 0);
  return entries;
}

async function destinationPage(pdf: PdfDocument, dest: unknown): Promise<number | undefined> {
  try {
    const explicit = typeof dest === "string" ? await pdf.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
    const target = explicit[0] as unknown;
    const index = typeof target === "number" ? target : await pdf.getPageIndex(target as Parameters<PdfDocument["getPageIndex"]>[0]);
    return index + 1;
  } catch {
    return undefined;
  }
}

/** A line of the text layer and the page it is on (kept for `remove_toc`, not output: RAGFlow's plain_text items have no page). */
interface PageLine {
  text: string;
  page_number: number;
}

/** The text layer's lines, page by page: item strings joined, a line ending where pdf.js marks an end of line. */
async function textLayerLines(request: FormatParseRequest, pdf: PdfDocument, budget: TextBudget): Promise<PageLine[]> {
  const lines: PageLine[] = [];
  for (let pageNumber = 1; pageNumber <= pdf.numPages && !budget.exhausted; pageNumber++) {
    checkAborted(request);
    const page = await pdf.getPage(pageNumber);
    const content = await page.getTextContent();
    let line = "";
    const flush = () => {
      // pypdf gives a line per text line; blank lines carry nothing for the chunkers and are left out.
      if (line.trim() !== "" && budget.take(line)) lines.push({ text: line, page_number: pageNumber });
      line = "";
    };
    for (const item of content.items) {
      if (!("str" in item)) continue;
      line += item.str;
      if (item.hasEOL) flush();
    }
    flush();
    page.cleanup();
    if (pageNumber % 10 === 0) request.progress({ progress: Math.min(0.9, pageNumber / pdf.numPages), message: `Read the text of ${pageNumber}/${pdf.numPages} pages.` });
  }
  return lines;
}

/** remove_toc as RAGFlow runs it for a PDF: by the bookmarks when the first is on page 1, else the heuristic before the first bookmark's page. */
function withoutToc<T extends { text: string; page_number?: number }>(items: T[], outlines: readonly OutlineEntry[]): T[] {
  if (outlines.length === 0) return removeToc(items);
  const firstPage = outlines[0][2];
  if (firstPage === 1) return removeTocByOutline(items, outlines);
  const splitAt = items.findIndex((item) => item.page_number !== undefined && item.page_number >= firstPage);
  const cut = splitAt < 0 ? items.length : splitAt;
  return [...removeToc(items.slice(0, cut)), ...items.slice(cut)];
}

/** The Parser's output for PDF items: json, or markdown (each item's text and a newline). */
function pdfResult(format: "json" | "markdown", items: ParsedItem[], outlines: OutlineEntry[]): FormatParseResult {
  if (format === "json") return { output_format: "json", json: items, outlines };
  return { output_format: "markdown", markdown: items.map((item) => `${item.layout_type === "title" ? "\n## " : ""}${item.text}\n`).join(""), outlines };
}

/** parse_method `plain_text`: the text layer, one item per line, and the bookmarks as outlines. */
export const parsePdfPlainText: FormatParser = async (request) => {
  const name = request.source.name;
  const format = outputFormatOf(request, "PDF", PDF_OUTPUT_FORMATS);
  const { pdf } = await openPdf(name, await readWhole(request));
  try {
    const budget = new TextBudget(request.limits, name, request.warn);
    const outlines = await pdfOutlines(pdf);
    let lines = await textLayerLines(request, pdf, budget);
    if (lines.length === 0 && pdf.numPages > 0) request.warn(`${name}: its ${pdf.numPages} page(s) have no text layer (a scanned PDF needs OCR: use a vision model as parse_method)`);
    if (request.setup.remove_toc) lines = withoutToc(lines, outlines);
    const items: ParsedItem[] = lines.map((line) => ({ text: line.text, layout_type: "text", doc_type_kwd: "text" }));
    return pdfResult(format, items, outlines);
  } finally {
    await pdf.loadingTask.destroy();
  }
};

/** Pages are rendered at RAGFlow's zoom 3 (216 dpi) before a vision model reads them. */
const RENDER_ZOOM = 3;

/** The instruction given with each page image (our wording of RAGFlow's page-transcription prompt). */
export function pageTranscriptionPrompt(page: number): string {
  return [
    "Transcribe the content of this PDF page image into Markdown.",
    "Write only what the page shows, word for word, in its original language and reading order; do not translate, summarise, explain or add examples.",
    "Use Markdown only for the headings, paragraphs, lists and tables that the page really has, and do not wrap the answer in a code block.",
    "If the page has no readable content, answer with nothing at all.",
    `End the transcription with the divider: --- Page ${page} ---`,
  ].join("\n");
}

/** A model's answer without a wrapping ``` or ```markdown fence. */
function withoutFence(text: string): string {
  const fenced = /^\s*```(?:markdown|md)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return (fenced ? fenced[1] : text).trim();
}

/**
 * A parse_method naming a vision model: each page rendered to PNG and described by
 * `request.vision`, one item per page with the whole page as its box. Rendering needs the native
 * package @napi-rs/canvas; without it the document fails with a message naming the method and
 * what does run.
 */
export const parsePdfWithVision: FormatParser = async (request) => {
  const name = request.source.name;
  const method = String(request.setup.parse_method ?? "");
  const format = outputFormatOf(request, "PDF", PDF_OUTPUT_FORMATS);
  const vision = request.vision;
  if (!vision) {
    throw new DocumentParseError(name, `PDF parse_method ${JSON.stringify(method)} has a vision model describe each page, but no vision model is configured for this canvas. Configure one, or use parse_method "plain_text" to read the text layer.`);
  }
  // Typed loosely: the package is optional and may be absent when this compiles.
  let canvas: unknown;
  try {
    canvas = await importPackage<unknown>("@napi-rs/canvas", "Rendering PDF pages for a vision model");
  } catch (error) {
    if (!(error instanceof MissingPackageError)) throw error;
    throw new DocumentParseError(
      name,
      `PDF parse_method ${JSON.stringify(method)} renders each page to an image for a vision model, which needs the optional native package @napi-rs/canvas (not installed: \`npm install @napi-rs/canvas\`). Without it, use parse_method "plain_text", which reads the PDF's text layer here.`,
    );
  }
  const bytes = await readWhole(request);
  const { unpdf, pdf } = await openPdf(name, bytes);
  try {
    const budget = new TextBudget(request.limits, name, request.warn);
    let items: (ParsedItem & { page_number: number })[] = [];
    for (let pageNumber = 1; pageNumber <= pdf.numPages && !budget.exhausted; pageNumber++) {
      checkAborted(request);
      const page = await pdf.getPage(pageNumber);
      const { width, height } = page.getViewport({ scale: 1 });
      page.cleanup();
      // Each page is rendered from its own copy of the document: unpdf (1.8) hangs rendering a
      // second page through one shared document proxy.
      const png = await unpdf.renderPageAsImage(new Uint8Array(bytes), pageNumber, { scale: RENDER_ZOOM, canvasImport: async () => canvas as never });
      const text = withoutFence(await vision.describe(new Uint8Array(png), "image/png", pageTranscriptionPrompt(pageNumber), request.signal));
      request.progress({ progress: pageNumber / pdf.numPages, message: `Processed: ${pageNumber}/${pdf.numPages}` });
      if (!text || !budget.take(text)) continue;
      const box = { x0: 0, x1: round1(width), top: 0, bottom: round1(height) };
      items.push({ text, layout_type: "text", doc_type_kwd: "text", page_number: pageNumber, ...box, _pdf_positions: [[pageNumber, box.x0, box.x1, box.top, box.bottom]] });
    }
    // RAGFlow's vision parser keeps no bookmarks, so remove_toc runs the heuristic alone.
    if (request.setup.remove_toc) items = removeToc(items);
    return pdfResult(format, items, []);
  } finally {
    await pdf.loadingTask.destroy();
  }
};

function round1(points: number): number {
  return Math.round(points * 10) / 10;
}
