/**
 * Real documents of every type RAGFlow's corpus pipelines parse here, made at test time: Markdown
 * with a table, an HTML page with a script, an e-mail, a text file, a DOCX with a heading and a
 * table, an XLSX, and a PDF with a text layer (which the templates' DeepDOC setup refuses).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from "docx";
import ExcelJS from "exceljs";
import PDFDocument from "pdfkit";

/** The documents the templates' Parser reads (all but the PDF). */
export const READABLE_DOCUMENTS = ["guide.md", "page.html", "mail.eml", "notes.txt", "handbook.docx", "prices.xlsx"];

function pdf(lines: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument();
    const parts: Buffer[] = [];
    doc.on("data", (part: Buffer) => parts.push(part));
    doc.on("end", () => resolve(Buffer.concat(parts)));
    doc.on("error", reject);
    for (const line of lines) doc.text(line);
    doc.end();
  });
}

/** Writes the documents into `folder`. */
export async function writePipelineDocuments(folder: string): Promise<void> {
  writeFileSync(join(folder, "guide.md"), "# Guide\n\n## Install\n\nRun npm install to get canvasflow.\n\n| flag | meaning |\n|---|---|\n| --file | a document |\n");
  writeFileSync(join(folder, "page.html"), "<html><head><script>alert(1)</script></head><body><h1>Release notes</h1><p>Pipelines run RAGFlow dataflow canvases.</p></body></html>");
  writeFileSync(join(folder, "mail.eml"), "From: Ada <ada@example.com>\r\nTo: team@example.com\r\nSubject: Harvest\r\nDate: Sun, 6 Dec 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe harvest festival is on Friday.\r\n");
  writeFileSync(join(folder, "notes.txt"), "Plain notes about the orchard.\nApples ripen in autumn.\n");
  const docx = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: "Handbook", heading: HeadingLevel.HEADING_1 }),
          new Paragraph("Every pipeline starts at File."),
          new Table({ rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph("step")] }), new TableCell({ children: [new Paragraph("job")] })] }), new TableRow({ children: [new TableCell({ children: [new Paragraph("Parser")] }), new TableCell({ children: [new Paragraph("reads")] })] })] }),
        ],
      },
    ],
  });
  writeFileSync(join(folder, "handbook.docx"), await Packer.toBuffer(docx));
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Prices");
  sheet.addRow(["fruit", "price"]);
  sheet.addRow(["apple", 3]);
  sheet.addRow(["pear", 4]);
  writeFileSync(join(folder, "prices.xlsx"), Buffer.from(await workbook.xlsx.writeBuffer()));
  writeFileSync(join(folder, "report.pdf"), await pdf(["Quarterly report", "The pipeline parsed this text layer."]));
}
