/**
 * The contract of one file type's parser (research/ragflow-pipelines.md §4.2). The Parser
 * component picks the setup whose `suffix` list holds the document's extension, checks its
 * `parse_method`, and hands the document to that type's parser with the setup as stored (Python
 * dialect: the Go dialect's flat keys are turned into setups before this point).
 */
import type { DocumentSource, OutlineEntry, OutputFormat, ParsedItem, ParseLimits, ProgressSink } from "../payload.js";

/** A file type's setup: RAGFlow's keys, plus whatever that type reads. */
export interface ParserSetup {
  output_format: string;
  suffix?: string[];
  parse_method?: string;
  lang?: string;
  flatten_media_to_text?: boolean;
  remove_toc?: boolean;
  remove_header_footer?: boolean;
  /** Vision model for VLM methods and media enhancement: `{ llm_id }`. */
  vlm?: { llm_id?: string };
  [key: string]: unknown;
}

/** A vision-capable chat model, for methods that describe pages or images (the configured model, or the mock). */
export interface VisionModel {
  /** A description of the image (`mime` such as image/png), with RAGFlow's prompt or the setup's. */
  describe(image: Uint8Array, mime: string, prompt: string, signal: AbortSignal): Promise<string>;
}

/** A speech-to-text model, for the audio setup (the configured model, or the mock). */
export interface SpeechModel {
  /** The recording's text. */
  transcribe(audio: Uint8Array, fileName: string, signal: AbortSignal): Promise<string>;
}

export interface FormatParseRequest<S extends ParserSetup = ParserSetup> {
  source: DocumentSource;
  setup: S;
  limits: ParseLimits;
  /** Progress notes for the run's trace ("Start to work on a PDF.", page counts…). */
  progress: ProgressSink;
  /** Something the user should know that does not fail the document (a limit reached, a part skipped). */
  warn(message: string): void;
  signal: AbortSignal;
  /** Present when the canvas has a model for vision; a method that needs one and finds none fails with a clear error. */
  vision?: VisionModel;
  /** Present when the setup names a speech model. */
  speech?: SpeechModel;
}

/** A parsed document: the payload named by `output_format`, and for PDF and DOCX the outline. */
export interface FormatParseResult {
  output_format: OutputFormat;
  json?: ParsedItem[];
  markdown?: string;
  text?: string;
  html?: string;
  outlines?: OutlineEntry[];
}

export type FormatParser<S extends ParserSetup = ParserSetup> = (request: FormatParseRequest<S>) => Promise<FormatParseResult>;
