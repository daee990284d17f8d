/** Reading documents within ParseLimits: a lying size, aborts, the text cap, and the UTF-8 stream. */
import { describe, expect, it } from "vitest";
import { limitTexts, readDocumentBytes, streamDocumentUtf8 } from "../../../src/pipelines/parsing/read-document.js";

const LIMITS = { maxFileBytes: 100, maxInflatedBytes: 100, maxTextChars: 10, maxRows: 10 };

function source(bytes: Uint8Array, announced = bytes.length, pieceSize = 3) {
  return {
    name: "doc.txt",
    size: announced,
    bytes: async () => bytes,
    async *stream() {
      for (let i = 0; i < bytes.length; i += pieceSize) yield bytes.subarray(i, i + pieceSize);
    },
  };
}

async function collect(texts: AsyncIterable<string>): Promise<string> {
  let all = "";
  for await (const text of texts) all += text;
  return all;
}

describe("readDocumentBytes", () => {
  it("joins the pieces", async () => {
    expect(await readDocumentBytes(source(new Uint8Array([1, 2, 3, 4, 5])), LIMITS, new AbortController().signal)).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
  });

  it("stops a stream that passes maxFileBytes although its size said less", async () => {
    await expect(readDocumentBytes(source(new Uint8Array(150), 10), LIMITS, new AbortController().signal)).rejects.toMatchObject({
      name: "DocumentParseError",
      document: "doc.txt",
      message: expect.stringMatching(/over the limit of 100 bytes.*maxFileBytes/),
    });
  });

  it("stops when the run is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(readDocumentBytes(source(new Uint8Array(5)), LIMITS, controller.signal)).rejects.toThrow();
  });
});

describe("limitTexts", () => {
  it("keeps whole texts, cuts the one crossing the limit and warns once", () => {
    const warnings: string[] = [];
    expect(limitTexts("d", ["abcd", "efgh", "ijkl", "mnop"], LIMITS, (m) => warnings.push(m))).toEqual(["abcd", "efgh", "ij"]);
    expect(warnings).toHaveLength(1);
  });

  it("never cuts a surrogate pair in two", () => {
    expect(limitTexts("d", ["123456789😀"], LIMITS, () => {})).toEqual(["123456789"]);
  });
});

describe("streamDocumentUtf8", () => {
  const signal = new AbortController().signal;
  it("decodes UTF-8 split anywhere, dropping a byte-order mark", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("é😀x")]);
    for (const size of [1, 2, 4]) expect(await collect(streamDocumentUtf8(source(bytes, bytes.length, size), LIMITS, signal, "why"))).toBe("é😀x");
  });

  it("decodes UTF-16 with a byte-order mark, and a one-byte file", async () => {
    expect(await collect(streamDocumentUtf8(source(new Uint8Array([0xfe, 0xff, 0, 0x41, 0, 0x42]), 6, 1), LIMITS, signal, "why"))).toBe("AB");
    expect(await collect(streamDocumentUtf8(source(new Uint8Array([0x41])), LIMITS, signal, "why"))).toBe("A");
  });

  it("fails on bytes that are not UTF-8, saying why UTF-8 was needed", async () => {
    await expect(collect(streamDocumentUtf8(source(new Uint8Array([0x41, 0xff, 0x42])), LIMITS, signal, "JSON must be UTF-8"))).rejects.toThrow(/not valid UTF-8 text .*JSON must be UTF-8/);
  });
});
