import { describe, expect, it } from "vitest";
import { AlignmentType, Document, Footer, Header, HeadingLevel, ImageRun, Packer, Paragraph, Table, TableCell, TableRow, TextRun, VerticalMergeType } from "docx";
import { parseDoc, parseDocx } from "../../../src/pipelines/parsing/docx.js";
import { rejection, requestFor } from "./binary-request.js";
import { readZipEntries, writeZip } from "./zip-writer.js";

/** A 1x1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const PNG_URL = `data:image/png;base64,${PNG.toString("base64")}`;

function image(): ImageRun {
  return new ImageRun({ type: "png", data: PNG, transformation: { width: 10, height: 10 } });
}

function cell(text: string, options: { columnSpan?: number; verticalMerge?: (typeof VerticalMergeType)[keyof typeof VerticalMergeType] } = {}): TableCell {
  return new TableCell({ children: [new Paragraph(text)], ...options });
}

async function makeDocx(children: (Paragraph | Table)[], options: { header?: string; footer?: string } = {}): Promise<Uint8Array> {
  const doc = new Document({
    styles: { paragraphStyles: [{ id: "Caption", name: "caption", basedOn: "Normal", run: { italics: true } }] },
    sections: [
      {
        headers: options.header ? { default: new Header({ children: [new Paragraph(options.header)] }) } : undefined,
        footers: options.footer ? { default: new Footer({ children: [new Paragraph(options.footer)] }) } : undefined,
        children,
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

const json = { output_format: "json" };

describe("parseDocx json", () => {
  it("walks paragraphs, headings, pictures and captions in order, with outlines from headings", async () => {
    const bytes = await makeDocx([
      new Paragraph({ text: "Guide", heading: HeadingLevel.HEADING_1 }),
      new Paragraph({ children: [new TextRun("Hello"), new TextRun({ text: "world", break: 1 }), new TextRun("\tend")] }),
      new Paragraph({ children: [new TextRun("With picture "), image()] }),
      new Paragraph({ text: "Plain" }),
      new Paragraph({ children: [image()] }),
      new Paragraph({ text: "Figure 1: a dot", style: "Caption" }),
      new Paragraph({ text: "Details", heading: HeadingLevel.HEADING_2 }),
      new Paragraph({ text: "  \u3000spaced\u3000 " }),
      new Paragraph({ text: "" }),
    ]);
    const request = requestFor("guide.docx", bytes, json);
    const result = await parseDocx(request);
    expect(result.output_format).toBe("json");
    expect(result.json).toEqual([
      { text: "Guide", doc_type_kwd: "text" },
      { text: "Hello\nworld\tend", doc_type_kwd: "text" },
      { text: "With picture", doc_type_kwd: "text" },
      { text: "", image: PNG_URL, doc_type_kwd: "image" },
      { text: "Plain", doc_type_kwd: "text" },
      { text: "Figure 1: a dot", image: PNG_URL, doc_type_kwd: "image" },
      { text: "Details", doc_type_kwd: "text" },
      { text: "spaced", doc_type_kwd: "text" },
    ]);
    expect(result.outlines).toEqual([
      ["Guide", 0, 0],
      ["Details", 1, 0],
    ]);
    // The Parser step notes "Start to work on …" once, for every file type: a parser does not repeat it.
    expect(request.notes.filter((note) => note.startsWith("Start to work on"))).toEqual([]);
  });

  it("writes tables as HTML with merged equal cells and the heading chain as caption", async () => {
    const bytes = await makeDocx([
      new Paragraph({ text: "Before any heading" }),
      new Table({ rows: [new TableRow({ children: [cell("x"), cell("y")] })] }),
      new Paragraph({ text: "Part A", heading: HeadingLevel.HEADING_1 }),
      new Paragraph({ text: "Other", heading: HeadingLevel.HEADING_2 }),
      new Paragraph({ text: "Section B", heading: HeadingLevel.HEADING_2 }),
      new Paragraph({ text: "Deep C", heading: HeadingLevel.HEADING_4 }),
      new Table({
        rows: [
          new TableRow({ children: [cell("Name", { columnSpan: 2 }), cell("Age")] }),
          new TableRow({ children: [cell("a<b", { verticalMerge: VerticalMergeType.RESTART }), cell("same"), cell("same")] }),
          new TableRow({ children: [cell("", { verticalMerge: VerticalMergeType.CONTINUE }), cell("1"), cell("2")] }),
        ],
      }),
    ]);
    const result = await parseDocx(requestFor("report.docx", bytes, json));
    const items = result.json!;
    expect(items[1]).toEqual({ text: "", doc_type_kwd: "text" });
    expect(items[2]).toEqual({ text: "<table><tr><td>x</td><td>y</td></tr></table>", doc_type_kwd: "table" });
    const table = items.filter((item) => item.doc_type_kwd === "table")[1];
    expect(table.text).toBe(
      "<table><caption>Table Location: report > Part A > Section B > Deep C</caption>" +
        "<tr><td colspan='2'>Name</td><td>Age</td></tr>" +
        "<tr><td>a&lt;b</td><td colspan='2'>same</td></tr>" +
        "<tr><td>a&lt;b</td><td>1</td><td>2</td></tr></table>",
    );
  });

  it("flattens media to text, removes header/footer lines and a table of contents", async () => {
    const bytes = await makeDocx(
      [
        new Paragraph({ text: "ACME Corp confidential" }),
        new Paragraph({ text: "Contents" }),
        new Paragraph({ text: "Intro ........ 1" }),
        new Paragraph({ text: "Usage ........ 2" }),
        new Paragraph({ text: "Intro", heading: HeadingLevel.HEADING_1 }),
        new Paragraph({ children: [new TextRun("text"), image()] }),
        new Paragraph({ text: "Usage", heading: HeadingLevel.HEADING_1 }),
      ],
      { header: "ACME Corp  confidential", footer: "Page" },
    );
    const result = await parseDocx(requestFor("t.docx", bytes, { output_format: "json", remove_toc: true, remove_header_footer: true, flatten_media_to_text: true }));
    // As in RAGFlow, the lines after the TOC heading that start like a heading go too, the "Intro" heading itself included.
    expect(result.json).toEqual([
      { text: "text", doc_type_kwd: "text" },
      { text: "", image: PNG_URL, doc_type_kwd: "text" },
      { text: "Usage", doc_type_kwd: "text" },
    ]);
  });
});

describe("parseDocx markdown", () => {
  it("converts through mammoth with setext h1/h2 and inline images", async () => {
    const bytes = await makeDocx([
      new Paragraph({ text: "Title One", heading: HeadingLevel.HEADING_1 }),
      new Paragraph({ children: [new TextRun("plain "), new TextRun({ text: "bold", bold: true }), new TextRun(" and "), new TextRun({ text: "it", italics: true })] }),
      new Paragraph({ text: "Sub", heading: HeadingLevel.HEADING_2 }),
      new Paragraph({ text: "Third", heading: HeadingLevel.HEADING_3 }),
      new Paragraph({ children: [image()], alignment: AlignmentType.CENTER }),
    ]);
    const result = await parseDocx(requestFor("m.docx", bytes, { output_format: "markdown" }));
    expect(result.output_format).toBe("markdown");
    const markdown = result.markdown!;
    expect(markdown).toContain("Title One\n=========");
    expect(markdown).toContain("plain **bold** and *it*");
    expect(markdown).toContain("Sub\n---");
    expect(markdown).toContain("### Third");
    expect(markdown).toMatch(/!\[[^\]]*\]\(data:image\/png;base64,/);
    expect(result.outlines).toEqual([
      ["Title One", 0, 0],
      ["Sub", 1, 0],
      ["Third", 2, 0],
    ]);
  });
});

describe("parseDocx bad input", () => {
  it("refuses .doc, naming Tika and .docx", async () => {
    const error = await rejection(parseDocx(requestFor("old.doc", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]), json)));
    expect(error.name).toBe("DocumentParseError");
    expect(error.message).toMatch(/old\.doc is a legacy Word \.doc file.*Apache Tika.*\.docx/);
    const viaDocSetup = await rejection(parseDoc(requestFor("old.doc", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]), json)));
    expect(viaDocSetup.message).toMatch(/old\.doc is a legacy Word \.doc file/);
  });

  it("fails a file that is not a ZIP, and a ZIP without a document part", async () => {
    expect((await rejection(parseDocx(requestFor("x.docx", new TextEncoder().encode("plain text"), json)))).message).toMatch(/x\.docx is not a readable DOCX file: it is not a ZIP container/);
    const noBody = writeZip([{ name: "hello.txt", data: "hi" }]);
    expect((await rejection(parseDocx(requestFor("y.docx", noBody, json)))).message).toMatch(/y\.docx is not a DOCX document: its ZIP container has no word\/document\.xml/);
  });

  it("refuses an output format DOCX cannot give", async () => {
    const bytes = await makeDocx([new Paragraph("x")]);
    expect((await rejection(parseDocx(requestFor("a.docx", bytes, { output_format: "html" })))).message).toMatch(/DOCX output format abnormal/);
  });

  it("fails a small DOCX whose document part inflates past the limit (zip bomb), in json and markdown", async () => {
    const entries = await readZipEntries(await makeDocx([new Paragraph("tiny")]));
    // The document part padded with 30 MiB of spaces: a few tens of KB compressed.
    const bombed = entries.map((entry) =>
      entry.name === "word/document.xml" ? { ...entry, data: String(Buffer.from(entry.data as Uint8Array)).replace("<w:body>", "<w:body>" + " ".repeat(30 * 1024 * 1024)) } : entry,
    );
    const bytes = writeZip(bombed);
    expect(bytes.byteLength).toBeLessThan(200_000);
    for (const output_format of ["json", "markdown"]) {
      const error = await rejection(parseDocx(requestFor("bomb.docx", bytes, { output_format }, { limits: { maxInflatedBytes: 8 * 1024 * 1024 } })));
      expect(error.name).toBe("DocumentParseError");
      expect(error.message).toMatch(/bomb\.docx is refused as a possible zip bomb: word\/document\.xml declares 30\.\d MiB inflated/);
    }
    // The same bomb hiding behind a small declared size is stopped while inflating.
    const liar = writeZip(bombed.map((entry) => (entry.name === "word/document.xml" ? { ...entry, declaredSize: 4000 } : entry)));
    const error = await rejection(parseDocx(requestFor("liar.docx", liar, json, { limits: { maxInflatedBytes: 8 * 1024 * 1024 } })));
    expect(error.message).toMatch(/liar\.docx is refused as a possible zip bomb: word\/document\.xml inflates past the 4000 bytes/);
  });
});
