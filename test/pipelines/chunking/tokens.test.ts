/**
 * cl100k_base counts and truncation as tiktoken 0.12 gives them to RAGFlow's Python. The expected
 * token ids were taken from tiktoken (its WASM build, with 0.12's pattern).
 */
import { describe, expect, it } from "vitest";
import { cl100kCounter } from "../../../src/pipelines/chunking/tokens.js";

describe("cl100k counter", async () => {
  const tokens = await cl100kCounter();

  it.each([
    ["hello world", 2],
    ["RAGFlow chunker parity tokenizer liveness probe.", 11],
    ["中文混合English文本再混入一些标点符号，", 19],
    // Not special tokens in tiktoken's cl100k_base (gpt-tokenizer refuses them).
    ["<|im_start|>user", 7],
    // U+FEFF is not whitespace to tiktoken, U+0085 is.
    ["a\ufeff\u0085 b", 5],
    ["\u0085\u0085x", 5],
    // Trailing whitespace is one pre-token (\s++$).
    ["x   \n  ", 3],
    // U+017F does not fold into the 's contraction.
    ["\u017fs I'\u017f ok", 8],
    ["", 0],
  ])("counts %j as %i tokens", (text, n) => {
    expect(tokens.count(text)).toBe(n);
  });

  it("counts 0 for a text holding a special token, as RAGFlow's num_tokens_from_string does", () => {
    expect(tokens.count("before <|endoftext|> after")).toBe(0);
    expect(tokens.count("<|fim_middle|>")).toBe(0);
    expect(tokens.tryTruncate("x <|endofprompt|>", 1)).toBeUndefined();
    expect(tokens.truncate("x <|endofprompt|>", 1)).toBe("x <|endofprompt|>");
  });

  it("counts a long run of one character exactly and fast (one 200 000-byte pre-token)", () => {
    const started = performance.now();
    expect(tokens.count("a".repeat(200_000))).toBe(25_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("merges long pre-tokens (by heap) as tiktoken does (by scan), ties going leftmost", () => {
    // A pseudo-random run of a, b and n: one pre-token, merged with many equal-rank pairs.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let run = "";
    for (let i = 0; i < 600; i++) run += "abn"[Math.floor(next() * 3)];
    expect(run.slice(0, 40)).toBe("babnnbnnanaanabaannnnabbananaannnnnnabab");
    expect([tokens.count(run), tokens.count(run.slice(0, 127)), tokens.count(run.slice(0, 129))]).toEqual([270, 56, 57]);
    expect([127, 128, 129, 300].map((n) => tokens.count("a".repeat(n)))).toEqual([17, 16, 17, 38]);
    expect(tokens.count("中文字".repeat(60_000))).toBe(120_000);
    expect(tokens.count("=-".repeat(50_000))).toBe(6_250);
  });

  it("truncates to the first tokens, an unfinished character reading as U+FFFD", () => {
    expect(tokens.truncate("hello world again", 2)).toBe("hello world");
    expect(tokens.truncate("hello", 0)).toBe("");
    // The third token is the first bytes of 混.
    const text = "中文混合English文本再混入一些标点符号，".repeat(3);
    const head = tokens.tryTruncate(text, 3)!;
    expect(head.endsWith("\uFFFD")).toBe(true);
    expect(text.startsWith(head.slice(0, -1))).toBe(true);
    // Nothing of the cut character is carried into the next call.
    expect(tokens.truncate("hello", 5)).toBe("hello");
  });

  it("reads a lone surrogate as U+FFFD, as tiktoken's fallback does", () => {
    expect(tokens.count("a\uD800b")).toBe(tokens.count("a\uFFFDb"));
  });

  it("counts a text built by appending as it counts the whole text, whatever the seams cut", () => {
    // Seams inside contractions ("'l"+"l"), numbers, whitespace runs, special tokens and letter runs.
    const bits = ["'", "l", "ll", "s", "re", "1", "23", "4567", " ", "  ", "\n", "\r\n", "\t", "x", "word", "<|endof", "text|>", "<|", "endofprompt|>", "中", "😀", "\uD83D", "\uDE00", "。", ". ", "!", "\u00a0", "\u0085"];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 400; round++) {
      let text = "";
      let state = tokens.startCount("");
      for (let step = 0; step < 12; step++) {
        let more = "";
        const n = Math.floor(next() * 4);
        for (let i = 0; i < n; i++) more += bits[Math.floor(next() * bits.length)];
        text += more;
        state = tokens.extendCount(state, more);
        expect(state.count, JSON.stringify(text)).toBe(tokens.count(text));
      }
    }
    expect(tokens.startCount("hello world").count).toBe(2);
  });
});

