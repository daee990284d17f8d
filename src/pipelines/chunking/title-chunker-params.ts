/**
 * The TitleChunker's params (legacy name `HierarchicalMerger`; research §4.4) as RAGFlow's
 * `TitleChunkerParam` defaults and checks them, plus what RAGFlow finds out only at run time
 * (a missing or unknown `method`, a `hierarchy` that `int()` cannot read, a level regex that does
 * not compile), so a bad DSL is reported before a document is chunked. Level regexes are
 * translated to JavaScript here, once.
 */
import { pythonStr } from "../../components/python-text.js";
import { ChunkerParamError, checkNotEmpty, checkPositiveInteger, paramsObject } from "./param-checks.js";
import { PythonRegexError, translatePythonRegex, MAX_PATTERN_LENGTH } from "./python-regex.js";
import { pyInt, pyTruthy } from "./python-str.js";

const COMPONENT = "TitleChunker";

export interface TitleChunkerParams {
  method: "hierarchy" | "group";
  /** Families of heading regexes (Python syntax), each ordered level 1..n; the family matching most lines is used. */
  levels: string[][];
  /** The heading depth chunks are cut at (`int()` of what was given; 0: none, and `group` then uses the most common level). */
  hierarchy: number;
  /** hierarchy: a heading with a body is its own chunk (titles above it, no bodies above it). */
  include_heading_content: boolean;
  /** The first chunk's text heads every other chunk, and is dropped. */
  root_chunk_as_heading: boolean;
  /** Tokens a text chunk may hold; longer ones are cut at sentences (0: no cap). */
  chunk_token_cap: number;
}

/** A level regex ready to run: Python's `re.match(pattern, text)` as a JavaScript regex. */
export type LevelRegexes = RegExp[][];

export const TITLE_CHUNKER_DEFAULTS = Object.freeze({
  levels: [] as string[][],
  hierarchy: null,
  include_heading_content: false,
  root_chunk_as_heading: false,
  chunk_token_cap: 512,
});

function levelFamilies(value: unknown): string[][] {
  if (!Array.isArray(value)) throw new ChunkerParamError(COMPONENT, "levels", `levels must be a list of lists of heading regexes, not ${pythonStr(value)}`);
  return value.map((family, i) => {
    if (!Array.isArray(family)) throw new ChunkerParamError(COMPONENT, `levels/${i}`, `levels[${i}] must be a list of heading regexes (one per level), not ${pythonStr(family)}`);
    return family.map((pattern, j) => {
      if (typeof pattern !== "string") throw new ChunkerParamError(COMPONENT, `levels/${i}/${j}`, `levels[${i}][${j}] must be a regex string, not ${pythonStr(pattern)}`);
      return pattern;
    });
  });
}

/** The level regexes translated to JavaScript; an untranslatable or unsafe one fails naming it. */
export function compileLevels(levels: readonly (readonly string[])[]): LevelRegexes {
  return levels.map((family, i) =>
    family.map((pattern, j) => {
      try {
        return translatePythonRegex(pattern);
      } catch (error) {
        if (!(error instanceof PythonRegexError)) throw error;
        throw new ChunkerParamError(COMPONENT, `levels/${i}/${j}`, `levels[${i}][${j}] ${JSON.stringify(pattern)} cannot be used as a heading regex: ${error.message}`);
      }
    }),
  );
}

/**
 * The params of a TitleChunker, defaults applied and checked as RAGFlow's `check()` does, with its
 * messages, and the level regexes compiled. Throws ChunkerParamError.
 */
export function checkTitleChunkerParams(raw: unknown): TitleChunkerParams {
  const given = paramsObject(COMPONENT, raw);
  const value = (key: keyof typeof TITLE_CHUNKER_DEFAULTS | "method"): unknown =>
    given[key] === undefined ? (TITLE_CHUNKER_DEFAULTS as Record<string, unknown>)[key] : given[key];
  const method = value("method");
  if (method === undefined) throw new ChunkerParamError(COMPONENT, "method", `TitleChunker needs a method: "hierarchy" or "group"`);
  if (method !== "hierarchy" && method !== "group") throw new ChunkerParamError(COMPONENT, "method", `Unsupported TitleChunker method: ${pythonStr(method)}`);
  checkNotEmpty(COMPONENT, "levels", !pyTruthy(value("levels")), "Hierarchical setups.");
  const levels = levelFamilies(value("levels"));
  const rawHierarchy = value("hierarchy");
  if (method === "hierarchy") checkNotEmpty(COMPONENT, "hierarchy", !pyTruthy(rawHierarchy), "Hierarchy number.");
  // RAGFlow applies int() when it chunks: None and other falsy values mean no target depth.
  const hierarchy = pyTruthy(rawHierarchy) ? pyInt(rawHierarchy) : 0;
  if (hierarchy === undefined) throw new ChunkerParamError(COMPONENT, "hierarchy", `Hierarchy number. ${pythonStr(rawHierarchy)} not supported, should be an integer`);
  let chunk_token_cap = 0;
  const cap = value("chunk_token_cap");
  if (pyTruthy(cap)) {
    chunk_token_cap = checkPositiveInteger(COMPONENT, "chunk_token_cap", cap, "Chunk token cap.");
    if (chunk_token_cap < 128 || chunk_token_cap > 8000) throw new ChunkerParamError(COMPONENT, "chunk_token_cap", "Chunk token cap must be between 128 and 8000.");
  }
  compileLevels(levels); // fails now, naming the regex, rather than in the middle of a document
  return {
    method,
    levels,
    hierarchy,
    include_heading_content: pyTruthy(value("include_heading_content")),
    root_chunk_as_heading: pyTruthy(value("root_chunk_as_heading")),
    chunk_token_cap,
  };
}

/** The TitleChunker's params as a JSON Schema (types and defaults; checkTitleChunkerParams has the rules a schema cannot say). */
export const titleChunkerParamsSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "TitleChunker params",
  description: "Splits a parsed document at its headings, found by regex families (RAGFlow TitleChunkerParam; legacy name HierarchicalMerger). Outputs: chunks, output_format = \"chunks\".",
  type: "object",
  required: ["method"],
  properties: {
    method: { enum: ["hierarchy", "group"], description: "hierarchy: a chunk per heading at the target depth, with the headings above it; group: consecutive lines of one section grouped up to the token cap." },
    levels: {
      type: "array",
      minItems: 1,
      items: { type: "array", items: { type: "string", maxLength: MAX_PATTERN_LENGTH } },
      default: [],
      description: "Families of Python regexes, each ordered heading level 1..n, matched at the start of each stripped line; the family matching most lines is used.",
    },
    hierarchy: {
      type: ["integer", "string", "null"],
      default: null,
      description: "The heading depth to cut at (required for hierarchy; group: 0 or none uses the most common heading level).",
    },
    include_heading_content: { type: "boolean", default: false, description: "hierarchy: a heading with a body is its own chunk, under the titles above it (without their bodies)." },
    root_chunk_as_heading: { type: "boolean", default: false, description: "The first chunk's text heads every other chunk, and is dropped." },
    chunk_token_cap: {
      anyOf: [{ type: "integer", minimum: 128, maximum: 8000 }, { enum: [0, null, false] }],
      default: 512,
      description: "Tokens a text chunk may hold, 128..8000; longer chunks are cut at sentence ends. 0 or null: no cap.",
    },
  },
} as const;
