/**
 * What both chunkers need around the algorithm: the items of a JSON payload, progress notes,
 * cancellation, and a bound on the text their chunks may hold.
 */
import { DEFAULT_PARSE_LIMITS, DocumentParseError, type Chunk, type ParseLimits, type ParsedItem, type Payload, type ProgressSink } from "../payload.js";
import { pythonStr } from "../../components/python-text.js";

export interface ChunkOptions {
  /** Stops a long chunking between steps. */
  signal?: AbortSignal;
  /** `maxTextChars` bounds the text all chunks of one document may hold (overlaps and repeated headings included). */
  limits?: Pick<ParseLimits, "maxTextChars">;
}

/** The start note: RAGFlow reports a random 1–5 % before chunking. */
export function startProgress(progress: ProgressSink, message: string): void {
  progress({ progress: (1 + Math.floor(Math.random() * 5)) / 100, message });
}

const OUTPUT_FORMATS = new Set(["json", "markdown", "text", "html", "chunks"]);

/** The payload's format, which RAGFlow's upstream schema restricts to its five values (or none, read as json). */
export function payloadFormat(payload: Payload): Payload["output_format"] {
  const format: unknown = payload.output_format;
  if (format === undefined || format === null) return undefined;
  if (typeof format !== "string" || !OUTPUT_FORMATS.has(format)) {
    throw new DocumentParseError(payload.name, `output_format ${pythonStr(format)} is not one of json, markdown, text, html, chunks`);
  }
  return format as Payload["output_format"];
}

export function checkAborted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted();
}

/**
 * The items a JSON payload holds: `chunks` after a chunker (output_format "chunks"), `json`
 * otherwise (RAGFlow reads `json` for any other or missing format). Each must be an object.
 */
export function payloadItems(payload: Payload): Array<ParsedItem | Chunk> {
  const key = payload.output_format === "chunks" ? "chunks" : "json";
  const items: unknown = payload[key] ?? [];
  if (!Array.isArray(items)) throw new DocumentParseError(payload.name, `the ${key} payload is not a list of items`);
  items.forEach((item, i) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) throw new DocumentParseError(payload.name, `${key} item ${i} is not an object: ${pythonStr(item)}`);
  });
  return items as Array<ParsedItem | Chunk>;
}

/**
 * Characters of chunk text one document may produce. Overlap repeats up to 90 % of each chunk, and
 * the hierarchy method repeats a heading's body in every chunk below it, so chunks can hold far
 * more text than the document: past the limit the document fails, naming it.
 */
export class OutputBudget {
  private spent = 0;
  private readonly max: number;

  constructor(
    private readonly document: string,
    limits: Pick<ParseLimits, "maxTextChars"> | undefined,
  ) {
    this.max = limits?.maxTextChars ?? DEFAULT_PARSE_LIMITS.maxTextChars;
  }

  spend(chars: number): void {
    this.spent += chars;
    if (this.spent > this.max) {
      throw new DocumentParseError(this.document, `its chunks would hold more than ${this.max} characters of text (the config's pipelines.limits.maxTextChars); raise the limit or chunk with less overlap or fewer repeated headings`);
    }
  }
}
