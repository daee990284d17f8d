/**
 * A PDF from Markdown blocks with pdfkit, as RAGFlow's DocGenerator lays it out: header and footer
 * text on every page, a diagonal watermark, "Page n of m" numbers and a generation timestamp when
 * asked. pdfkit's standard fonts cover Latin-1; `fontPath` (a TTF/OTF) covers other scripts.
 */
import PDFDocument from "pdfkit";
import type { Block, Run } from "./markdown-blocks.js";

export interface PageDecor {
  headerText: string;
  footerText: string;
  watermarkText: string;
  pageNumbers: boolean;
  timestamp: string | undefined;
  fontSize: number;
  fontPath?: string;
}

const MARGIN = 56;

function fonts(doc: PDFKit.PDFDocument, fontPath: string | undefined) {
  if (fontPath) {
    doc.registerFont("body", fontPath);
    return { regular: "body", bold: "body", italic: "body", mono: "body" };
  }
  return { regular: "Helvetica", bold: "Helvetica-Bold", italic: "Helvetica-Oblique", mono: "Courier" };
}

export function renderPdf(blocks: readonly Block[], decor: PageDecor): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", margins: { top: MARGIN + 14, bottom: MARGIN + 14, left: MARGIN, right: MARGIN }, bufferPages: true, info: { Producer: "canvasflow", Creator: "canvasflow DocGenerator" } });
  const f = fonts(doc, decor.fontPath);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const size = decor.fontSize;

  const writeRuns = (runs: readonly Run[], base: { size: number; font?: string; indent?: number; prefix?: string }) => {
    const all: Run[] = base.prefix ? [{ text: base.prefix }, ...runs] : [...runs];
    if (all.length === 0) all.push({ text: "" });
    all.forEach((run, i) => {
      const font = run.code ? f.mono : run.bold ? f.bold : run.italic ? f.italic : (base.font ?? f.regular);
      doc.font(font).fontSize(base.size).text(run.text, { continued: i < all.length - 1, ...(i === 0 && base.indent ? { indent: base.indent } : {}) });
    });
  };

  if (decor.timestamp) doc.font(f.italic).fontSize(size - 2).fillColor("#666666").text(decor.timestamp).fillColor("black").moveDown(0.5);
  for (const block of blocks) {
    switch (block.kind) {
      case "heading":
        doc.moveDown(0.4);
        writeRuns(block.runs, { size: size + Math.max(0, 12 - block.level * 2), font: f.bold });
        doc.moveDown(0.3);
        break;
      case "paragraph":
        writeRuns(block.runs, { size });
        doc.moveDown(0.5);
        break;
      case "item":
        writeRuns(block.runs, { size, indent: 14 + block.depth * 14, prefix: block.ordered ? `${block.index}. ` : "• " });
        break;
      case "code":
        doc.font(f.mono).fontSize(size - 1).text(block.text);
        doc.moveDown(0.5);
        break;
      case "table": {
        const lines = [block.header, ...block.rows].map((row) => row.join("  |  "));
        doc.font(f.bold).fontSize(size - 1).text(lines[0]);
        doc.font(f.regular);
        for (const line of lines.slice(1)) doc.text(line);
        doc.moveDown(0.5);
        break;
      }
      case "rule": {
        const y = doc.y + 4;
        doc.moveTo(MARGIN, y).lineTo(doc.page.width - MARGIN, y).stroke();
        doc.moveDown(0.8);
        break;
      }
    }
  }

  // Header, footer, watermark and page numbers on every page, once the page count is known.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const { width, height } = doc.page;
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    if (decor.watermarkText) {
      doc.save();
      doc.rotate(-45, { origin: [width / 2, height / 2] });
      doc.font(f.bold).fontSize(54).fillColor("#cccccc").fillOpacity(0.35).text(decor.watermarkText, 0, height / 2 - 27, { width, align: "center", lineBreak: false });
      doc.restore();
      doc.fillOpacity(1).fillColor("black");
    }
    if (decor.headerText) doc.font(f.regular).fontSize(9).fillColor("#444444").text(decor.headerText, MARGIN, MARGIN / 2, { width: width - 2 * MARGIN, align: "center", lineBreak: false });
    if (decor.footerText) doc.font(f.regular).fontSize(9).fillColor("#444444").text(decor.footerText, MARGIN, height - MARGIN / 2 - 10, { width: width - 2 * MARGIN, align: "left", lineBreak: false });
    if (decor.pageNumbers) doc.font(f.regular).fontSize(9).fillColor("#444444").text(`Page ${i - range.start + 1} of ${range.count}`, MARGIN, height - MARGIN / 2 - 10, { width: width - 2 * MARGIN, align: "right", lineBreak: false });
    doc.fillColor("black");
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
