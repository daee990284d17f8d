/**
 * DOCX (research/ragflow-pipelines.md §4.2 "DOCX"): `json` walks the body as python-docx does
 * (docx-body.ts); `markdown` converts with mammoth to HTML, then to Markdown with
 * node-html-markdown set up like RAGFlow's markdownify defaults (setext h1/h2, `*` emphasis).
 * Outlines come from heading-styled paragraphs. Every part is read through zip.ts, mammoth
 * included, so a zip bomb fails the document. `.doc` needs Apache Tika and is refused.
 */
import type { OutlineEntry, ParsedItem } from "../payload.js";
import { DocumentParseError } from "../payload.js";
import type { FormatParser, FormatParseRequest } from "./contract.js";
import { extensionOf, outputFormatOf, readWhole, TextBudget } from "./binary-input.js";
import { docxSections, headingLevel, paragraphText, readDocxPackage, tableGrid, type DocxBlock, type DocxSection } from "./docx-body.js";
import { elements, local, parseXml } from "./xml.js";
import { removeTocWord } from "./toc.js";
import { withZip, type ZipArchive } from "./zip.js";
import { importPackage } from "../../util/optional-package.js";

const DOCX_OUTPUT_FORMATS = ["json", "markdown"] as const;

/** Outlines from headings: [text, level - 1, 0] (DOCX has no pages; RAGFlow keeps None there). */
export function docxOutlines(blocks: readonly DocxBlock[]): OutlineEntry[] {
  const outlines: OutlineEntry[] = [];
  for (const block of blocks) {
    if (block.kind !== "paragraph") continue;
    const text = block.text.trim();
    const level = headingLevel(block.style);
    if (text && level !== undefined) outlines.push([text, level - 1, 0]);
  }
  return outlines;
}

/** The whitespace-normalised texts of the header and footer paragraphs and table cells. */
async function headerFooterTexts(zip: ZipArchive, parts: readonly string[]): Promise<Set<string>> {
  const texts = new Set<string>();
  const add = (text: string) => {
    const normalized = text.replace(/\s+/g, " ").trim();
    if (normalized) texts.add(normalized);
  };
  for (const part of parts) {
    if (!zip.has(part)) continue;
    const root = parseXml(await zip.readText(part));
    const container = elements(root).find((e) => local(e.name) === "hdr" || local(e.name) === "ftr");
    if (!container) continue;
    for (const block of elements(container)) {
      if (local(block.name) === "p") add(paragraphText(block));
      else if (local(block.name) === "tbl") for (const row of tableGrid(block)) row.forEach(add);
    }
  }
  return texts;
}

function withoutHeaderFooter<T extends { text: string }>(items: T[], texts: ReadonlySet<string>): T[] {
  if (texts.size === 0) return items;
  return items.filter((item) => {
    const normalized = item.text.replace(/\s+/g, " ").trim();
    return !(normalized && texts.has(normalized));
  });
}

/** The JSON items RAGFlow's Parser makes of the sections: text/image items, each table as an item after an empty one. */
function docxItems(sections: readonly DocxSection[], flatten: boolean): ParsedItem[] {
  const items: ParsedItem[] = [];
  for (const section of sections) {
    items.push({ text: section.text, ...(section.image !== undefined ? { image: section.image } : {}), doc_type_kwd: flatten || section.image === undefined ? "text" : "image" });
    if (section.table) items.push({ text: section.table, doc_type_kwd: flatten ? "text" : "table" });
  }
  return items;
}

function refuseDoc(name: string): never {
  throw new DocumentParseError(
    name,
    `${name} is a legacy Word .doc file, which RAGFlow reads with Apache Tika (a Java server) and canvasflow does not; save it as .docx and parse that`,
  );
}

type Mammoth = typeof import("mammoth");
type Nhm = typeof import("node-html-markdown");

/** mammoth's zip interface over our bounded reader, so mammoth's reads count against the same limits. */
function mammothFile(zip: ZipArchive) {
  return {
    exists: (name: string) => zip.has(name),
    read: async (name: string, encoding?: string) => {
      const bytes = await zip.read(name);
      if (encoding === "base64") return Buffer.from(bytes).toString("base64");
      return encoding ? new TextDecoder(encoding).decode(bytes) : bytes;
    },
    write: () => {
      throw new Error("read-only");
    },
    toArrayBuffer: () => {
      throw new Error("read-only");
    },
  };
}

/** HTML to Markdown as markdownify writes it by default: setext h1/h2, ATX below, `*` for emphasis and bullets. */
async function markdownOf(html: string): Promise<string> {
  const { NodeHtmlMarkdown } = await importPackage<Nhm>("node-html-markdown", "DOCX to Markdown");
  const setext = (underline: string) => ({
    postprocess: ({ content }: { content: string }) => {
      const text = content.replace(/\s*\n\s*/g, " ").trim();
      return text ? `${text}\n${underline.repeat(text.length)}` : "";
    },
  });
  return NodeHtmlMarkdown.translate(html, { emDelimiter: "*", bulletMarker: "*", keepDataImages: true }, { h1: setext("="), h2: setext("-") });
}

async function docxMarkdown(request: FormatParseRequest, zip: ZipArchive): Promise<string> {
  const name = request.source.name;
  const mammoth = (await importPackage<{ default: Mammoth }>("mammoth", "DOCX to Markdown")).default;
  let html: string;
  try {
    // mammoth's options accept an opened zip as `file`; its types name only path/buffer.
    html = (await mammoth.convertToHtml({ file: mammothFile(zip) } as unknown as { buffer: Buffer })).value;
  } catch (error) {
    if (error instanceof DocumentParseError) throw error;
    throw new DocumentParseError(name, `${name} is not a readable DOCX document: ${(error as Error).message}`);
  }
  return markdownOf(html);
}

/** The `doc` file type (legacy Word): RAGFlow reads it with Apache Tika, which canvasflow does not run. */
export const parseDoc: FormatParser = async (request) => refuseDoc(request.source.name);

/** DOCX: json (the python-docx walk) or markdown (mammoth), with outlines from headings. */
export const parseDocx: FormatParser = async (request) => {
  const name = request.source.name;
  if (extensionOf(name) === "doc") refuseDoc(name);
  const format = outputFormatOf(request, "DOCX", DOCX_OUTPUT_FORMATS);
  const bytes = await readWhole(request);
  const budget = new TextBudget(request.limits, name, request.warn);
  return withZip(name, "DOCX", bytes, request.limits, async (zip) => {
    const docx = await readDocxPackage(zip);
    const outlines = docxOutlines(docx.blocks);
    const headerFooter = request.setup.remove_header_footer ? await headerFooterTexts(zip, docx.headerFooterParts) : new Set<string>();
    if (format === "json") {
      let sections = withoutHeaderFooter(docxSections(docx.blocks, name), headerFooter);
      if (request.setup.remove_toc) sections = removeTocWord(sections, outlines);
      const kept: DocxSection[] = [];
      for (const section of sections) {
        if (!budget.take(section.text + (section.table ?? ""))) break;
        kept.push(section);
      }
      return { output_format: "json", json: docxItems(kept, Boolean(request.setup.flatten_media_to_text)), outlines };
    }
    let markdown = await docxMarkdown(request, zip);
    if (headerFooter.size > 0) markdown = withoutHeaderFooter(markdown.split("\n").map((text) => ({ text })), headerFooter).map((l) => l.text).join("\n");
    if (request.setup.remove_toc) markdown = removeTocWord(markdown.split("\n"), outlines).join("\n");
    if (!budget.take(markdown)) markdown = markdown.slice(0, request.limits.maxTextChars);
    return { output_format: "markdown", markdown, outlines };
  });
};

