/**
 * The Parser's setups (research/ragflow-pipelines.md §1.2, §1.3, §4.2): one per file type, each
 * naming the suffixes it takes, its parse method and its output format. RAGFlow's editor writes
 * them in two dialects, and a stored pipeline may hold either:
 *
 * - Python (`rag/flow`): `params.setups = { pdf: {…}, … }`, which replaces the default table
 *   wholesale, so only the file types listed are accepted.
 * - Go (`internal/ingestion`): file-type keys flat in `params` (`params.pdf`, …), each merged
 *   into that type's default; the Go runtime adds the `json` type.
 *
 * canvasflow reads both. Where RAGFlow's Python check would refuse a pipeline only because of the
 * defaults it filled in (audio and video without a speech or vision model, which three of the
 * four corpus templates hit), the problem is a warning here, and a document of that type fails
 * when it comes.
 */
import type { ParamProblem } from "../../contracts/component.js";
import { isPlainObject } from "../../util/values.js";
import type { ParserSetup } from "./contract.js";

/** The file types of RAGFlow's Parser, and the Go runtime's `json`. */
export type FileType = "pdf" | "spreadsheet" | "doc" | "docx" | "markdown" | "text&code" | "html" | "slides" | "image" | "email" | "audio" | "video" | "epub" | "json";

export type ParserSetups = Record<string, ParserSetup>;

/** Python's default table, in its order (the first setup whose suffixes hold the extension wins). */
const PYTHON_DEFAULTS: ParserSetups = {
  pdf: { parse_method: "deepdoc", lang: "Chinese", flatten_media_to_text: false, remove_toc: false, remove_header_footer: false, suffix: ["pdf"], output_format: "json" },
  spreadsheet: { parse_method: "deepdoc", flatten_media_to_text: false, output_format: "html", suffix: ["xls", "xlsx", "csv"] },
  doc: { remove_toc: false, remove_header_footer: false, suffix: ["doc"], output_format: "json" },
  docx: { flatten_media_to_text: false, remove_toc: false, remove_header_footer: false, suffix: ["docx"], output_format: "json" },
  markdown: { flatten_media_to_text: false, suffix: ["md", "markdown", "mdx"], remove_toc: false, output_format: "json" },
  "text&code": { suffix: ["txt", "py", "js", "java", "c", "cpp", "h", "php", "go", "ts", "sh", "cs", "kt", "sql"], output_format: "json" },
  html: { suffix: ["htm", "html"], remove_toc: false, remove_header_footer: false, output_format: "json" },
  slides: { parse_method: "deepdoc", suffix: ["pptx", "ppt"], output_format: "json" },
  image: { parse_method: "ocr", llm_id: "", lang: "Chinese", system_prompt: "", suffix: ["jpg", "jpeg", "png", "gif"], output_format: "json" },
  email: { suffix: ["eml", "msg"], fields: ["from", "to", "cc", "bcc", "date", "subject", "body", "attachments", "metadata"], output_format: "json" },
  audio: {
    suffix: ["da", "wave", "wav", "mp3", "aac", "flac", "ogg", "aiff", "au", "midi", "wma", "realaudio", "vqf", "oggvorbis", "ape"],
    output_format: "text",
  },
  video: { suffix: ["mp4", "avi", "mkv"], output_format: "text", prompt: "" },
  epub: { suffix: ["epub"], output_format: "json" },
};

/** The Go runtime's extra type (§10): JSON documents and JSON lines. */
const GO_JSON_DEFAULT: ParserSetup = { suffix: ["json", "jsonl", "ldjson"], output_format: "json" };

/** What each type may output, and its name in RAGFlow's messages. */
const OUTPUT_FORMATS: Record<string, { label: string; allowed: readonly string[] | undefined }> = {
  pdf: { label: "PDF", allowed: ["json", "markdown"] },
  spreadsheet: { label: "Spreadsheet", allowed: ["json", "markdown", "html"] },
  doc: { label: "DOC", allowed: ["json", "markdown"] },
  docx: { label: "DOCX", allowed: ["json", "markdown"] },
  slides: { label: "Slides", allowed: ["json"] },
  markdown: { label: "Markdown", allowed: ["text", "json"] },
  "text&code": { label: "Text&Code", allowed: ["text", "json"] },
  html: { label: "HTML", allowed: ["text", "json"] },
  email: { label: "Email", allowed: ["text", "json"] },
  epub: { label: "EPUB", allowed: ["text", "json"] },
  json: { label: "JSON", allowed: ["json", "text"] },
  // RAGFlow does not check these (image is always json; audio and video give text).
  image: { label: "Image", allowed: undefined },
  audio: { label: "Audio", allowed: undefined },
  video: { label: "Video", allowed: undefined },
};

/** The PDF methods RAGFlow names; any other value is a vision model's name (§4.2). */
export const PDF_NAMED_METHODS: readonly string[] = ["deepdoc", "plain_text", "mineru", "docling", "opendataloader", "tcadp parser", "paddleocr", "somark", "mistral ocr"];

/** Python's repr of a list of strings, as RAGFlow's messages print it. */
function pythonList(values: readonly string[]): string {
  return `[${values.map((value) => `'${value}'`).join(", ")}]`;
}

function copySetup(setup: ParserSetup): ParserSetup {
  return structuredClone(setup);
}

/** Which dialect a Parser's params are written in: a `setups` object (Python) or flat file-type keys (Go). */
export function parserDialect(params: Record<string, unknown>): "python" | "go" {
  return isPlainObject(params.setups) ? "python" : "go";
}

export interface ReadSetups {
  readonly setups: ParserSetups;
  readonly dialect: "python" | "go";
  /** Problems with pointers below the Parser's params. */
  readonly problems: ParamProblem[];
}

/**
 * The setups a Parser's params describe, in either dialect, with every problem RAGFlow's check
 * would find (errors), and the ones it would find only in defaults it filled in (warnings).
 */
export function readParserSetups(params: Record<string, unknown>): ReadSetups {
  const problems: ParamProblem[] = [];
  const dialect = parserDialect(params);
  const setups: ParserSetups = {};
  if (dialect === "python") {
    for (const [type, value] of Object.entries(params.setups as Record<string, unknown>)) {
      if (!isPlainObject(value)) {
        problems.push({ pointer: `/setups/${pointerToken(type)}`, message: `the setup of file type "${type}" must be an object, got ${describe(value)}` });
        continue;
      }
      setups[type] = copySetup(value as ParserSetup);
    }
  } else {
    for (const [type, setup] of Object.entries(PYTHON_DEFAULTS)) setups[type] = copySetup(setup);
    setups.json = copySetup(GO_JSON_DEFAULT);
    for (const type of Object.keys(setups)) {
      const value = params[type];
      if (value === undefined) continue;
      if (!isPlainObject(value)) {
        problems.push({ pointer: `/${pointerToken(type)}`, message: `the setup of file type "${type}" must be an object, got ${describe(value)}` });
        continue;
      }
      // The Go runtime merges a flat type's keys into its defaults; `pages` (a PDF page range) is Go's own.
      setups[type] = { ...setups[type], ...(value as ParserSetup) };
    }
  }
  for (const [type, setup] of Object.entries(setups)) problems.push(...checkSetup(type, setup, dialect === "python" ? "/setups" : "", dialect === "python"));
  return { setups, dialect, problems };
}

function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? JSON.stringify(value) : typeof value;
}

/** RAGFlow's `check_empty` message. */
function emptyMessage(label: string): string {
  return `${label} does not support empty value.`;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0);
}

/** One setup's problems, as RAGFlow's `ParserParam.check` words them. */
function checkSetup(type: string, setup: ParserSetup, base: string, modelRequired: boolean): ParamProblem[] {
  const problems: ParamProblem[] = [];
  const at = (key: string) => `${base}/${pointerToken(type)}/${key}`;
  const suffix = setup.suffix;
  if (suffix !== undefined && (!Array.isArray(suffix) || suffix.some((s) => typeof s !== "string"))) {
    problems.push({ pointer: at("suffix"), message: `the suffixes of file type "${type}" must be a list of extensions, got ${describe(suffix)}` });
  }
  const format = setup.output_format;
  const formats = OUTPUT_FORMATS[type];
  if (formats?.allowed && !formats.allowed.includes(String(format))) {
    problems.push({ pointer: at("output_format"), message: `${formats.label} output format abnormal. ${String(format)} is not supported, it should be in ${pythonList(formats.allowed)}` });
  }
  const method = typeof setup.parse_method === "string" ? setup.parse_method : "";
  if (type === "pdf") {
    if (method === "") problems.push({ pointer: at("parse_method"), message: emptyMessage("Parse method abnormal.") });
    else if (!PDF_NAMED_METHODS.includes(normalizeMethod(method)) && isEmpty(setup.lang)) {
      problems.push({ pointer: at("lang"), message: emptyMessage("PDF VLM language") });
    }
  }
  if (type === "image" && method !== "ocr" && isEmpty(setup.lang)) problems.push({ pointer: at("lang"), message: emptyMessage("Image VLM language") });
  if ((type === "audio" || type === "video") && isEmpty(setup.vlm?.llm_id)) {
    // Python refuses the whole pipeline, even for a default setup it filled in (a Go-dialect
    // Parser gets the defaults); the Go runtime falls back to the tenant's default model.
    // canvasflow refuses a Python-dialect setup without a model (the pipeline wrote it out), and
    // otherwise loads the pipeline and fails only documents of the type.
    const label = type === "audio" ? "Audio VLM" : "Video VLM";
    problems.push(
      modelRequired
        ? { pointer: at("vlm/llm_id"), message: emptyMessage(label) }
        : { pointer: at("vlm/llm_id"), message: `${emptyMessage(label)} (a default setup; RAGFlow's Python runtime refuses the pipeline for it, canvasflow fails only ${type} documents)`, severity: "warning" },
    );
  }
  return problems;
}

/**
 * A parse method as RAGFlow compares it: lower-cased. The editor's "Plain Text" lower-cases to
 * "plain text", which Python then takes for a vision model's name; canvasflow reads it as
 * `plain_text` (docs/differences.md).
 */
export function normalizeMethod(method: string): string {
  const lower = method.trim().toLowerCase();
  return lower === "plain text" ? "plain_text" : lower;
}

/** The extension RAGFlow matches: the lower-cased text after the last dot of the name ("" without one). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** The setup of a document: the first, in order, whose suffixes hold its extension. */
export function setupForDocument(setups: ParserSetups, name: string): { type: string; setup: ParserSetup } | { error: string } {
  const extension = extensionOf(name);
  for (const [type, setup] of Object.entries(setups)) {
    if (Array.isArray(setup.suffix) && setup.suffix.some((s) => String(s).toLowerCase() === extension)) return { type, setup };
  }
  return { error: `No suitable for file extension: \`.${extension}\`` };
}
