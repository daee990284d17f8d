/** The text&code parser: RAGFlow's goldens byte for byte, splitting and grouping, encodings, params, limits. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { groupOverCap, parseTextCode, splitKeepingDelimiters } from "../../../src/pipelines/parsing/text-code.js";

const FIXTURES = new URL("../../fixtures/ragflow-textcode/", import.meta.url);
const LIMITS = { maxFileBytes: 1 << 20, maxInflatedBytes: 1 << 20, maxTextChars: 1_000_000, maxRows: 1000 };

function source(name: string, bytes: Uint8Array, pieceSize = 7) {
  return {
    name,
    size: bytes.length,
    bytes: async () => bytes,
    async *stream() {
      for (let i = 0; i < bytes.length; i += pieceSize) yield bytes.subarray(i, i + pieceSize);
    },
  };
}

async function parse(name: string, bytes: Uint8Array, setup: Record<string, unknown> = {}, limits = LIMITS) {
  const warnings: string[] = [];
  const result = await parseTextCode({
    source: source(name, bytes),
    setup: { output_format: "json", ...setup },
    limits,
    progress: () => {},
    warn: (message) => warnings.push(message),
    signal: new AbortController().signal,
  });
  return { result, warnings };
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("parseTextCode", () => {
  for (const lang of ["en", "zh"]) {
    it(`gives RAGFlow's Python chunks for the ${lang} sample, byte for byte`, async () => {
      const golden = JSON.parse(readFileSync(new URL(`python.${lang}.golden.json`, FIXTURES), "utf8"));
      const sample = readFileSync(new URL(`textcode.sample.${lang}.txt`, FIXTURES));
      const { result, warnings } = await parse(`sample.${lang}.txt`, new Uint8Array(sample), {
        chunk_token_num: golden.meta.chunk_token_size,
        delimiter: golden.meta.delimiter,
      });
      expect(warnings).toEqual([]);
      expect(result.output_format).toBe("json");
      expect(JSON.stringify(result.json)).toBe(JSON.stringify(golden.chunks));
    });
  }

  it("keeps each delimiter at the end of its piece and drops empty pieces with their delimiters", () => {
    expect(splitKeepingDelimiters("a!b?\n\nc", "\n!?")).toEqual(["a!", "b?", "c"]);
    expect(splitKeepingDelimiters("x\r\ny\rz", "\n")).toEqual(["x\n", "y\n", "z"]);
    expect(splitKeepingDelimiters("one", "")).toEqual(["one"]);
  });

  it("treats a backtick-wrapped run as one delimiter, tried before its shorter parts", () => {
    expect(splitKeepingDelimiters("a##b#c", "#`##`")).toEqual(["a##", "b#", "c"]);
    expect(splitKeepingDelimiters("a.*b", "`.*`")).toEqual(["a.*", "b"]);
  });

  it("groups over the cap: a group may pass it by one piece, and an oversized piece stands alone", () => {
    const count = (text: string) => text.length;
    expect(groupOverCap(["aaa", "bbb", "cc", "d"], 5, count)).toEqual([["aaa", "bbb"], ["cc", "d"]]);
    expect(groupOverCap(["a", "bbbbbbb", "c"], 5, count)).toEqual([["a"], ["bbbbbbb"], ["c"]]);
  });

  it("outputs text as the groups joined with a newline", async () => {
    const { result } = await parse("notes.txt", utf8("one. two!\nthree"), { output_format: "text" });
    expect(result).toEqual({ output_format: "text", text: "one. two!\nthree" });
  });

  it("splits into several groups by cl100k tokens", async () => {
    const line = "word ".repeat(40).trim() + "\n";
    const { result } = await parse("long.txt", utf8(line.repeat(6)), { chunk_token_num: 100 });
    // 40 tokens a line: a group closes once it holds more than 100 tokens, so 3 lines a group.
    expect(result.json?.map((item) => item.text.split("\n").filter(Boolean).length)).toEqual([3, 3]);
  });

  it("decodes UTF-8 with a byte-order mark, UTF-16 with one, and GBK text", async () => {
    const text = "第一句第二句";
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]);
    expect((await parse("bom.txt", bom)).result.json?.[0].text).toBe(text);
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(new Uint16Array([...text].map((c) => c.charCodeAt(0))).buffer)]);
    expect((await parse("u16.txt", utf16)).result.json?.[0].text).toBe(text);
    // "这是中文文本，用于测试编码检测。" in GBK.
    const gbk = Uint8Array.from(Buffer.from("d5e2cac7d6d0cec4cec4b1bea3acd3c3d3dab2e2cad4b1e0c2ebbcecb2e2a1a3", "hex"));
    const parsedGbk = await parse("gbk.txt", gbk);
    expect(parsedGbk.result.json?.[0].text).toBe("这是中文文本，用于测试编码检测。");
    expect(parsedGbk.warnings.join()).toMatch(/read as gb18030/);
  });

  it("refuses a binary file, naming the document", async () => {
    await expect(parse("blob.txt", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]))).rejects.toMatchObject({
      name: "DocumentParseError",
      document: "blob.txt",
      message: expect.stringMatching(/binary data/),
    });
  });

  it("refuses a document over maxFileBytes before reading it", async () => {
    await expect(parse("big.txt", utf8("x".repeat(100)), {}, { ...LIMITS, maxFileBytes: 50 })).rejects.toMatchObject({
      name: "DocumentParseError",
      message: expect.stringMatching(/maxFileBytes/),
    });
  });

  it("keeps the text under maxTextChars, with a warning", async () => {
    const { result, warnings } = await parse("long.txt", utf8("abc\n".repeat(100)), { output_format: "text" }, { ...LIMITS, maxTextChars: 50 });
    expect(result.text!.length).toBeLessThanOrEqual(50);
    expect(warnings.join()).toMatch(/maxTextChars/);
  });

  it("names a bad param", async () => {
    await expect(parse("a.txt", utf8("a"), { chunk_token_num: -3 })).rejects.toThrow(/chunk_token_num/);
    await expect(parse("a.txt", utf8("a"), { delimiter: 5 })).rejects.toThrow(/delimiter/);
    await expect(parse("a.txt", utf8("a"), { output_format: "markdown" })).rejects.toThrow(/output_format/);
  });
});
