/**
 * How a local knowledge base turns its folder's files into chunks. The default chunker reads the
 * formats documents.ts knows (Markdown by headings, text by paragraphs…); an ingestion pipeline
 * (`canvasflow kb index DIR --pipeline FILE`, or `pipeline` in the knowledge base's config) is
 * another: its Parser decides which files it reads, and its chunks arrive with their terms and
 * the text to embed already made by its Tokenizer.
 *
 * A chunker's `key` names what it makes: the index caches each file's chunks under it, so a file
 * is chunked again when the chunker changes (another pipeline, or the same one edited), and never
 * when it does not.
 */
import { chunkDocument, formatOf } from "./documents.js";
import { termsOf } from "./tokenize.js";

/** One chunk as a chunker gives it to the index. */
export interface ChunkDraft {
  /** Where in the document it is (a heading path, a record's name); "" for none. */
  section: string;
  /** The text a model reads (RAGFlow's content_with_weight). */
  content: string;
  /** The content's search terms; made from `content` when absent. */
  terms?: string[];
  /** The section's search terms (searched with the file name, as RAGFlow's title field); made from `section` when absent. */
  sectionTerms?: string[];
  /** The text its vector is made of; default the content with table tags stripped. */
  embeddingText?: string;
  /** RAGFlow's other fields (important_kwd, question_kwd, positions, page numbers…), kept with the chunk. */
  fields?: Record<string, unknown>;
}

/** A file of the knowledge base's folder, as a chunker reads it. */
export interface SourceDocument {
  /** Below the folder, "/"-separated. */
  relative: string;
  absolute: string;
  bytes: Uint8Array;
}

export interface DocumentChunker {
  /** Names what it makes: "default", or "pipeline:<sha-256 of the pipeline's DSL>". */
  readonly key: string;
  /** Said in notes and in the manifest: "the default chunker", "the pipeline ./ingest.json". */
  readonly label: string;
  /** The pipeline file it runs (absolute), recorded in the manifest so searches use it too. */
  readonly pipeline?: string;
  /** Files chunked at once (default 8, for reading files; a pipeline's runs are heavier). */
  readonly concurrency?: number;
  /** Whether it reads a file of this name; the others are left out of the index. */
  accepts(fileName: string): boolean;
  /** The file's chunks; throws saying why the file cannot be read (the file is then skipped). */
  chunk(document: SourceDocument, signal?: AbortSignal): Promise<ChunkDraft[]>;
}

/** The chunker a knowledge base uses when it names no pipeline. */
export const DEFAULT_CHUNKER: DocumentChunker = {
  key: "default",
  label: "the default chunker",
  accepts: (fileName) => formatOf(fileName) !== undefined,
  async chunk(document) {
    return chunkDocument(formatOf(document.relative)!, document.bytes);
  },
};

/** Opens the pipeline a knowledge base is chunked with (the services know the registry and the models it runs with). */
export type PipelineChunkerOpener = (pipelineFile: string) => Promise<DocumentChunker>;

/** A draft's terms, made where the chunker left them out. */
export function draftTerms(draft: ChunkDraft): { terms: string[]; sectionTerms: string[] } {
  return { terms: draft.terms ?? termsOf(draft.content), sectionTerms: draft.sectionTerms ?? termsOf(draft.section) };
}
