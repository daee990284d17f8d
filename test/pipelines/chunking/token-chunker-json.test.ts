/**
 * The TokenChunker's item merge with given token counts (RAGFlow's
 * test_token_chunker_tag_overlap.py): the overlap is cut on the text without position tags, so no
 * half tag reaches the next chunk.
 */
import { describe, expect, it } from "vitest";
import { mergeBySize, type WorkChunk } from "../../../src/pipelines/chunking/token-chunker-json.js";
import type { TokenCounter } from "../../../src/pipelines/chunking/tokens.js";

/** Counts a character as a token, as RAGFlow's stubbed tests do. */
const count = (t: string) => [...t].length;
const characters: TokenCounter = {
  count,
  truncate: (t, n) => [...t].slice(0, n).join(""),
  tryTruncate: (t, n) => [...t].slice(0, n).join(""),
  startCount: (t) => ({ count: count(t), tail: t, stable: 0, refused: false }),
  extendCount: (state, more) => ({ count: count(state.tail + more), tail: state.tail + more, stable: 0, refused: false }),
};

const text = (t: string, tk_nums: number): WorkChunk => ({ text: t, tk_nums, ck_type: "text", doc_type_kwd: "text", positions: [] });

describe("mergeBySize overlap", () => {
  it("cuts the overlap on the visible text of a tagged chunk", () => {
    const merged = mergeBySize([text("ABCD@@1\t2\t3\t4##", 10), text("EFGH", 4)], 5, 20, characters);
    // visible "ABCD", cut at int(4 × 0.8) = 3: "D".
    expect(merged.map((c) => c.text)).toEqual(["ABCD@@1\t2\t3\t4##", "DEFGH"]);
  });

  it("never carries part of a tag", () => {
    const merged = mergeBySize([text("ABCD@@100\t200\t300\t400##", 10), text("WXYZ", 4)], 5, 20, characters);
    expect(merged[1].text).toBe("DWXYZ");
  });

  it("adds token counts when merging instead of counting the joined text", () => {
    const merged = mergeBySize([text("ab", 1), text("cd", 1)], 5, 0, characters);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ text: "ab\ncd", tk_nums: 2 });
  });
});
