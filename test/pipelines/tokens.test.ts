/** cl100k_base counts as RAGFlow's num_tokens_from_string and truncate take them. */
import { describe, expect, it } from "vitest";
import { cl100kCounter } from "../../src/pipelines/chunking/tokens.js";

describe("pipeline token counts", () => {
  it("count cl100k_base tokens, 0 for a text holding a special token, and truncate to the first tokens", async () => {
    const tokens = await cl100kCounter();
    expect(tokens.count("hello world")).toBe(2);
    expect(tokens.count("")).toBe(0);
    expect(tokens.count("a <|endoftext|> b")).toBe(0);
    expect(tokens.truncate("hello brave new world", 2)).toBe("hello brave");
    expect(tokens.truncate("hello", 10)).toBe("hello");
  });
});
