/**
 * Long texts are tokenized in slices: BPE is quadratic in one pre-token's length, so a megabyte
 * with no space (base64, a repeated character) would hold a run for minutes (a fuzzed canvas did).
 */
import { describe, expect, it } from "vitest";
import { encodeInSlices, loadTokenizer, MAX_ENCODE_SLICE } from "../../src/llm/tokens.js";

describe("encodeInSlices", () => {
  it("never hands the encoder more than MAX_ENCODE_SLICE characters, and never splits a surrogate pair", () => {
    const text = "a".repeat(3 * MAX_ENCODE_SLICE - 1) + "😀" + "b".repeat(MAX_ENCODE_SLICE) + " tail";
    const slices: string[] = [];
    encodeInSlices(text, (slice) => {
      slices.push(slice);
      return [slice.length];
    });
    expect(slices.join("")).toBe(text);
    expect(Math.max(...slices.map((s) => s.length))).toBeLessThanOrEqual(MAX_ENCODE_SLICE);
    // A lone surrogate at either end of a slice would mean a pair was split.
    for (const slice of slices) expect(slice).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });

  it("cuts at a space when there is one in the slice's second half", () => {
    const word = "x".repeat(MAX_ENCODE_SLICE - 100);
    const text = `${word} ${"y".repeat(MAX_ENCODE_SLICE)}`;
    const slices: string[] = [];
    encodeInSlices(text, (slice) => (slices.push(slice), []));
    expect(slices[0]).toBe(word);
  });

  it("gives tokens that decode to the text, counting close to one-piece encoding", async () => {
    const tokenizer = await loadTokenizer("cl100k_base");
    const text = `${"Lorem ipsum dolor sit amet, ".repeat(600)}${"Zm9vYmFy".repeat(1500)}`;
    const tokens = tokenizer.encode(text);
    expect(tokenizer.decode(tokens)).toBe(text);
    const { encode } = await import("gpt-tokenizer/encoding/cl100k_base");
    const exact = encode(text).length;
    expect(Math.abs(tokens.length - exact)).toBeLessThanOrEqual(2 * Math.ceil(text.length / MAX_ENCODE_SLICE));
  });
});
