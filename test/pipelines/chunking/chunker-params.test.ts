/**
 * The chunkers' params: RAGFlow's defaults, legacy coercions and messages (TokenChunkerParam and
 * TitleChunkerParam `check()`), the checks RAGFlow only meets at run time, and the JSON Schemas.
 */
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  ChunkerParamError,
  checkTitleChunkerParams,
  checkTokenChunkerParams,
  titleChunkerParamsSchema,
  TOKEN_CHUNKER_DEFAULTS,
  tokenChunkerParamsSchema,
} from "../../../src/pipelines/chunking/chunkers.js";

function failure(check: () => unknown): ChunkerParamError {
  try {
    check();
  } catch (error) {
    if (error instanceof ChunkerParamError) return error;
    throw error;
  }
  throw new Error("expected the params to be rejected");
}

describe("TokenChunker params", () => {
  it("applies RAGFlow's defaults and keeps keys it does not know (outputs…) out", () => {
    expect(checkTokenChunkerParams({ outputs: { chunks: { type: "Array<Object>", value: [] } } })).toEqual(TOKEN_CHUNKER_DEFAULTS);
    expect(checkTokenChunkerParams(undefined)).toEqual(TOKEN_CHUNKER_DEFAULTS);
  });

  it("reads the legacy token_size mode as delimiter, and coerces delimiters as RAGFlow does", () => {
    const p = checkTokenChunkerParams({ delimiter_mode: "token_size", delimiters: "`##`", children_delimiters: ["。", 3, "", null] });
    expect(p.delimiter_mode).toBe("delimiter");
    expect(p.delimiters).toEqual(["`##`"]);
    expect(p.children_delimiters).toEqual(["。"]);
    expect(checkTokenChunkerParams({ delimiters: null, children_delimiters: null })).toMatchObject({ delimiters: [], children_delimiters: [] });
  });

  it.each([
    [{ delimiter_mode: "nope" }, "delimiter_mode", "Delimiter mode abnormal. nope is not supported, it should be in ['delimiter', 'one']"],
    [{ chunk_token_size: 0 }, "chunk_token_size", "Chunk token size. 0 not supported, should be positive integer"],
    [{ chunk_token_size: 12.5 }, "chunk_token_size", "Chunk token size. 12.5 not supported, should be positive integer"],
    [{ chunk_token_size: "512" }, "chunk_token_size", "Chunk token size. 512 not supported, should be positive integer"],
    [{ chunk_token_size: true }, "chunk_token_size", "Chunk token size. True not supported, should be positive integer"],
    [{ overlapped_percent: 15 }, "overlapped_percent", "Overlapped percentage: [0, 1) 15 not supported, should be a float number in range [0, 1]"],
    [{ overlapped_percent: null }, "overlapped_percent", "Overlapped percentage: [0, 1) None not supported, should be a float number in range [0, 1]"],
    [{ table_context_size: -1 }, "table_context_size", "Table context size. -1 not supported, should be non-negative numeric"],
    [{ image_context_size: "2" }, "image_context_size", "Image context size. 2 not supported, should be non-negative numeric"],
    [{ delimiters: 5 }, "delimiters", "delimiters must be a list of strings, not 5"],
  ])("rejects %j with RAGFlow's message, naming the param", (raw, param, message) => {
    const error = failure(() => checkTokenChunkerParams(raw));
    expect(error.param).toBe(param);
    expect(error.message).toBe(message);
    expect(error.component).toBe("TokenChunker");
  });

  it("checks in RAGFlow's order: the mode before the size", () => {
    expect(failure(() => checkTokenChunkerParams({ delimiter_mode: 1, chunk_token_size: 0 })).param).toBe("delimiter_mode");
  });
});

describe("TitleChunker params", () => {
  const levels = [["^#[^#]", "^##[^#]"]];

  it("applies RAGFlow's defaults", () => {
    expect(checkTitleChunkerParams({ method: "group", levels })).toEqual({
      method: "group",
      levels,
      hierarchy: 0,
      include_heading_content: false,
      root_chunk_as_heading: false,
      chunk_token_cap: 512,
    });
  });

  it("reads hierarchy with int() and the flags and a falsy cap as Python does", () => {
    const p = checkTitleChunkerParams({ method: "hierarchy", levels, hierarchy: "3", include_heading_content: 1, root_chunk_as_heading: "", chunk_token_cap: null });
    expect(p).toMatchObject({ hierarchy: 3, include_heading_content: true, root_chunk_as_heading: false, chunk_token_cap: 0 });
    expect(checkTitleChunkerParams({ method: "hierarchy", levels, hierarchy: 2.7 }).hierarchy).toBe(2);
  });

  it.each([
    [{ levels }, "method", 'TitleChunker needs a method: "hierarchy" or "group"'],
    [{ method: "flat", levels }, "method", "Unsupported TitleChunker method: flat"],
    [{ method: "group", levels: [] }, "levels", "Hierarchical setups. does not support empty value."],
    [{ method: "hierarchy", levels }, "hierarchy", "Hierarchy number. does not support empty value."],
    [{ method: "hierarchy", levels, hierarchy: 0 }, "hierarchy", "Hierarchy number. does not support empty value."],
    [{ method: "hierarchy", levels, hierarchy: "two" }, "hierarchy", "Hierarchy number. two not supported, should be an integer"],
    [{ method: "group", levels, chunk_token_cap: 50 }, "chunk_token_cap", "Chunk token cap must be between 128 and 8000."],
    [{ method: "group", levels, chunk_token_cap: 9000 }, "chunk_token_cap", "Chunk token cap must be between 128 and 8000."],
    [{ method: "group", levels, chunk_token_cap: 300.5 }, "chunk_token_cap", "Chunk token cap. 300.5 not supported, should be positive integer"],
    [{ method: "group", levels: ["^#"] }, "levels/0", "levels[0] must be a list of heading regexes (one per level), not ^#"],
    [{ method: "group", levels: [["^#", 7]] }, "levels/0/1", "levels[0][1] must be a regex string, not 7"],
  ])("rejects %j, naming the param", (raw, param, message) => {
    const error = failure(() => checkTitleChunkerParams(raw));
    expect(error.param).toBe(param);
    expect(error.message).toBe(message);
  });

  it("accepts caps at the ends of RAGFlow's range", () => {
    for (const cap of [128, 512, 8000]) expect(checkTitleChunkerParams({ method: "group", levels, chunk_token_cap: cap }).chunk_token_cap).toBe(cap);
  });

  it("rejects a level regex that does not translate or could backtrack catastrophically, naming it and the pattern", () => {
    const bad = failure(() => checkTitleChunkerParams({ method: "group", levels: [["^#", "(a+)+$"]] }));
    expect(bad.param).toBe("levels/0/1");
    expect(bad.message).toMatch(/^levels\[0\]\[1\] "\(a\+\)\+\$" cannot be used as a heading regex: it repeats a group that itself repeats/);
    const long = failure(() => checkTitleChunkerParams({ method: "group", levels: [["x".repeat(257)]] }));
    expect(long.message).toMatch(/257 characters long \(at most 256\)/);
    const invalid = failure(() => checkTitleChunkerParams({ method: "group", levels: [["[unclosed"]] }));
    expect(invalid.message).toMatch(/unterminated character set/);
  });

  it("accepts RAGFlow's five default level families", () => {
    const defaults = [
      ["^#[^#]", "^##[^#]", "^###[^#]", "^####[^#]"],
      ["第[零一二三四五六七八九十百0-9]+(分?编|部分)", "第[零一二三四五六七八九十百0-9]+章", "第[零一二三四五六七八九十百0-9]+节", "第[零一二三四五六七八九十百0-9]+条", "[\\(（][零一二三四五六七八九十百]+[\\)）]"],
      ["第[0-9]+章", "第[0-9]+节", "[0-9]{1,2}[\\. 、]", "[0-9]{1,2}\\.[0-9]{1,2}($|[^a-zA-Z/%~.-])", "[0-9]{1,2}\\.[0-9]{1,2}\\.[0-9]{1,2}"],
      ["第[零一二三四五六七八九十百0-9]+章", "第[零一二三四五六七八九十百0-9]+节", "[零一二三四五六七八九十百]+[ 、]", "[\\(（][零一二三四五六七八九十百]+[\\)）]", "[\\(（][0-9]{,2}[\\)）]"],
      ["PART (ONE|TWO|THREE|FOUR|FIVE|SIX|SEVEN|EIGHT|NINE|TEN)", "Chapter (I+V?|VI*|XI|IX|X)", "Section [0-9]+", "Article [0-9]+"],
    ];
    expect(checkTitleChunkerParams({ method: "hierarchy", hierarchy: 3, levels: defaults }).levels).toEqual(defaults);
  });
});

describe("param JSON Schemas", () => {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
  const token = ajv.compile(tokenChunkerParamsSchema);
  const title = ajv.compile(titleChunkerParamsSchema);

  it("accept the corpus templates' params and reject wrong types", () => {
    expect(token({ children_delimiters: [], chunk_token_size: 512, delimiter_mode: "delimiter", delimiters: [], image_context_size: 0, overlapped_percent: 0, table_context_size: 0 })).toBe(true);
    expect(token({ chunk_token_size: "big" })).toBe(false);
    expect(token({ delimiter_mode: "page" })).toBe(false);
    expect(title({ method: "hierarchy", hierarchy: 3, include_heading_content: false, levels: [["^#[^#]"]] })).toBe(true);
    expect(title({ levels: [["^#"]] })).toBe(false);
    expect(title({ method: "group", levels: [["^#"]], chunk_token_cap: 50 })).toBe(false);
  });
});
