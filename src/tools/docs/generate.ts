/**
 * DocGenerator's work (agent/component/docs_generator.py): `content` (Markdown, its references
 * already rendered) into a pdf (pdfkit), docx (docx), txt, markdown or html file, saved in the
 * files folder and described as RAGFlow describes it: outputs doc_id, filename, mime_type, size,
 * and `download`, the JSON text of {doc_id, filename, mime_type, size, base64, path,
 * include_download_info_in_content} that a downstream Message lists under `downloads`.
 */
import { randomUUID } from "node:crypto";
import { htmlToText } from "../../components/http/html-to-text.js";
import { isPlainObject } from "../../util/values.js";
import { saveFile, safeFilename } from "../files/store.js";
import type { ToolContext, ToolOutput, ToolRun } from "../types.js";
import { choice, flag, textArgument } from "../web/args.js";
import { blocksHtml } from "./html.js";
import { markdownBlocks } from "./markdown-blocks.js";
import { importNeeding } from "../../util/optional-package.js";
import type { PageDecor } from "./pdf.js";

const FORMATS = ["pdf", "docx", "txt", "markdown", "html"] as const;
type Format = (typeof FORMATS)[number];

const MIME: Readonly<Record<Format, string>> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  txt: "text/plain",
  markdown: "text/markdown",
  html: "text/html",
};
const EXTENSION: Readonly<Record<Format, string>> = { pdf: "pdf", docx: "docx", txt: "txt", markdown: "md", html: "html" };

/** "Generated: YYYY-MM-DD HH:MM:SS" in local time, as RAGFlow writes it. */
export function timestampText(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `Generated: ${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())} ${p(now.getHours())}:${p(now.getMinutes())}:${p(now.getSeconds())}`;
}

function defaultName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `document_${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}_${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}_${randomUUID().slice(0, 8)}`;
}

/** The configured font for non-Latin text in PDFs (files.pdfFont), if any. */
function pdfFont(ctx: ToolContext): string | undefined {
  const tools = ctx.services.tools;
  const files = isPlainObject(tools) && isPlainObject(tools.files) ? tools.files : {};
  return typeof files.pdfFont === "string" && files.pdfFont !== "" ? files.pdfFont : undefined;
}

export const runDocGenerator: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const p = ctx.params;
  const content = (await textArgument(args.content)).replace(/<think>[\s\S]*?<\/think>/g, "");
  if (content.trim() === "") throw new Error("content is empty: there is nothing to put in the document");
  const format = choice(p.output_format, "output_format", FORMATS, "pdf");
  const fontSize = Math.max(12, Number(p.font_size) || 12);
  const stamp = flag(p.add_timestamp, "add_timestamp", true) ? timestampText() : undefined;
  const decor: PageDecor = {
    headerText: typeof p.header_text === "string" ? p.header_text : "",
    footerText: typeof p.footer_text === "string" ? p.footer_text : "",
    watermarkText: typeof p.watermark_text === "string" ? p.watermark_text : "",
    pageNumbers: flag(p.add_page_numbers, "add_page_numbers", true),
    timestamp: stamp,
    fontSize,
    ...(pdfFont(ctx) ? { fontPath: pdfFont(ctx)! } : {}),
  };
  const blocks = markdownBlocks(content);
  const name = typeof p.filename === "string" && p.filename.trim() !== "" ? p.filename : defaultName();
  const filename = safeFilename(name, EXTENSION[format]);
  const withStamp = stamp ? `${stamp}\n\n${content}` : content;
  let bytes: Buffer;
  // The renderers load on first use: pdfkit and docx take a while to import.
  if (format === "pdf") bytes = await (await importNeeding(["pdfkit"], "DocGenerator (PDF)", () => import("./pdf.js"))).renderPdf(blocks, decor);
  else if (format === "docx") bytes = await (await importNeeding(["docx"], "DocGenerator (DOCX)", () => import("./docx.js"))).renderDocx(blocks, decor);
  else if (format === "html") bytes = Buffer.from(blocksHtml(markdownBlocks(withStamp), filename), "utf8");
  else if (format === "txt") bytes = Buffer.from(htmlToText(blocksHtml(markdownBlocks(withStamp), filename)), "utf8");
  else bytes = Buffer.from(withStamp, "utf8");
  if (bytes.length === 0) throw new Error("Document file is empty");
  const info = await saveFile(ctx, bytes, filename, MIME[format]);
  const download = { ...info, include_download_info_in_content: flag(p.include_download_info_in_content, "include_download_info_in_content", false) };
  return { doc_id: info.doc_id, filename: info.filename, mime_type: info.mime_type, size: info.size, download: JSON.stringify(download) };
};
