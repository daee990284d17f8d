/**
 * A DOCX from Markdown blocks with the `docx` library: headings as Word heading styles, lists,
 * tables, monospace code; header and footer text, page numbers ("Page n of m") and the timestamp
 * as RAGFlow's DocGenerator adds them. (Word has no watermark primitive in `docx`; the watermark
 * text goes into the header.)
 */
import { AlignmentType, BorderStyle, Document, Footer, Header, HeadingLevel, Packer, PageNumber, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from "docx";
import type { Block, Run } from "./markdown-blocks.js";
import type { PageDecor } from "./pdf.js";

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6];

function runs(list: readonly Run[], size: number): TextRun[] {
  return list.map((r) => new TextRun({ text: r.text, bold: r.bold, italics: r.italic, size: size * 2, ...(r.code ? { font: "Courier New" } : {}) }));
}

function blockParagraphs(block: Block, size: number): Array<Paragraph | Table> {
  switch (block.kind) {
    case "heading":
      return [new Paragraph({ heading: HEADINGS[block.level - 1], children: runs(block.runs, size + Math.max(0, 12 - block.level * 2)) })];
    case "paragraph":
      return [new Paragraph({ children: runs(block.runs, size), spacing: { after: 120 } })];
    case "item":
      return [new Paragraph({ children: [new TextRun({ text: block.ordered ? `${block.index}. ` : "• ", size: size * 2 }), ...runs(block.runs, size)], indent: { left: 360 * (block.depth + 1) } })];
    case "code":
      return block.text.split("\n").map((line) => new Paragraph({ children: [new TextRun({ text: line, font: "Courier New", size: (size - 1) * 2 })] }));
    case "table":
      return [
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: [block.header, ...block.rows].map(
            (row, r) => new TableRow({ children: row.map((cell) => new TableCell({ children: [new Paragraph({ children: [new TextRun({ text: cell, bold: r === 0, size: size * 2 })] })] })) }),
          ),
        }),
      ];
    case "rule":
      return [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "999999", space: 1 } }, children: [] })];
  }
}

export async function renderDocx(blocks: readonly Block[], decor: PageDecor): Promise<Buffer> {
  const size = decor.fontSize;
  const body: Array<Paragraph | Table> = [];
  if (decor.timestamp) body.push(new Paragraph({ children: [new TextRun({ text: decor.timestamp, italics: true, size: (size - 2) * 2, color: "666666" })] }));
  for (const block of blocks) body.push(...blockParagraphs(block, size));
  const headerLines = [decor.headerText, decor.watermarkText].filter((t) => t !== "");
  const footerChildren: TextRun[] = [];
  if (decor.footerText) footerChildren.push(new TextRun({ text: decor.footerText, size: 18 }));
  if (decor.pageNumbers) footerChildren.push(new TextRun({ children: [footerChildren.length > 0 ? "    Page " : "Page ", PageNumber.CURRENT, " of ", PageNumber.TOTAL_PAGES], size: 18 }));
  const doc = new Document({
    creator: "canvasflow",
    sections: [
      {
        ...(headerLines.length > 0 ? { headers: { default: new Header({ children: headerLines.map((text) => new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ text, size: 18, color: "666666" })] })) }) } } : {}),
        ...(footerChildren.length > 0 ? { footers: { default: new Footer({ children: [new Paragraph({ alignment: AlignmentType.RIGHT, children: footerChildren })] }) } } : {}),
        children: body,
      },
    ],
  });
  return Packer.toBuffer(doc);
}
