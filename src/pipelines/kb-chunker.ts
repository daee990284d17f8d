/**
 * An ingestion pipeline as a local knowledge base's chunker (`canvasflow kb index DIR --pipeline
 * FILE`, `run PIPELINE --file DOC --kb ID=DIR`, a knowledge base's `pipeline` in the config): each
 * file of the folder is one run of the pipeline, and its result becomes the file's chunks as
 * RAGFlow's executor turns a pipeline's output into what reaches its document store
 * (research/ragflow-pipelines.md §6.3, §7):
 * - the payload is the first of `chunks`, `json`, `markdown`, `text`, `html` that is present; a
 *   text payload is one chunk;
 * - a chunk's `text` is its content (content_with_weight);
 * - its search terms are the Tokenizer's `content_ltks`, `important_tks` and `question_tks`, or,
 *   without a Tokenizer, the summary's terms when the Extractor wrote one; a chunk with neither is
 *   found by its vector only, as in RAGFlow;
 * - it is embedded from the Tokenizer's `fields`, or, without a Tokenizer, from its questions,
 *   summary or text (the executor's fallback);
 * - `keywords` become `important_kwd` and `questions` `question_kwd`; the other RAGFlow fields
 *   (positions, page numbers, doc_type_kwd, mom…) are kept with the chunk.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { CanvasValidationError, compileCanvas, defaultRegistry, readSource } from "../api.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { RuntimeServices } from "../contracts/values.js";
import { validateSource } from "../dsl/validate.js";
import { Canvas } from "../engine/canvas.js";
import type { CanvasEvent } from "../engine/events.js";
import { RunResult } from "../engine/run-result.js";
import type { ChunkDraft, DocumentChunker, SourceDocument } from "../knowledge/chunkers.js";
import { termsOf } from "../knowledge/tokenize.js";
import { isPlainObject } from "../util/values.js";
import { DOCUMENTS_SERVICE, type DocumentOpener } from "./documents.js";
import { readParserSetups, setupForDocument, type ParserSetups } from "./parsing/setups.js";
import type { DocumentSource } from "./payload.js";

export interface PipelineChunkerOptions {
  registry?: ComponentRegistry;
  /** Every event of every document's run, with the document's path below the folder (the CLI's progress). */
  onEvent?: (document: string, event: CanvasEvent) => void;
}

/** A pipeline file that cannot chunk a knowledge base: not found, not valid, not a pipeline, no Parser. */
export class PipelineChunkerError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = "PipelineChunkerError";
  }
}

/** RAGFlow's keyword separators (rag/svr/task_executor.py). */
const KEYWORD_SEPARATORS = /[,，;；、\r\n]+/;
/** Fields that are the chunk's own text or terms, not kept among its other fields. */
const DERIVED = /(_ltks|_tks)$/;

function terms(value: unknown): string[] {
  return typeof value === "string" && value.trim() !== "" ? value.trim().split(/\s+/) : [];
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  // RAGFlow's quirk: a text payload arrives as a list.
  if (Array.isArray(value)) return value.filter((item) => typeof item === "string").join("\n");
  return value === undefined || value === null ? "" : JSON.stringify(value);
}

/** The pipeline's result as the chunks RAGFlow's executor would index (§6.3 step 5). */
export function payloadChunks(outputs: Readonly<Record<string, unknown>>): Array<Record<string, unknown>> {
  for (const key of ["chunks", "json"]) {
    if (key in outputs && Array.isArray(outputs[key])) return (outputs[key] as unknown[]).filter(isPlainObject);
  }
  for (const key of ["markdown", "text", "html"]) {
    if (key in outputs) {
      const text = textOf(outputs[key]);
      return text.trim() === "" ? [] : [{ text }];
    }
  }
  return [];
}

/** One pipeline chunk as the knowledge base keeps it. */
export function draftOf(chunk: Readonly<Record<string, unknown>>, documentName: string): ChunkDraft {
  const content = textOf(chunk.text);
  const summary = typeof chunk.summary === "string" ? chunk.summary : "";
  // The Tokenizer's terms; without it RAGFlow's executor tokenizes only a summary.
  const searchTerms =
    typeof chunk.content_ltks === "string" ? [...terms(chunk.content_ltks), ...terms(chunk.important_tks), ...terms(chunk.question_tks)] : summary !== "" ? termsOf(summary) : [];
  const fields: Record<string, unknown> = { docnm_kwd: documentName };
  for (const [key, value] of Object.entries(chunk)) {
    if (key === "text" || key === "keywords" || key === "questions" || key.startsWith("_") || DERIVED.test(key) || value === undefined) continue;
    fields[key] = value;
  }
  if (fields.important_kwd === undefined && typeof chunk.keywords === "string") fields.important_kwd = chunk.keywords.split(KEYWORD_SEPARATORS).filter((k) => k.trim() !== "");
  if (fields.question_kwd === undefined && typeof chunk.questions === "string") fields.question_kwd = chunk.questions.split("\n").filter((q) => q.trim() !== "");
  const fallback = [chunk.questions, chunk.summary].find((value): value is string => typeof value === "string" && value !== "") ?? content;
  return {
    section: "",
    content,
    terms: searchTerms,
    sectionTerms: [],
    embeddingText: typeof chunk._embedding_text === "string" ? chunk._embedding_text : fallback,
    fields,
  };
}

/** The Parser setups of a pipeline's DSL: which files it reads. */
function parserSetups(dsl: Record<string, unknown>): ParserSetups[] {
  const components = isPlainObject(dsl.components) ? Object.values(dsl.components) : [];
  return components
    .filter(isPlainObject)
    .map((component) => component.obj)
    .filter((obj): obj is Record<string, unknown> => isPlainObject(obj) && obj.component_name === "Parser")
    .map((obj) => readParserSetups(isPlainObject(obj.params) ? obj.params : {}).setups);
}

/** The document a run reads: the bytes the index hashed, so what is parsed is what is recorded. */
function documentsOf(document: SourceDocument): DocumentOpener {
  const source: DocumentSource = {
    name: path.posix.basename(document.relative),
    size: document.bytes.byteLength,
    bytes: async () => document.bytes,
    async *stream() {
      yield document.bytes;
    },
  };
  return { open: async () => source };
}

/**
 * Opens a pipeline file as a knowledge base's chunker; `services` are the runs' (its Extractor's
 * models). Throws PipelineChunkerError when the file cannot be one.
 */
export async function openPipelineChunker(file: string, services: RuntimeServices, options: PipelineChunkerOptions = {}): Promise<DocumentChunker> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch (error) {
    throw new PipelineChunkerError(absolute, `cannot read the pipeline ${absolute}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  const source = await readSource(absolute).catch((error: Error) => {
    throw new PipelineChunkerError(absolute, `${absolute}: ${error.message}`);
  });
  const registry = options.registry ?? defaultRegistry;
  const report = validateSource(source, { registry });
  if (report.kind !== "pipeline") {
    throw new PipelineChunkerError(absolute, `${absolute} is ${report.kind === "agent" ? "an agent canvas" : `not a canvas that runs (${report.kind})`}, not an ingestion pipeline: a knowledge base is chunked by a dataflow canvas (File → Parser → chunker → Tokenizer)`);
  }
  if (!report.valid) throw new PipelineChunkerError(absolute, new CanvasValidationError({ ...report, file: absolute }).message);
  const compiled = compileCanvas(source, registry);
  const setups = parserSetups(compiled.dsl as unknown as Record<string, unknown>);
  if (setups.length === 0) throw new PipelineChunkerError(absolute, `${absolute} has no Parser: a knowledge base's pipeline must parse its files`);
  const key = `pipeline:${createHash("sha256").update(text).digest("hex")}`;
  return {
    key,
    label: `the pipeline ${absolute}`,
    pipeline: absolute,
    // Each file is a whole run, its Extractor's chats included: two at once, not eight.
    concurrency: 2,
    accepts: (fileName) => setups.some((setup) => !("error" in setupForDocument(setup, fileName))),
    async chunk(document, signal) {
      const canvas = Canvas.fromCompiled(compiled, { services: { ...services, [DOCUMENTS_SERVICE]: documentsOf(document) } });
      const run = canvas.run({ files: [{ name: path.posix.basename(document.relative), path: document.absolute }], ...(signal ? { signal } : {}) });
      const result = new RunResult();
      for await (const event of run) {
        options.onEvent?.(document.relative, event);
        result.see(event);
      }
      const finished = result.finished;
      if (!finished) throw new Error("the pipeline ended without finishing its run");
      if (typeof finished.data.error === "string" && finished.data.error !== "") throw new Error(finished.data.error);
      return payloadChunks(result.outputs(canvas)).map((chunk) => draftOf(chunk, document.relative));
    },
  };
}
