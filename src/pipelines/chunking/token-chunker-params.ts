/**
 * The TokenChunker's params (legacy name `Splitter`; research §4.3) as RAGFlow's
 * `TokenChunkerParam` defaults, coerces and checks them.
 */
import { pythonStr } from "../../components/python-text.js";
import { ChunkerParamError, checkDecimalFloat, checkNonnegativeNumber, checkPositiveInteger, checkValidValue, paramsObject } from "./param-checks.js";
import { pyFloat } from "./python-str.js";

const COMPONENT = "TokenChunker";

export interface TokenChunkerParams {
  /** `one`: the whole document is one chunk. (`token_size` is read as `delimiter`.) */
  delimiter_mode: "delimiter" | "one";
  /** Tokens per chunk (a chunk may pass it by one paragraph or item). */
  chunk_token_size: number;
  /** Backtick-wrapped tokens cut the text with no size merging; bare characters cut it before size merging. */
  delimiters: string[];
  /** Overlap as a fraction in [0, 1] (the UI sends percent / 100); see normalizeOverlappedPercent. */
  overlapped_percent: number;
  /** Literal strings that cut each chunk again into children, which keep the whole chunk as `mom`. */
  children_delimiters: string[];
  /** Tokens of surrounding text added to each table chunk (0: none). */
  table_context_size: number;
  /** Tokens of surrounding text added to each image chunk (0: none). */
  image_context_size: number;
}

export const TOKEN_CHUNKER_DEFAULTS: Readonly<TokenChunkerParams> = Object.freeze({
  delimiter_mode: "delimiter",
  chunk_token_size: 512,
  delimiters: ["\n"],
  overlapped_percent: 0,
  children_delimiters: [],
  table_context_size: 0,
  image_context_size: 0,
});

/** A list of delimiter strings as RAGFlow coerces it: null is none, a string is one, non-strings and empty strings are dropped. */
function delimiterList(param: string, value: unknown): string[] {
  if (value === null) return [];
  if (typeof value === "string") return value === "" ? [] : [value];
  if (!Array.isArray(value)) {
    throw new ChunkerParamError(COMPONENT, param, `${param} must be a list of strings, not ${pythonStr(value)}`);
  }
  return value.filter((d): d is string => typeof d === "string" && d !== "");
}

/**
 * The params of a TokenChunker, defaults applied and checked as RAGFlow's `check()` does, in its
 * order, with its messages. Throws ChunkerParamError.
 */
export function checkTokenChunkerParams(raw: unknown): TokenChunkerParams {
  const given = paramsObject(COMPONENT, raw);
  const value = <K extends keyof TokenChunkerParams>(key: K): unknown => (given[key] === undefined ? TOKEN_CHUNKER_DEFAULTS[key] : given[key]);
  // "token_size" was removed but behaves as "delimiter": legacy DSLs keep working.
  const mode = value("delimiter_mode") === "token_size" ? "delimiter" : value("delimiter_mode");
  const delimiter_mode = checkValidValue(COMPONENT, "delimiter_mode", mode, "Delimiter mode abnormal.", ["delimiter", "one"] as const);
  const delimiters = delimiterList("delimiters", value("delimiters"));
  const children_delimiters = delimiterList("children_delimiters", value("children_delimiters"));
  const chunk_token_size = checkPositiveInteger(COMPONENT, "chunk_token_size", value("chunk_token_size"), "Chunk token size.");
  const overlapped_percent = checkDecimalFloat(COMPONENT, "overlapped_percent", value("overlapped_percent"), "Overlapped percentage: [0, 1)");
  const table_context_size = checkNonnegativeNumber(COMPONENT, "table_context_size", value("table_context_size"), "Table context size.");
  const image_context_size = checkNonnegativeNumber(COMPONENT, "image_context_size", value("image_context_size"), "Image context size.");
  return { delimiter_mode, chunk_token_size, delimiters, overlapped_percent, children_delimiters, table_context_size, image_context_size };
}

/**
 * `normalize_overlapped_percent`: a fraction below 1 is read as a share (0.1 is 10 %), anything
 * else as a percent (so 1 is 1 %), cut to a whole number in 0..90.
 */
export function normalizeOverlappedPercent(value: unknown): number {
  let n = pyFloat(value);
  if (n === undefined || Number.isNaN(n)) return 0;
  if (n > 0 && n < 1) n *= 100;
  if (!Number.isFinite(n)) return n > 0 ? 90 : 0;
  return Math.max(0, Math.min(Math.trunc(n), 90));
}

/** The TokenChunker's params as a JSON Schema (types and defaults; checkTokenChunkerParams has the rules a schema cannot say). */
export const tokenChunkerParamsSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "TokenChunker params",
  description: "Splits a parsed document into chunks of about chunk_token_size cl100k tokens (RAGFlow TokenChunkerParam; legacy name Splitter). Outputs: chunks, output_format = \"chunks\".",
  type: "object",
  properties: {
    delimiter_mode: {
      enum: ["delimiter", "one", "token_size"],
      default: "delimiter",
      description: "delimiter: split and merge by size; one: the whole document is one chunk; token_size: legacy, read as delimiter.",
    },
    chunk_token_size: { type: "integer", minimum: 1, default: 512, description: "Tokens per chunk; a chunk may pass it by one paragraph or item." },
    delimiters: {
      anyOf: [{ type: "array", items: { type: "string" } }, { type: "string" }, { type: "null" }],
      default: ["\n"],
      description: "Backtick-wrapped tokens (e.g. \"`##`\") cut the text and each piece is a chunk; bare characters (e.g. \"\\n\") cut it into paragraphs that are merged by size. Non-strings and empty strings are ignored.",
    },
    overlapped_percent: { type: "number", minimum: 0, maximum: 1, default: 0, description: "Share of the previous chunk's tail repeated at the start of the next (0.1 = 10 %, at most 90 %; 1 means 1 %)." },
    children_delimiters: {
      anyOf: [{ type: "array", items: { type: "string" } }, { type: "string" }, { type: "null" }],
      default: [],
      description: "Literal strings that cut each chunk again; the pieces become chunks whose mom is the whole chunk.",
    },
    table_context_size: { type: "number", minimum: 0, default: 0, description: "Tokens of the text around a table added to its chunk (0: none)." },
    image_context_size: { type: "number", minimum: 0, default: 0, description: "Tokens of the text around an image added to its chunk (0: none)." },
  },
} as const;
