/**
 * RAGFlow's four pipeline templates, as shipped, run on a folder of real documents made here (a
 * text-layer PDF, a DOCX with headings and a table, an XLSX, Markdown with a table, an HTML page,
 * an e-mail, a text file) under the mock LLM: every document the templates' Parser can read here
 * ends in chunks; the PDF, which the templates parse with DeepDOC, fails alone with a message
 * naming what runs instead, and parses once its setup says plain_text.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from "docx";
import ExcelJS from "exceljs";
import PDFDocument from "pdfkit";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { localDocuments } from "../../src/pipelines/documents.js";
import { corpusPath } from "../helpers/corpus.js";
import { startMockLlm } from "../helpers/mock-llm.js";

const folder = mkdtempSync(join(tmpdir(), "canvasflow-corpus-pipelines-"));

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

async function makeDocuments(): Promise<void> {
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

beforeAll(makeDocuments);

const READABLE = ["guide.md", "page.html", "mail.eml", "notes.txt", "handbook.docx", "prices.xlsx"];

async function runDocument(dsl: string | object, name: string): Promise<{ error: string | undefined; chunks: Array<Record<string, unknown>> }> {
  // The mock LLM is closed after the test that starts it.
  const mock = await startMockLlm();
  const canvas = await loadCanvas(dsl, { services: { llm: mock.provider, documents: localDocuments() } });
  const events: CanvasEvent[] = [];
  for await (const event of canvas.run({ files: [{ name, path: join(folder, name) }] })) events.push(event);
  const last = events.at(-1)!;
  expect(last.event).toBe("workflow_finished");
  const data = last.data as { error?: string | null; outputs: { chunks?: Array<Record<string, unknown>> } };
  return { error: data.error ?? undefined, chunks: data.outputs.chunks ?? [] };
}

describe.each(["advanced_ingestion_pipeline.json", "chunk_summary.json", "compiler.json", "title_chunker.json"])("the corpus pipeline %s", (file) => {
  it.each(READABLE)("turns %s into chunks", async (name) => {
    const { error, chunks } = await runDocument(corpusPath("ragflow/head", file), name);
    expect(error, error).toBeUndefined();
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(typeof chunk.text).toBe("string");
    if (file !== "compiler.json") {
      // A Tokenizer made each chunk searchable, and an Extractor summarized it.
      expect(chunks[0]).toMatchObject({ title_tks: expect.any(String), summary: expect.stringContaining("[mock reply]") });
    }
  });

  it("fails the PDF alone, naming DeepDOC and what runs instead", async () => {
    const { error } = await runDocument(corpusPath("ragflow/head", file), "report.pdf");
    expect(error).toMatch(/parse_method "DeepDOC" of the pdf setup needs RAGFlow's DeepDOC models .* what runs here for pdf: "plain_text"/);
  });
});

it("parses the PDF's text layer once the template's setup says plain_text", async () => {
  const template = JSON.parse(readFileSync(corpusPath("ragflow/head", "title_chunker.json"), "utf8"));
  template.dsl.components["Parser:HipSignsRhyme"].obj.params.pdf.parse_method = "plain_text";
  const { error, chunks } = await runDocument(template, "report.pdf");
  expect(error).toBeUndefined();
  expect(chunks.map((chunk) => chunk.text).join("\n")).toContain("The pipeline parsed this text layer.");
});
