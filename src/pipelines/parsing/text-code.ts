/**
 * The `text&code` file type (research/ragflow-pipelines.md §4.2, RAGFlow's TxtParser): the text,
 * decoded as find_codec would, is split after each delimiter (the delimiter stays at the end of
 * its piece), and the pieces are grouped greedily up to `chunk_token_num` cl100k tokens (a group
 * may pass the cap by its last piece; a piece over the cap stands alone) and joined with "\n".
 * So the items are already chunk-sized groups.
 */
import type { ParserSetup, FormatParser } from "./contract.js";
import { cl100kCounter, type TokenCounter } from "../chunking/tokens.js";

/** What sizing sections needs of a token counter (tests give their own). */
type SectionTokens = Pick<TokenCounter, "count" | "truncate">;
import { decodeDocumentText } from "./codec.js";
import { delimiterPattern, normalizeNewlines, parseDelimiterField } from "./delimiters.js";
import { limitTexts, readDocumentBytes } from "./read-document.js";
import { outputFormatOf, positiveIntegerParam, stringParam } from "./setup-params.js";

export const TEXT_CODE_DEFAULT_DELIMITER = "\n!?;。；！？";
export const TEXT_CODE_DEFAULT_CHUNK_TOKENS = 128;

/** The text cut after each delimiter match; empty pieces are dropped. */
export function splitKeepingDelimiters(text: string, delimiterField: string): string[] {
  const pattern = delimiterPattern(parseDelimiterField(delimiterField));
  const normalized = normalizeNewlines(text);
  if (!pattern) return normalized ? [normalized] : [];
  // With a capturing group, split puts each delimiter match at the odd indexes.
  const parts = normalized.split(new RegExp(`(${pattern})`));
  const pieces: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const piece = parts[i] + (parts[i + 1] ?? "");
    if (parts[i]) pieces.push(piece);
  }
  return pieces;
}

/**
 * RAGFlow's OVER_CAP grouping: a piece joins the current group while the group holds at most
 * `cap` tokens, so a group may end one piece over the cap; a piece alone over the cap is its own group.
 */
export function groupOverCap(pieces: readonly string[], cap: number, count: (text: string) => number): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  let currentTokens = 0;
  for (const piece of pieces) {
    const tokens = count(piece);
    if (tokens > cap) {
      if (current.length > 0) groups.push(current);
      groups.push([piece]);
      current = [];
      currentTokens = 0;
    } else if (current.length === 0 || currentTokens > cap) {
      if (current.length > 0) groups.push(current);
      current = [piece];
      currentTokens = tokens;
    } else {
      current.push(piece);
      currentTokens += tokens;
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** RAGFlow's `parser_txt(text, chunk_token_num, delimiter, keep_delimiters=True)`: the texts of the groups. */
export function textCodeSections(text: string, chunkTokenNum: number, delimiterField: string, tokens: SectionTokens): string[] {
  const pieces = splitKeepingDelimiters(text, delimiterField);
  return groupOverCap(pieces, chunkTokenNum, (piece) => tokens.count(piece))
    .map((group) => group.join("\n"))
    .filter((section) => section !== "");
}

export const parseTextCode: FormatParser<ParserSetup> = async ({ source, setup, limits, warn, signal }) => {
  const type = "text&code";
  const outputFormat = outputFormatOf(source.name, type, setup, ["json", "text"] as const);
  const chunkTokenNum = positiveIntegerParam(source.name, type, setup, "chunk_token_num", TEXT_CODE_DEFAULT_CHUNK_TOKENS);
  const delimiter = stringParam(source.name, type, setup, "delimiter", TEXT_CODE_DEFAULT_DELIMITER);

  const bytes = await readDocumentBytes(source, limits, signal);
  const decoded = await decodeDocumentText(source.name, bytes);
  if (decoded.warning) warn(decoded.warning);
  const tokens = await cl100kCounter();
  signal.throwIfAborted();
  // The input is cut first so no time goes to text past the limit; the joins can add a few characters, so the output is held to it too.
  const [text = ""] = limitTexts(source.name, [decoded.text], limits, warn);
  const sections = limitTexts(source.name, textCodeSections(text, chunkTokenNum, delimiter, tokens), limits, warn);

  if (outputFormat === "json") return { output_format: "json", json: sections.map((text) => ({ text, doc_type_kwd: "text" as const })) };
  return { output_format: "text", text: sections.join("\n") };
};
