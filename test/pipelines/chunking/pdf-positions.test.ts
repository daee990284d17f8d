/**
 * PDF positions read and finished as RAGFlow's pdf_chunk_metadata.py does.
 */
import { describe, expect, it } from "vitest";
import { extractPdfPositions, finalizePdfChunk, mergePdfPositions, removeTag } from "../../../src/pipelines/chunking/pdf-positions.js";

describe("extractPdfPositions", () => {
  it("reads _pdf_positions, positions, position_tag, position_int, then page_number with a box, in that order", () => {
    expect(extractPdfPositions({ _pdf_positions: [[1, 1, 2, 3, 4]], positions: [[9, 9, 9, 9, 9]] }, "d")).toEqual([[1, 1, 2, 3, 4]]);
    expect(extractPdfPositions({ positions: [[2, "1.5", 2, 3, 4]] }, "d")).toEqual([[2, 1.5, 2, 3, 4]]);
    expect(extractPdfPositions({ position_tag: "@@3\t10\t20\t30\t40##@@4-5\t1\t2\t3\t4##" }, "d")).toEqual([
      [2, 10, 20, 30, 40],
      [4, 1, 2, 3, 4],
    ]);
    expect(extractPdfPositions({ position_int: [[1, 2, 3, 4, 5], [1, 2]] }, "d")).toEqual([[1, 2, 3, 4, 5]]);
    expect(extractPdfPositions({ page_number: 3, x0: 1, x1: 2, top: 3, bottom: 4 }, "d")).toEqual([[3, 1, 2, 3, 4]]);
    expect(extractPdfPositions({ page_number: 3, x0: 1, x1: 2, top: 3 }, "d")).toEqual([]);
    expect(extractPdfPositions("not an item", "d")).toEqual([]);
  });

  it("normalises pages: 0 or less goes up by one, one below page_number snaps to it", () => {
    expect(extractPdfPositions({ positions: [[0, 1, 2, 3, 4], [-1, 1, 2, 3, 4]] }, "d").map((p) => p[0])).toEqual([1, 0]);
    expect(extractPdfPositions({ page_number: 5, positions: [[4, 1, 2, 3, 4], [[1, 2, 7], 1, 2, 3, 4]] }, "d").map((p) => p[0])).toEqual([5, 7]);
    expect(extractPdfPositions({ page_number: 0, positions: [[0, 1, 2, 3, 4]] }, "d").map((p) => p[0])).toEqual([1]);
  });

  it("skips positions Python cannot read and fails on malformed tags, naming the document", () => {
    expect(extractPdfPositions({ positions: [[null, 1, 2, 3, 4], [1, "x", 2, 3, 4], "bad", [1, 2, 3]] }, "d")).toEqual([]);
    expect(() => extractPdfPositions({ position_tag: "@@1\t2\t3##" }, "scan.pdf")).toThrow(expect.objectContaining({ name: "DocumentParseError", document: "scan.pdf" }));
    expect(() => extractPdfPositions({ position_tag: "@@1-\t1\t2\t3\t4##" }, "scan.pdf")).toThrow(/page that is not a number/);
  });
});

describe("positions of chunks", () => {
  it("merges positions once each, sorted by page, top, left", () => {
    expect(mergePdfPositions([{ _pdf_positions: [[2, 5, 6, 1, 2], [1, 9, 9, 50, 60]] }, { _pdf_positions: [[1, 3, 4, 50, 60], [2, 5, 6, 1, 2]] }], "d")).toEqual([
      [1, 3, 4, 50, 60],
      [1, 9, 9, 50, 60],
      [2, 5, 6, 1, 2],
    ]);
  });

  it("finishes a chunk: whole-number boxes, pages and tops, and no _pdf_positions", () => {
    expect(finalizePdfChunk({ text: "t", doc_type_kwd: "text", _pdf_positions: [[1, 10.9, 20.2, 30.5, 40], [2, -0.5, 1, 2, 3]] }, "d")).toEqual({
      text: "t",
      doc_type_kwd: "text",
      position_int: [
        [1, 10, 20, 30, 40],
        [2, 0, 1, 2, 3],
      ],
      page_num_int: [1, 2],
      top_int: [30, 2],
    });
    expect(finalizePdfChunk({ text: "t", _pdf_positions: [] }, "d")).toEqual({ text: "t" });
  });

  it("removes position tags", () => {
    expect(removeTag("a@@1\t2.5\t3\t4\t5##b@@x##")).toBe("ab@@x##");
  });
});
