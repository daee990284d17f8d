/**
 * What the components of a RAGFlow ingestion pipeline hand one another (research/ragflow-pipelines.md
 * §3): a document's parsed form (a list of items, or Markdown, text or HTML), then its chunks.
 * Every module of src/pipelines/ speaks these types: the parsers produce a ParsedDocument, the
 * chunkers turn a Payload into Chunks, the Extractor and Tokenizer add fields to chunks.
 *
 * Field names are RAGFlow's (snake_case), since they are what reaches a knowledge base and what a
 * RAGFlow user sees in a run's trace.
 */

/** Which payload a component reads next: set by the Parser from its setup, then `chunks`. */
export type OutputFormat = "json" | "markdown" | "text" | "html" | "chunks";

/** `[page (1-based), left, right, top, bottom]` in PDF points. */
export type PdfPosition = [number, number, number, number, number];

/** One item of a Parser's `json` output (§3.2). Formats add their own fields (an email's `from`, `subject`…). */
export interface ParsedItem {
  text: string;
  doc_type_kwd?: "text" | "table" | "image";
  /** PDF: DeepDOC-style layout type (`text`, `title`, `table`…); `""` outside any region. */
  layout_type?: string;
  layoutno?: string;
  page_number?: number;
  /** PDF: canonical positions (§3.2 `_pdf_positions`). */
  _pdf_positions?: PdfPosition[];
  /** An image this item shows, as a data: URL (RAGFlow stores it and keeps an `img_id`). */
  image?: string;
  img_id?: string;
  [field: string]: unknown;
}

/** One chunk (§3.3). */
export interface Chunk {
  text: string;
  doc_type_kwd?: "text" | "table" | "image";
  img_id?: string;
  /** The parent text a child chunk was split from (children delimiters). */
  mom?: string;
  position_int?: PdfPosition[];
  page_num_int?: number[];
  top_int?: number[];
  /** Positions before `finalize_pdf_chunk` turns them into the three *_int lists. */
  _pdf_positions?: PdfPosition[];
  /** Added by the Extractor (`field_name`) and read by the Tokenizer. */
  summary?: string;
  keywords?: string;
  questions?: string;
  metadata?: unknown;
  [field: string]: unknown;
}

/** A PDF or DOCX outline entry: title, level (0-based), page (1-based; DOCX: 0). */
export type OutlineEntry = [title: string, level: number, page: number];

/**
 * What flows between two pipeline components: the previous component's whole output (§2: each
 * step receives it as its kwargs). `name` is the file's name, with its extension.
 */
export interface Payload {
  name: string;
  output_format?: OutputFormat;
  json?: ParsedItem[];
  markdown?: string;
  text?: string;
  html?: string;
  chunks?: Chunk[];
  /** The File component's description of the document, plus the Parser's `outlines`. */
  file?: Record<string, unknown> & { outlines?: OutlineEntry[] };
}

/** A document given to a pipeline run: its name and a way to read its bytes, whole or streamed. */
export interface DocumentSource {
  /** The file's name with its extension (`report.pdf`): the Parser picks a setup by the extension. */
  readonly name: string;
  /** Size in bytes. */
  readonly size: number;
  /** The whole file. Parsers of formats that must be read whole (PDF, DOCX, XLSX) call this. */
  bytes(): Promise<Uint8Array>;
  /** The file in pieces, for formats read as a stream (CSV, text) so memory stays bounded. */
  stream(): AsyncIterable<Uint8Array>;
}

/** A progress note of a component (§9): `progress` in 0..1, or -1 for an error. */
export interface ProgressNote {
  progress: number;
  message: string;
}

/** Where a component reports progress; the runner turns notes into trace events. */
export type ProgressSink = (note: ProgressNote) => void;

/**
 * Limits every parser honours, so no input can make a run grow without bound. A parser that
 * reaches one stops reading, keeps what it has, and says so with a warning (a bounded result) or
 * fails the document with a message naming the limit and the setting that raises it.
 */
export interface ParseLimits {
  /** Bytes a document may have (checked before reading; default 100 MiB). */
  maxFileBytes: number;
  /** Bytes all entries of a ZIP container (DOCX, XLSX, PPTX, EPUB) may inflate to (default 200 MiB). */
  maxInflatedBytes: number;
  /** Characters of text a parser may produce for one document (default 20 million). */
  maxTextChars: number;
  /** Rows a spreadsheet or CSV may give (default 200 000); the rest are left out, with a warning. */
  maxRows: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxFileBytes: 100 * 1024 * 1024,
  maxInflatedBytes: 200 * 1024 * 1024,
  maxTextChars: 20_000_000,
  maxRows: 200_000,
};

/** The key of a run's parse limits among its services (the config's `pipelines.limits`). */
export const PARSE_LIMITS_SERVICE = "parseLimits";

/** The limits a run's steps honour: the defaults, with what its services set. */
export function parseLimitsOf(services: Readonly<Record<string, unknown>>): ParseLimits {
  const given = services[PARSE_LIMITS_SERVICE];
  return given && typeof given === "object" ? { ...DEFAULT_PARSE_LIMITS, ...(given as Partial<ParseLimits>) } : DEFAULT_PARSE_LIMITS;
}

/** A document the parser cannot read as its format: the message says what is wrong and what to do. */
export class DocumentParseError extends Error {
  constructor(
    /** The document's name. */
    readonly document: string,
    message: string,
  ) {
    super(message);
    this.name = "DocumentParseError";
  }
}
