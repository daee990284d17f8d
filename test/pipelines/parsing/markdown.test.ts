/**
 * The markdown file type. test/fixtures/ragflow-textcode/markdown.python.json holds what RAGFlow's
 * Python code (and python-markdown for the tables) gives for a set of documents; the parser must
 * give the same.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { imageReferences, inlineMarkdownTables, MarkdownElementExtractor, parseMarkdown, renderMarkdownTable } from "../../../src/pipelines/parsing/markdown.js";

const PYTHON = JSON.parse(readFileSync(new URL("../../fixtures/ragflow-textcode/markdown.python.json", import.meta.url), "utf8")) as {
  elements: { markdown: string; delimiter: string | null; elements: [string, number, number][] }[];
  tables: { markdown: string; html: string }[];
};
const LIMITS = { maxFileBytes: 1 << 20, maxInflatedBytes: 1 << 20, maxTextChars: 1_000_000, maxRows: 1000 };
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";

function source(name: string, bytes: Uint8Array) {
  return {
    name,
    size: bytes.length,
    bytes: async () => bytes,
    async *stream() {
      yield bytes;
    },
  };
}

async function parse(name: string, content: string | Uint8Array, setup: Record<string, unknown> = {}, limits = LIMITS) {
  const warnings: string[] = [];
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const result = await parseMarkdown({
    source: source(name, bytes),
    setup: { output_format: "json", ...setup },
    limits,
    progress: () => {},
    warn: (message) => warnings.push(message),
    signal: new AbortController().signal,
  });
  return { result, warnings, items: result.json };
}

describe("pipe tables as python-markdown writes them", () => {
  PYTHON.tables.forEach(({ markdown, html }, index) => {
    it(`renders table case ${index + 1} as python-markdown does`, async () => {
      expect(await renderMarkdownTable(markdown)).toBe(html);
    });
  });

  it("keeps the line break above a table that RAGFlow's pass drops", async () => {
    expect(await inlineMarkdownTables("intro\n| a | b |\n|---|---|\n| 1 | 2 |\n")).toBe(
      // The HTML table pass that follows adds a line break after every table, as in RAGFlow.
      "intro\n<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n\n",
    );
  });
});

describe("Markdown elements as RAGFlow cuts them", () => {
  PYTHON.elements.forEach(({ markdown, delimiter, elements }, index) => {
    it(`gives RAGFlow's elements for case ${index + 1}${delimiter ? " (delimiter)" : ""}`, async () => {
      const text = await inlineMarkdownTables(`${markdown}\n`);
      const got = new MarkdownElementExtractor(text).extract(delimiter ?? undefined).map((e) => [e.content, e.startLine, e.endLine]);
      expect(got).toEqual(elements);
    });
  });
});

describe("parseMarkdown", () => {
  it("gives json items per element and text joined with a newline", async () => {
    const doc = "# Title\n\nSome text.\n\n- a\n- b\n";
    expect((await parse("a.md", doc)).items).toEqual([
      { text: "# Title", doc_type_kwd: "text" },
      { text: "Some text.", doc_type_kwd: "text" },
      { text: "- a\n- b\n\n", doc_type_kwd: "text" },
    ]);
    expect((await parse("a.md", doc, { output_format: "text" })).result).toEqual({ output_format: "text", text: "# Title\nSome text.\n- a\n- b\n\n" });
  });

  it("splits on the delimiter and joins lone headers to their prose", async () => {
    expect((await parse("a.md", "## Head\nOne. Two.\n", { delimiter: "`.`" })).items?.map((item) => item.text)).toEqual(["## Head\nOne", "Two"]);
  });

  it("never fetches a remote image or reads a local one, and says so", async () => {
    const { items, warnings } = await parse("a.md", "![x](http://example.com/a.png)\n\n<img src='../secret.png'>\n");
    expect(items?.every((item) => item.image === undefined && item.doc_type_kwd === "text")).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/2 images were not loaded \(http:\/\/example\.com\/a\.png, \.\.\/secret\.png\): remote images are never fetched/);
  });

  it("keeps an embedded data: image as the element's image", async () => {
    const { items, warnings } = await parse("a.md", `# Pic\n\n![dot](${PNG}) and ![again](${GIF})\n`);
    expect(items?.[1]).toEqual({ text: `![dot](${PNG}) and ![again](${GIF})\n\n`, image: PNG, doc_type_kwd: "image" });
    expect(warnings.join()).toMatch(/1 embedded image was left out/);
    const flat = await parse("a.md", `![dot](${PNG})\n`, { flatten_media_to_text: true });
    expect(flat.items?.[0]).toMatchObject({ image: PNG, doc_type_kwd: "text" });
  });

  it("finds HTML images across lines", () => {
    expect(imageReferences('a\n<img\n  alt="x"\n  src="p.png">\n![y](q.png) ![y](q.png)')).toEqual([
      { url: "q.png", line: 4 },
      { url: "p.png", line: 1 },
    ]);
  });

  it("decodes a GBK document", async () => {
    // "# 标题\n正文" in GBK.
    const bytes = Uint8Array.from([0x23, 0x20, ...Buffer.from("b1eacce2", "hex"), 0x0a, ...Buffer.from("d5fdcec4", "hex")]);
    expect((await parse("cn.md", bytes)).items?.map((item) => item.text)).toEqual(["# 标题", "正文\n"]);
  });

  it("fails binary input and files over maxFileBytes; cuts text at maxTextChars with a warning", async () => {
    await expect(parse("a.md", new Uint8Array([0x23, 0, 1, 2]))).rejects.toMatchObject({ name: "DocumentParseError", document: "a.md" });
    await expect(parse("a.md", "# big\n", {}, { ...LIMITS, maxFileBytes: 3 })).rejects.toThrow(/maxFileBytes/);
    const { items, warnings } = await parse("a.md", `# A\n\n${"word ".repeat(100)}\n\n# B\n`, {}, { ...LIMITS, maxTextChars: 50 });
    expect(items!.map((item) => item.text).join("").length).toBeLessThanOrEqual(50);
    expect(warnings.join()).toMatch(/maxTextChars/);
  });

  it("names bad params", async () => {
    await expect(parse("a.md", "x", { output_format: "html" })).rejects.toThrow(/markdown setup's output_format/);
    await expect(parse("a.md", "x", { delimiter: ["\n"] })).rejects.toThrow(/delimiter/);
    await expect(parse("a.md", "x", { flatten_media_to_text: "no" })).rejects.toThrow(/flatten_media_to_text/);
  });
});
