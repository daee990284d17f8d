import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import PDFDocument from "pdfkit";
import { parsePdfPlainText, parsePdfWithVision } from "../../../src/pipelines/parsing/pdf.js";
import { rejection, requestFor } from "./binary-request.js";

/** A PDF made with pdfkit: one page per entry, each a list of lines; bookmarks name pages. */
function makePdf(pages: string[][], options: { bookmarks?: [string, number][]; userPassword?: string } = {}): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, ...(options.userPassword ? { userPassword: options.userPassword, ownerPassword: "owner", pdfVersion: "1.7" } : {}) });
    const parts: Buffer[] = [];
    doc.on("data", (part: Buffer) => parts.push(part));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(parts))));
    doc.on("error", reject);
    pages.forEach((lines, index) => {
      doc.addPage();
      for (const [title, page] of options.bookmarks ?? []) if (page === index + 1) doc.outline.addItem(title);
      for (const line of lines) doc.text(line);
    });
    doc.end();
  });
}

describe("parsePdfPlainText", () => {
  it("gives one item per text line and the bookmarks as outlines", async () => {
    const bytes = await makePdf([["Introduction", "First line of text."], ["Chapter two", "More text here."]], { bookmarks: [["Intro", 1], ["Two", 2]] });
    const request = requestFor("doc.pdf", bytes, { output_format: "json", parse_method: "plain_text" });
    const result = await parsePdfPlainText(request);
    expect(result.output_format).toBe("json");
    expect(result.json).toEqual([
      { text: "Introduction", layout_type: "text", doc_type_kwd: "text" },
      { text: "First line of text.", layout_type: "text", doc_type_kwd: "text" },
      { text: "Chapter two", layout_type: "text", doc_type_kwd: "text" },
      { text: "More text here.", layout_type: "text", doc_type_kwd: "text" },
    ]);
    expect(result.outlines).toEqual([
      ["Intro", 0, 1],
      ["Two", 0, 2],
    ]);
    // The Parser step notes "Start to work on …" once, for every file type: a parser does not repeat it.
    expect(request.notes.filter((note) => note.startsWith("Start to work on"))).toEqual([]);
  });

  it("writes markdown as each line and a newline", async () => {
    const bytes = await makePdf([["One", "Two"]]);
    const result = await parsePdfPlainText(requestFor("doc.pdf", bytes, { output_format: "markdown", parse_method: "plain_text" }));
    expect(result).toMatchObject({ output_format: "markdown", markdown: "One\nTwo\n" });
  });

  it("drops a table of contents with remove_toc", async () => {
    const bytes = await makePdf([["Preface"], ["contents", "Chapter 1 ..... 3", "Chapter 2 ..... 4"], ["Chapter 1", "Body one"]]);
    const result = await parsePdfPlainText(requestFor("toc.pdf", bytes, { output_format: "json", parse_method: "plain_text", remove_toc: true }));
    expect(result.json!.map((item) => item.text)).toEqual(["Preface", "Chapter 1", "Body one"]);
  });

  it("fails an encrypted PDF with a clear error", async () => {
    const bytes = await makePdf([["Secret"]], { userPassword: "s3cret" });
    const error = await rejection(parsePdfPlainText(requestFor("locked.pdf", bytes, { output_format: "json", parse_method: "plain_text" })));
    expect(error.name).toBe("DocumentParseError");
    expect(error.message).toMatch(/locked\.pdf is an encrypted PDF that needs a password/);
  });

  it("fails a file that is not a PDF, an empty one and a truncated one", async () => {
    const setup = { output_format: "json", parse_method: "plain_text" };
    expect((await rejection(parsePdfPlainText(requestFor("bad.pdf", new TextEncoder().encode("hello, not a pdf"), setup)))).message).toMatch(/bad\.pdf is not a readable PDF/);
    expect((await rejection(parsePdfPlainText(requestFor("empty.pdf", new Uint8Array(), setup)))).message).toMatch(/empty\.pdf is empty/);
    const whole = await makePdf([["Some text"]]);
    const cut = await rejection(parsePdfPlainText(requestFor("cut.pdf", whole.subarray(0, 200), setup)));
    expect(cut.name).toBe("DocumentParseError");
  });

  it("refuses an output format PDF cannot give, and a file over maxFileBytes", async () => {
    const bytes = await makePdf([["x"]]);
    expect((await rejection(parsePdfPlainText(requestFor("a.pdf", bytes, { output_format: "html", parse_method: "plain_text" })))).message).toMatch(/PDF output format abnormal/);
    expect((await rejection(parsePdfPlainText(requestFor("a.pdf", bytes, { output_format: "json" }, { limits: { maxFileBytes: 100 } })))).message).toMatch(/maxFileBytes/);
  });

  it("stops at maxTextChars with a warning", async () => {
    const bytes = await makePdf([["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"]]);
    const request = requestFor("long.pdf", bytes, { output_format: "json", parse_method: "plain_text" }, { limits: { maxTextChars: 25 } });
    const result = await parsePdfPlainText(request);
    expect(result.json!.map((item) => item.text)).toEqual(["aaaaaaaaaa", "bbbbbbbbbb"]);
    expect(request.warnings[0]).toMatch(/maxTextChars/);
  });
});

describe("parsePdfWithVision", () => {
  it("fails clearly without a vision model", async () => {
    const bytes = await makePdf([["x"]]);
    const error = await rejection(parsePdfWithVision(requestFor("a.pdf", bytes, { output_format: "json", parse_method: "my-vlm" })));
    expect(error.message).toMatch(/"my-vlm".*no vision model is configured/);
  });

  it("describes each rendered page, or names the missing renderer and plain_text", async () => {
    const bytes = await makePdf([["Page one"], ["Page two"]]);
    const seen: { mime: string; prompt: string; size: number }[] = [];
    const vision = {
      describe: async (image: Uint8Array, mime: string, prompt: string) => {
        seen.push({ mime, prompt, size: image.byteLength });
        return "```markdown\nPage text " + seen.length + "\n```";
      },
    };
    const request = requestFor("a.pdf", bytes, { output_format: "json", parse_method: "my-vlm" }, { vision });
    // Whether the optional renderer is installed (resolved, not loaded: the parser loads it).
    let canRender = true;
    try {
      createRequire(import.meta.url).resolve("@napi-rs/canvas");
    } catch {
      canRender = false;
    }
    if (!canRender) {
      const error = await rejection(parsePdfWithVision(request));
      expect(error.name).toBe("DocumentParseError");
      expect(error.message).toMatch(/"my-vlm".*@napi-rs\/canvas.*"plain_text"/s);
      return;
    }
    const result = await parsePdfWithVision(request);
    expect(seen).toHaveLength(2);
    expect(seen[0].mime).toBe("image/png");
    expect(seen[1].prompt).toMatch(/--- Page 2 ---/);
    expect(result.json).toEqual([
      { text: "Page text 1", layout_type: "text", doc_type_kwd: "text", page_number: 1, x0: 0, x1: 612, top: 0, bottom: 792, _pdf_positions: [[1, 0, 612, 0, 792]] },
      { text: "Page text 2", layout_type: "text", doc_type_kwd: "text", page_number: 2, x0: 0, x1: 612, top: 0, bottom: 792, _pdf_positions: [[2, 0, 612, 0, 792]] },
    ]);
  });
});
