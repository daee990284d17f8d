/**
 * The `json` file type (`.json`, `.jsonl`, `.ldjson`): RAGFlow's Go Parser has it, its Python
 * Parser does not (research/ragflow-pipelines.md §4.2, §10), so this is an extension. Each
 * element of a top-level array, each line of JSON Lines, or the one value of another document
 * becomes an item: a string as itself, anything else as compact JSON. The document is read as a
 * stream, one record at a time, and must be UTF-8 (or UTF-16 with a byte-order mark).
 */
import type { FormatParser, ParserSetup } from "./contract.js";
import { DocumentParseError, type ParsedItem } from "../payload.js";
import { jsonDocumentRecords, jsonLinesRecords, JsonSyntaxError, type JsonRecord } from "./json-records.js";
import { streamDocumentUtf8 } from "./read-document.js";
import { outputFormatOf } from "./setup-params.js";

const LINE_SUFFIXES = new Set(["jsonl", "ldjson", "ndjson"]);

function recordText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export const parseJson: FormatParser<ParserSetup> = async ({ source, setup, limits, warn, signal }) => {
  const outputFormat = outputFormatOf(source.name, "json", setup, ["json", "text"] as const);
  const suffix = source.name.toLowerCase().split(".").at(-1) ?? "";
  const texts = streamDocumentUtf8(source, limits, signal, "JSON documents must be UTF-8");
  const records: AsyncGenerator<JsonRecord> = LINE_SUFFIXES.has(suffix) ? jsonLinesRecords(texts) : jsonDocumentRecords(texts);

  const items: ParsedItem[] = [];
  let room = limits.maxTextChars;
  try {
    for await (const record of records) {
      const text = recordText(record.value);
      if (text.length > room) {
        warn(`${source.name}: the parsed text reached ${limits.maxTextChars} characters (the config's pipelines.limits.maxTextChars) at the record on line ${record.line}; it and the rest of the document are left out`);
        break;
      }
      room -= text.length;
      items.push({ text, doc_type_kwd: "text" });
    }
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new DocumentParseError(source.name, `${source.name}: ${error.message}`);
    throw error;
  }
  if (items.length === 0) warn(`${source.name} holds no JSON record: the parser produced nothing`);

  if (outputFormat === "json") return { output_format: "json", json: items };
  return { output_format: "text", text: items.map((item) => item.text).join("\n") };
};
