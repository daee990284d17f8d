import { describe, expect, it } from "vitest";
import { parseEpub } from "../../../src/pipelines/parsing/epub.js";
import { rejection, requestFor } from "./binary-request.js";
import { writeZip, type ZipEntryInput } from "./zip-writer.js";

const xhtml = (body: string) => `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title><style>p{color:red}</style></head><body>${body}</body></html>`;

function makeEpub(chapters: [string, string][], spine: string[], options: { container?: boolean } = {}): Uint8Array {
  const entries: ZipEntryInput[] = [{ name: "mimetype", data: "application/epub+zip", stored: true }];
  if (options.container !== false) {
    entries.push({
      name: "META-INF/container.xml",
      data: `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    });
    entries.push({
      name: "OEBPS/content.opf",
      data: `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>${chapters
        .map(([file], i) => `<item id="c${i}" href="${file}" media-type="application/xhtml+xml"/>`)
        .join("")}<item id="css" href="style.css" media-type="text/css"/></manifest><spine>${spine.map((file) => `<itemref idref="c${chapters.findIndex(([f]) => f === file)}"/>`).join("")}<itemref idref="css"/></spine></package>`,
    });
  }
  for (const [file, html] of chapters) entries.push({ name: `OEBPS/${file}`, data: html });
  return writeZip(entries);
}

describe("parseEpub", () => {
  it("reads chapters in spine order, headings marked, breaks kept, tables after the text", async () => {
    const bytes = makeEpub(
      [
        ["a.xhtml", xhtml("<h1>Chapter   Two</h1><p>Second <b>chapter</b><br/>next line.</p><table><tr><td>x &amp; y</td></tr></table><script>var x = 1;</script>")],
        ["b.xhtml", xhtml("<h2>Chapter One</h2><p>First\n   chapter text.</p><!-- a comment -->")],
      ],
      ["b.xhtml", "a.xhtml"],
    );
    const request = requestFor("book.epub", bytes, { output_format: "json" });
    const result = await parseEpub(request);
    expect(result.json).toEqual([
      { text: "## Chapter One\nFirst chapter text.", doc_type_kwd: "text" },
      { text: "# Chapter Two\nSecond chapter\nnext line.", doc_type_kwd: "text" },
      { text: "<table><tr><td>x & y</td></tr></table>", doc_type_kwd: "text" },
    ]);
    // The Parser step notes "Start to work on …" once, for every file type: a parser does not repeat it.
    expect(request.notes.filter((note) => note.startsWith("Start to work on"))).toEqual([]);
    const text = await parseEpub(requestFor("book.epub", bytes, { output_format: "text" }));
    expect(text.text).toBe("## Chapter One\nFirst chapter text.\n# Chapter Two\nSecond chapter\nnext line.\n<table><tr><td>x & y</td></tr></table>");
  });

  it("packs blocks to 512 tokens and splits a longer one", async () => {
    const paragraph = (n: number) => `<p>${Array.from({ length: 100 }, () => (n === 1 ? "apple" : "pear")).join(" ")}</p>`;
    const long = `<p>${Array.from({ length: 1200 }, () => "word").join(" ")}</p>`;
    const bytes = makeEpub([["c.xhtml", xhtml(paragraph(1) + paragraph(2) + long + `<table style="x"><tr><td style="y">t</td></tr></table>`)]], ["c.xhtml"]);
    const result = await parseEpub(requestFor("long.epub", bytes, { output_format: "json" }));
    const texts = result.json!.map((item) => item.text);
    // Two 100-word paragraphs fit one section; the 1200-word one is split at spaces, nothing lost.
    expect(texts[0].split("\n")).toHaveLength(2);
    expect(texts.length).toBeGreaterThanOrEqual(4);
    expect(texts.slice(1, -1).join("").replace(/\s+/g, " ").trim()).toBe(Array.from({ length: 1200 }, () => "word").join(" "));
    expect(texts.at(-1)).toBe("<table><tr><td>t</td></tr></table>");
  });

  it("falls back to the HTML files sorted by name without a container", async () => {
    const bytes = makeEpub(
      [
        ["2.html", xhtml("<p>two</p>")],
        ["1.html", xhtml("<p>one</p>")],
      ],
      [],
      { container: false },
    );
    const result = await parseEpub(requestFor("plain.epub", bytes, { output_format: "text" }));
    expect(result.text).toBe("one\ntwo");
  });

  it("fails a book without chapters, a file that is not a ZIP, a bad output format and a zip bomb", async () => {
    const empty = await rejection(parseEpub(requestFor("e.epub", writeZip([{ name: "mimetype", data: "application/epub+zip" }]), { output_format: "json" })));
    expect(empty.message).toMatch(/e\.epub is not an EPUB book/);
    const notZip = await rejection(parseEpub(requestFor("n.epub", new TextEncoder().encode("text"), { output_format: "json" })));
    expect(notZip.message).toMatch(/n\.epub is not a readable EPUB file/);
    const format = await rejection(parseEpub(requestFor("f.epub", makeEpub([], []), { output_format: "html" })));
    expect(format.message).toMatch(/EPUB output format abnormal/);
    const bomb = makeEpub([["c.xhtml", xhtml(`<p>${" ".repeat(5 * 1024 * 1024)}x</p>`)]], ["c.xhtml"]);
    const error = await rejection(parseEpub(requestFor("bomb.epub", bomb, { output_format: "json" }, { limits: { maxInflatedBytes: 1024 * 1024 } })));
    expect(error.message).toMatch(/bomb\.epub is refused as a possible zip bomb: OEBPS\/c\.xhtml declares/);
  });
});
