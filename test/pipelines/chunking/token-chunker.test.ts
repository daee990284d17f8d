/**
 * The TokenChunker's behaviour as RAGFlow's rag/flow/tests assert it (test_token_chunker.py,
 * test_token_chunker_delimiter.py), on the real cl100k tokenizer where RAGFlow's tests stub it,
 * plus the paths the parity cases do not reach (context windows, children on text, overlap).
 */
import { describe, expect, it } from "vitest";
import { checkTokenChunkerParams, tokenChunk, type TokenChunkerParams } from "../../../src/pipelines/chunking/chunkers.js";
import type { Chunk, Payload, ProgressNote } from "../../../src/pipelines/payload.js";

function params(raw: Record<string, unknown>): TokenChunkerParams {
  return checkTokenChunkerParams(raw);
}

async function chunk(raw: Record<string, unknown>, payload: Omit<Payload, "name"> & { name?: string }): Promise<Chunk[]> {
  return tokenChunk(params(raw), { name: "doc.json", ...payload }, () => {});
}

const texts = (chunks: Chunk[]) => chunks.map((c) => c.text);

describe("TokenChunker on items (json, chunks)", () => {
  it("reads the chunks of an earlier chunker, not the parser's json, when output_format is chunks", async () => {
    const out = await chunk({ delimiter_mode: "one" }, { output_format: "chunks", chunks: [{ text: "CHAPTER-AWARE" }], json: [{ text: "RAW-PARSER-JSON" }] });
    expect(out).toEqual([{ text: "CHAPTER-AWARE" }]);
  });

  it("drops the delimiter text: it is a boundary", async () => {
    const out = await chunk({ delimiters: ["`##`"] }, { output_format: "json", json: [{ text: "first part##second part##third part", doc_type_kwd: "text" }] });
    expect(texts(out)).toEqual(["first part", "second part", "third part"]);
  });

  it("keeps both sides of consecutive delimiters", async () => {
    const out = await chunk({ delimiters: ["`##`"] }, { output_format: "json", json: [{ text: "A####B", doc_type_kwd: "text" }] });
    expect(texts(out)).toEqual(["A", "B"]);
  });

  it("joins merged items with a newline, never glues them", async () => {
    const out = await chunk({ delimiters: [] }, { output_format: "json", json: [{ text: "hello", doc_type_kwd: "text" }, { text: "world", doc_type_kwd: "text" }] });
    expect(out).toEqual([{ text: "hello\nworld", doc_type_kwd: "text" }]);
  });

  it("applies children delimiters: each piece is a chunk whose mom is the whole text", async () => {
    const out = await chunk({ delimiters: [], children_delimiters: ["|"] }, { output_format: "json", json: [{ text: "alpha|beta", doc_type_kwd: "text" }] });
    expect(out).toEqual([
      { text: "alpha", doc_type_kwd: "text", mom: "alpha|beta" },
      { text: "beta", doc_type_kwd: "text", mom: "alpha|beta" },
    ]);
  });

  it("keeps the PDF positions of merged items as position_int, page_num_int and top_int", async () => {
    const out = await chunk(
      { delimiters: [] },
      {
        output_format: "json",
        json: [
          { text: "hello", doc_type_kwd: "text", positions: [[1, 0, 10, 0, 5]] },
          { text: "world", doc_type_kwd: "text", positions: [[2, 0, 20.7, 0, 8.2]] },
        ],
      },
    );
    expect(out).toEqual([
      {
        text: "hello\nworld",
        doc_type_kwd: "text",
        position_int: [
          [1, 0, 10, 0, 5],
          [2, 0, 20, 0, 8],
        ],
        page_num_int: [1, 2],
        top_int: [0, 0],
      },
    ]);
  });

  it("merges items up to chunk_token_size, not into one chunk (over by at most one item)", async () => {
    // "item<i>" is 2 tokens: a chunk closes once it holds more than 5.
    const out = await chunk({ delimiters: [], chunk_token_size: 5 }, { output_format: "json", json: Array.from({ length: 12 }, (_, i) => ({ text: `item${i}` })) });
    expect(texts(out)).toEqual(["item0\nitem1\nitem2", "item3\nitem4\nitem5", "item6\nitem7\nitem8", "item9\nitem10\nitem11"]);
  });

  it("lets a table or image break the merge and stand as its own chunk", async () => {
    const json = [
      ...Array.from({ length: 6 }, (_, i) => ({ text: `t${i}`, doc_type_kwd: "text" as const })),
      { text: "IMG", doc_type_kwd: "image" as const, img_id: "im1" },
      ...Array.from({ length: 12 }, (_, i) => ({ text: `u${i}`, doc_type_kwd: "text" as const })),
    ];
    const out = await chunk({ delimiters: [], chunk_token_size: 5 }, { output_format: "json", json });
    const kinds = out.map((c) => c.doc_type_kwd);
    expect(kinds.filter((k) => k === "image")).toHaveLength(1);
    expect(out[kinds.indexOf("image")]).toEqual({ text: "IMG", doc_type_kwd: "image", img_id: "im1" });
    // No text chunk spans the image.
    expect(texts(out).join("|")).toBe("t0\nt1\nt2|t3\nt4\nt5|IMG|u0\nu1\nu2|u3\nu4\nu5|u6\nu7\nu8|u9\nu10\nu11");
  });

  it("gives each delimiter piece the positions of the items it overlaps, not every item's", async () => {
    const out = await chunk(
      { delimiters: ["`。`"] },
      {
        name: "doc.pdf",
        output_format: "json",
        json: [
          { text: "第一章。第二段", doc_type_kwd: "text", positions: [[1, 0, 10, 0, 5]] },
          { text: "第三章。第四章", doc_type_kwd: "text", positions: [[2, 0, 20, 0, 8]] },
        ],
      },
    );
    expect(texts(out)).toEqual(["第一章", "第二段\n第三章", "第四章"]);
    expect(out.map((c) => c.position_int)).toEqual([
      [[1, 0, 10, 0, 5]],
      [
        [1, 0, 10, 0, 5],
        [2, 0, 20, 0, 8],
      ],
      [[2, 0, 20, 0, 8]],
    ]);
  });

  it("carries the whole previous chunk and all its positions with a 90 % overlap", async () => {
    const out = await chunk(
      { delimiters: [], chunk_token_size: 5, overlapped_percent: 0.9 },
      {
        output_format: "json",
        json: [
          { text: "alpha", positions: [[1, 0, 10, 0, 5]] },
          { text: "beta", positions: [[2, 0, 20, 0, 8]] },
          { text: "gamma", positions: [[3, 0, 30, 0, 12]] },
        ],
      },
    );
    expect(texts(out)).toEqual(["alpha", "alphabeta", "alphabetagamma"]);
    expect(out[1].page_num_int).toEqual([1, 2]);
    expect(out[2].page_num_int).toEqual([1, 2, 3]);
  });

  it("carries only the positions of the items in the overlap's tail", async () => {
    // One token each: five items fill the chunk (threshold 5 × 80 % = 4), the sixth starts the next.
    const words = ["one", "two", "three", "four", "five", "six"];
    const out = await chunk(
      { delimiters: [], chunk_token_size: 5, overlapped_percent: 0.2 },
      { output_format: "json", json: words.map((text, i) => ({ text, positions: [[i + 1, 0, 10 * (i + 1), 0, 4 * (i + 1)]] })) },
    );
    // The tail is the last 20 % of "one\ntwo\nthree\nfour\nfive" (23 characters, from 18): "\nfive".
    expect(texts(out)).toEqual(["one\ntwo\nthree\nfour\nfive", "\nfivesix"]);
    expect(out[1].page_num_int).toEqual([5, 6]);
  });

  it("strips position tags in one mode and joins the items with newlines", async () => {
    const out = await chunk({ delimiter_mode: "one" }, { output_format: "chunks", chunks: [{ text: "Sentence one@@1\t2\t3\t4##" }, { text: "Sentence two@@1\t2\t3\t4##" }] });
    expect(out).toEqual([{ text: "Sentence one\nSentence two" }]);
  });

  it("adds the surrounding text to a table within its context window, skipping other media", async () => {
    const json = [
      { text: "First paragraph. Second sentence here.", doc_type_kwd: "text" as const },
      { text: "An image", doc_type_kwd: "image" as const, img_id: "i" },
      { text: "<table><tr><td>1</td></tr></table>", doc_type_kwd: "table" as const },
      { text: "After the table. Then more text. And more.", doc_type_kwd: "text" as const },
    ];
    const out = await chunk({ delimiters: ["`\n`"], table_context_size: 4 }, { output_format: "json", json });
    const table = out.find((c) => c.doc_type_kwd === "table")!;
    // Four tokens from each side: whole sentences from the near end until they reach the budget
    // (a sentence keeps the ". " that ends it, so the one before holds the space).
    expect(table.text).toBe("Second sentence here.<table><tr><td>1</td></tr></table>After the table. ");
    expect(out.find((c) => c.doc_type_kwd === "image")!.text).toBe("An image");
  });

  it("drops a table or image whose text is empty", async () => {
    const out = await chunk({}, { output_format: "json", json: [{ text: "", doc_type_kwd: "image", img_id: "x" }, { text: "body" }] });
    expect(out).toEqual([{ text: "body", doc_type_kwd: "text" }]);
  });

  it("reads content_with_weight when an item has no text", async () => {
    const out = await chunk({}, { output_format: "chunks", chunks: [{ content_with_weight: "weighted" } as unknown as Chunk] });
    expect(texts(out)).toEqual(["weighted"]);
  });
});

describe("TokenChunker on text, Markdown and HTML", () => {
  it("cuts at a backtick delimiter with no size merging, whatever chunk_token_size says", async () => {
    const out = await chunk({ delimiters: ["`|`"], chunk_token_size: 1 }, { output_format: "text", text: "aaa|bbb|ccc" });
    expect(out).toEqual([{ text: "aaa" }, { text: "bbb" }, { text: "ccc" }]);
  });

  it("strips position tags in one mode", async () => {
    expect(await chunk({ delimiter_mode: "one" }, { output_format: "text", text: "Hello world@@1\t2\t3\t4##" })).toEqual([{ text: "Hello world" }]);
    expect(await chunk({ delimiter_mode: "one" }, { output_format: "markdown", markdown: " \n " })).toEqual([]);
  });

  it("never cuts a sentence with the default newline delimiter", async () => {
    const sentences = Array.from({ length: 30 }, (_, i) => `Sentence number ${i}. alpha beta gamma delta epsilon zeta eta theta iota kappa`);
    const out = await chunk({ chunk_token_size: 128, delimiters: ["\n"] }, { output_format: "text", text: sentences.join("\n") });
    expect(out.length).toBeGreaterThan(1);
    for (const s of sentences) expect(texts(out).some((t) => t.split("\n").includes(s))).toBe(true);
  });

  it("keeps the whole text in one chunk without delimiters (no cut inside a paragraph)", async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence ${i} with several words in it`).join("\n");
    expect(await chunk({ chunk_token_size: 16, delimiters: [] }, { output_format: "text", text })).toEqual([{ text }]);
  });

  it("normalises CRLF before cutting at bare delimiters", async () => {
    // Each paragraph ("\none", 2 tokens) is over the size, so each stands alone.
    expect(texts(await chunk({ chunk_token_size: 1, delimiters: ["\n"] }, { output_format: "text", text: "one\r\ntwo\rthree" }))).toEqual(["one", "two", "three"]);
  });

  it("starts each chunk after the first with the previous chunk's tail when overlapping", async () => {
    const out = await chunk({ chunk_token_size: 3, delimiters: ["\n"], overlapped_percent: 0.5 }, { output_format: "text", text: "alpha beta gamma\ndelta epsilon zeta" });
    // Both paragraphs are over the size. The tail is cut from the previous output chunk,
    // "\nalpha beta gamma" (17 characters), from character int(17 × 0.5) = 8: mid-word, as in RAGFlow.
    expect(texts(out)).toEqual(["alpha beta gamma", "eta gamma\ndelta epsilon zeta"]);
  });

  it("gives children on text the whole chunk as mom, without stripping them", async () => {
    const out = await chunk({ delimiters: ["\n"], children_delimiters: ["。"] }, { output_format: "text", text: "第一句。第二句。" });
    expect(out).toEqual([
      { text: "\n第一句", mom: "第一句。第二句。" },
      { text: "第二句", mom: "第一句。第二句。" },
    ]);
  });

  it("counts lengths in code points, as Python does, when cutting the overlap", async () => {
    const out = await chunk({ chunk_token_size: 2, delimiters: ["\n"], overlapped_percent: 0.5 }, { output_format: "text", text: "😀😀😀😀\nx" });
    // "\n😀😀😀😀" is 5 code points; the tail starts at int(5 × 0.5) = 2.
    expect(texts(out)).toEqual(["😀😀😀😀", "😀😀😀\nx"]);
  });
});

describe("TokenChunker's run", () => {
  it("reports RAGFlow's progress notes", async () => {
    const notes: ProgressNote[] = [];
    await tokenChunk(params({}), { name: "t.txt", output_format: "text", text: "x" }, (note) => notes.push(note));
    expect(notes.map((n) => n.message)).toEqual(["Start to split into chunks.", "Done."]);
    expect(notes[0].progress).toBeGreaterThanOrEqual(0.01);
    expect(notes[0].progress).toBeLessThanOrEqual(0.05);
  });

  it("fails a document whose items are not objects, naming it", async () => {
    await expect(tokenChunk(params({}), { name: "bad.pdf", output_format: "json", json: ["text" as never] }, () => {})).rejects.toThrow(/json item 0 is not an object/);
  });

  it("fails a payload whose output_format RAGFlow's upstream schema does not know", async () => {
    await expect(tokenChunk(params({}), { name: "x.pdf", output_format: "pdf" as never, json: [] }, () => {})).rejects.toThrow("output_format pdf is not one of json, markdown, text, html, chunks");
  });

  it("fails a document whose chunks would pass the text limit", async () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
    await expect(tokenChunk(params({ chunk_token_size: 3, overlapped_percent: 0.9 }), { name: "big.txt", output_format: "text", text }, () => {}, { limits: { maxTextChars: 200 } })).rejects.toThrow(
      /more than 200 characters.*maxTextChars/,
    );
  });

  it("stops when its signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(tokenChunk(params({}), { name: "a.json", output_format: "json", json: [{ text: "x" }] }, () => {}, { signal: controller.signal })).rejects.toThrow();
  });
});
