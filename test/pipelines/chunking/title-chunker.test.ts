/**
 * The TitleChunker's behaviour: RAGFlow's test_title_chunker_token_cap.py and
 * test_title_chunker_position_int.py on the real cl100k tokenizer (RAGFlow's stub counts a
 * character as a token), and the hierarchy and group methods on headed documents.
 */
import { describe, expect, it } from "vitest";
import { checkTitleChunkerParams, cl100kCounter, titleChunk, type TitleChunkerParams } from "../../../src/pipelines/chunking/chunkers.js";
import type { Chunk, Payload, ProgressNote } from "../../../src/pipelines/payload.js";

/** Params as RAGFlow's tests set them: straight on the object, below the checked cap range where they need to. */
function direct(overrides: Partial<TitleChunkerParams>): TitleChunkerParams {
  return { method: "hierarchy", levels: [], hierarchy: 0, include_heading_content: false, root_chunk_as_heading: false, chunk_token_cap: 512, ...overrides };
}

async function run(params: TitleChunkerParams, payload: Omit<Payload, "name"> & { name?: string }): Promise<Chunk[]> {
  return titleChunk(params, { name: "cap-test", ...payload }, () => {});
}

const json = (items: Array<Record<string, unknown>>) => ({ output_format: "json" as const, json: items as Payload["json"] });
const texts = (chunks: Chunk[]) => chunks.map((c) => c.text);

describe("TitleChunker token cap", async () => {
  const tokens = await cl100kCounter();
  const body = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} ends here`).join("。") + "。";

  for (const method of ["hierarchy", "group"] as const) {
    it(`${method}: re-splits an oversized chunk at sentence ends, each piece within the cap, losing nothing`, async () => {
      const chunks = await run(direct({ method, chunk_token_cap: 20 }), json([{ text: body, doc_type_kwd: "text" }]));
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) {
        expect(c.doc_type_kwd).toBe("text");
        expect(tokens.count(c.text)).toBeLessThanOrEqual(20);
        expect(c.text.replace(/\n$/, "")).toMatch(/。$/);
      }
      expect(texts(chunks).join("")).toBe(body + "\n");
    });
  }

  it("leaves a chunk within the cap as it is, and a cap of 0 disables it", async () => {
    expect(texts(await run(direct({}), json([{ text: "S00。S01。" }])))).toEqual(["S00。S01。\n"]);
    expect(texts(await run(direct({ chunk_token_cap: 0 }), json([{ text: body }])))).toEqual([body + "\n"]);
  });

  it("never splits a table or an image", async () => {
    const table = "x".repeat(2000);
    expect(await run(direct({ chunk_token_cap: 20 }), json([{ text: table, doc_type_kwd: "table" }]))).toEqual([{ text: table, doc_type_kwd: "table" }]);
  });

  it("hard-splits a run without sentence ends, losslessly, even mid-character", async () => {
    const multibyte = "中文混合English文本再混入一些标点符号，".repeat(30);
    const chunks = await run(direct({ chunk_token_cap: 20 }), json([{ text: multibyte }]));
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(tokens.count(c.text)).toBeLessThanOrEqual(20);
    expect(texts(chunks).join("")).toBe(multibyte + "\n");
    expect(texts(chunks).join("")).not.toContain("\uFFFD");
  });

  it("counts characters where the tokenizer counts 0 (a special token) and still keeps the cap", async () => {
    const text = "x".repeat(100) + "<|endoftext|>";
    const chunks = await run(direct({ chunk_token_cap: 20 }), json([{ text }]));
    expect(chunks.length).toBeGreaterThan(1);
    // While the rest holds the special token, pieces are 20 characters (truncate raises in RAGFlow).
    expect(chunks[0].text).toBe("x".repeat(20));
    for (const c of chunks) expect(tokens.count(c.text) || c.text.length).toBeLessThanOrEqual(20);
    expect(texts(chunks).join("")).toBe(text + "\n");
  });

  it("keeps the positions on the first piece only", async () => {
    const chunks = await run(direct({ chunk_token_cap: 20 }), { name: "book.pdf", ...json([{ text: body, positions: [[1, 10, 200, 50, 80]] }]) });
    expect(chunks[0].position_int).toEqual([[1, 10, 200, 50, 80]]);
    for (const c of chunks.slice(1)) expect(c).not.toHaveProperty("position_int");
  });

  it("caps text-format chunks and chunks merged from several records", async () => {
    const text = await run(direct({ chunk_token_cap: 20 }), { output_format: "text", text: body });
    expect(text.length).toBeGreaterThan(1);
    for (const c of text) expect(tokens.count(c.text)).toBeLessThanOrEqual(20);
    expect(texts(text).join("")).toBe(body + "\n");
    const records = Array.from({ length: 6 }, (_, i) => ({ text: `Sentence number ${i} ends here。` }));
    const merged = await run(direct({ chunk_token_cap: 20 }), json(records));
    expect(merged.length).toBeGreaterThan(1);
    expect(texts(merged).join("")).toBe(records.map((r) => r.text + "\n").join(""));
  });
});

describe("TitleChunker positions", () => {
  it("merges the positions of a chunk's items into position_int (pages 1 and 2), sorted and each once", async () => {
    const chunks = await run(
      direct({ hierarchy: 1, chunk_token_cap: 0 }),
      json([
        { text: "Introduction paragraph on page one.", doc_type_kwd: "text", positions: [[1, 10, 200, 50, 80]] },
        { text: "Body text continues on page one.", doc_type_kwd: "text", positions: [[1, 12, 205, 90, 120], [1, 10, 200, 50, 80]] },
        { text: "Second chapter starts on page two.", doc_type_kwd: "text", positions: [[2, 15, 210, 40, 75]] },
      ]),
    );
    expect(chunks).toEqual([
      {
        text: "Introduction paragraph on page one.\nBody text continues on page one.\nSecond chapter starts on page two.\n",
        doc_type_kwd: "text",
        position_int: [
          [1, 10, 200, 50, 80],
          [1, 12, 205, 90, 120],
          [2, 15, 210, 40, 75],
        ],
        page_num_int: [1, 1, 2],
        top_int: [50, 90, 40],
      },
    ]);
  });

  it("reads positions from position tags and removes the tags from the text", async () => {
    const chunks = await run(direct({ chunk_token_cap: 0 }), json([{ text: "Tagged line@@2\t10\t20\t30\t40##", page_number: 2, position_tag: "@@2\t10\t20\t30\t40##" }]));
    expect(chunks).toEqual([{ text: "Tagged line\n", doc_type_kwd: "text", position_int: [[2, 10, 20, 30, 40]], page_num_int: [2], top_int: [30] }]);
  });
});

describe("TitleChunker hierarchy", () => {
  const markdown = ["# A", "intro a", "## A1", "body a1", "### A1x", "deep", "## A2", "body a2", "# B", "body b"].join("\n");
  const levels = [["^#[^#]", "^##[^#]", "^###[^#]"]];

  it("gives each leaf heading at the target depth its heading chain and the bodies above it", async () => {
    const chunks = await run(direct({ levels, hierarchy: 2 }), { output_format: "markdown", markdown });
    expect(texts(chunks)).toEqual(["# A\nintro a\n## A1\nbody a1\n### A1x\ndeep\n", "# A\nintro a\n## A2\nbody a2\n", "# B\nbody b\n"]);
  });

  it("with include_heading_content, emits every heading that has a body, under its titles only", async () => {
    const chunks = await run(direct({ levels, hierarchy: 2, include_heading_content: true }), { output_format: "markdown", markdown });
    expect(texts(chunks)).toEqual(["# A\nintro a\n", "# A\n## A1\nbody a1\n### A1x\ndeep\n", "# A\n## A2\nbody a2\n", "# B\nbody b\n"]);
  });

  it("puts text before the first heading in its own chunk, and a table ends the run", async () => {
    const chunks = await run(
      direct({ levels, hierarchy: 1 }),
      json([{ text: "preface" }, { text: "# One" }, { text: "one body" }, { text: "<table/>", doc_type_kwd: "table", img_id: "t1" }, { text: "after table" }]),
    );
    expect(chunks.map((c) => [c.text, c.doc_type_kwd, c.img_id])).toEqual([
      ["preface\n", "text", undefined],
      ["# One\none body\n", "text", undefined],
      ["<table/>", "table", "t1"],
      ["after table\n", "text", undefined],
    ]);
  });

  it("with root_chunk_as_heading, heads every chunk with the first one and drops it", async () => {
    const chunks = await run(direct({ levels, hierarchy: 1, root_chunk_as_heading: true }), { output_format: "markdown", markdown: "Title page\n# A\na\n# B\nb" });
    expect(texts(chunks)).toEqual(["Title page\n\n# A\na\n", "Title page\n\n# B\nb\n"]);
  });

  it("picks the family matching most lines; ties go to the first", async () => {
    const doc = "第一章 总则\n内容一\n第二章 细则\n内容二\n1. item";
    const chunks = await run(direct({ levels: [["^#[^#]"], ["第[零一二三四五六七八九十百0-9]+章"], ["[0-9]{1,2}[\\. 、]"]], hierarchy: 1 }), { output_format: "text", text: doc });
    expect(texts(chunks)).toEqual(["第一章 总则\n内容一\n", "第二章 细则\n内容二\n1. item\n"]);
  });

  it("does not take numbers that only look like bullets for headings", async () => {
    const chunks = await run(direct({ levels: [["[0-9]+"]], hierarchy: 1 }), { output_format: "text", text: "1 2 3 sample\nbody\n2 heading\nbody two" });
    // "1 2 3 sample" is not_bullet ("[0-9]+ +[0-9]"), so only "2 heading" is a heading.
    expect(texts(chunks)).toEqual(["1 2 3 sample\nbody\n", "2 heading\nbody two\n"]);
  });

  it("takes a short line in a title layout region as a heading one level below the family", async () => {
    const chunks = await run(
      direct({ levels: [["^#[^#]"]], hierarchy: 2 }),
      json([{ text: "# Part" }, { text: "Overview", layout_type: "title", layoutno: "title-1" }, { text: "Some text, with a comma.", layout_type: "title" }, { text: "body" }]),
    );
    expect(texts(chunks)).toEqual(["# Part\nOverview\nSome text, with a comma.\nbody\n"]);
  });
});

describe("TitleChunker group", () => {
  it("groups a section's lines while small groups take the next line across sections", async () => {
    const long = "word ".repeat(40).trim();
    const markdown = ["# One", long, "# Two", "short", "# Three", "tail"].join("\n");
    const chunks = await run(direct({ method: "group", levels: [["^#[^#]"]] }), { output_format: "markdown", markdown });
    // "# One" is under 32 tokens so it takes the long line; the group is then over 32 and "# Two" starts a section.
    expect(texts(chunks)).toEqual([`# One\n${long}\n`, "# Two\nshort\n# Three\ntail\n"]);
  });

  it("keeps a table as its own group and skips blank lines", async () => {
    const chunks = await run(direct({ method: "group", levels: [["^#[^#]"]] }), json([{ text: "# One" }, { text: "  " }, { text: "T", doc_type_kwd: "table" }, { text: "x" }]));
    expect(chunks.map((c) => c.text)).toEqual(["# One\n", "T", "x\n"]);
  });
});

describe("TitleChunker's run", () => {
  it("checks its params and reports RAGFlow's progress notes", async () => {
    const notes: ProgressNote[] = [];
    const params = checkTitleChunkerParams({ method: "group", levels: [["#"]] });
    await titleChunk(params, { name: "t.md", output_format: "markdown", markdown: "# a" }, (n) => notes.push(n));
    expect(notes.map((n) => n.message)).toEqual(["Start to group by title levels.", "Done."]);
  });

  it("fails a document whose item text is not a string, naming the item", async () => {
    await expect(run(direct({}), json([{ text: 5 }]))).rejects.toThrow(/item 0 has a text that is not a string: 5/);
  });

  it("fails a document whose repeated bodies would pass the text limit", async () => {
    const markdown = ["# A", "x".repeat(500), ...Array.from({ length: 20 }, (_, i) => `## A${i}\nleaf`)].join("\n");
    const params = direct({ levels: [["^#[^#]", "^##[^#]"]], hierarchy: 2, chunk_token_cap: 0 });
    await expect(titleChunk(params, { name: "deep.md", output_format: "markdown", markdown }, () => {}, { limits: { maxTextChars: 5000 } })).rejects.toThrow(/maxTextChars/);
  });
});
