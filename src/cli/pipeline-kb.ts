/**
 * `canvasflow run PIPELINE --file DOC… --kb ID=DIR`: the documents a pipeline parsed go into a
 * local knowledge base, as a RAGFlow dataset holds the documents its pipeline parsed. Each
 * document whose run finished is copied into DIR (unless it is there already), and its chunks, as
 * the run made them, become its part of the index; nothing is parsed twice. The index is then
 * brought up to date with the pipeline as the folder's chunker (recorded in its manifest, so that
 * searches and `kb index` chunk changed files with it too).
 *
 * A document whose run failed is not copied; one whose name is taken in DIR by another file is
 * refused, naming both. The index is written entry by entry and its manifest last, so a search
 * sees each document's chunks whole or not at all.
 */
import { mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { ChunkDraft, DocumentChunker, PipelineChunkerOpener } from "../knowledge/chunkers.js";
import { contentHash, writeAtomically } from "../knowledge/index-cache.js";
import { DEFAULT_INDEX_FOLDER, updateIndex, type IndexReport } from "../knowledge/indexer.js";
import type { EmbeddingModel } from "../knowledge/model-types.js";

export interface IngestTarget {
  id: string;
  dir: string;
  indexDir?: string;
  embedding?: EmbeddingModel;
}

/** Where a document goes in the knowledge base's folder ("/"-separated below it), or why it cannot. */
export async function placeDocument(dir: string, document: string): Promise<{ relative: string; bytes: Buffer } | { error: string }> {
  const absolute = path.resolve(document);
  const bytes = await readFile(absolute);
  const inside = path.relative(dir, absolute);
  const hidden = (segments: string[]) => segments.some((segment) => segment.startsWith("."));
  if (inside !== "" && !inside.startsWith("..") && !path.isAbsolute(inside)) {
    const segments = inside.split(path.sep);
    // A knowledge base leaves hidden files and folders (its index among them) out.
    if (hidden(segments)) return { error: `${absolute} is hidden inside the knowledge base's folder (a name starting with "."), which the knowledge base leaves out: move or rename it` };
    return { relative: segments.join("/"), bytes };
  }
  const name = path.basename(absolute);
  if (hidden([name])) return { error: `${absolute}: a name starting with "." would be hidden in the knowledge base's folder, which the knowledge base leaves out: rename it` };
  const destination = path.join(dir, name);
  const existing = await stat(destination).catch(() => undefined);
  if (existing) {
    const same = existing.isFile() && existing.size === bytes.length && contentHash(await readFile(destination)) === contentHash(bytes);
    if (same) return { relative: name, bytes };
    return { error: `${destination} already exists and is another file than ${absolute}: rename one of them, or put the new version in place and run canvasflow kb index ${dir}` };
  }
  await mkdir(dir, { recursive: true });
  // Written whole or not at all: the folder never holds half a document.
  await writeAtomically(destination, bytes);
  return { relative: name, bytes };
}

/** The knowledge base a pipeline run writes into: what its runs made, then the index brought up to date. */
export class PipelineIngest {
  /** Chunks the runs made, by the content hash of the document they were made from. */
  private readonly made = new Map<string, ChunkDraft[]>();

  constructor(
    readonly target: IngestTarget,
    private readonly pipelineFile: string,
    private readonly openPipeline: PipelineChunkerOpener,
  ) {}

  /** A document's run finished: copy it into the folder and keep its chunks. Gives an error message when it cannot go in. */
  async add(document: string, outputs: Readonly<Record<string, unknown>>): Promise<string | undefined> {
    const placed = await placeDocument(this.target.dir, document);
    if ("error" in placed) return placed.error;
    const { draftOf, payloadChunks } = await import("../pipelines/kb-chunker.js");
    this.made.set(
      contentHash(placed.bytes),
      payloadChunks(outputs).map((chunk) => draftOf(chunk, placed.relative)),
    );
    return undefined;
  }

  /** The index of the folder, with the pipeline as its chunker; the documents the runs made are not parsed again. */
  async index(signal?: AbortSignal): Promise<IndexReport> {
    const pipeline = await this.openPipeline(path.resolve(this.pipelineFile));
    const made = this.made;
    const chunker: DocumentChunker = {
      key: pipeline.key,
      label: pipeline.label,
      ...(pipeline.pipeline !== undefined ? { pipeline: pipeline.pipeline } : {}),
      concurrency: pipeline.concurrency,
      accepts: (fileName) => pipeline.accepts(fileName),
      chunk: async (document, chunkSignal) => made.get(contentHash(document.bytes)) ?? pipeline.chunk(document, chunkSignal),
    };
    const indexDir = path.resolve(this.target.indexDir ?? path.join(this.target.dir, DEFAULT_INDEX_FOLDER));
    return updateIndex({ dir: this.target.dir, indexDir, embedding: this.target.embedding, chunker, ...(signal ? { signal } : {}) });
  }
}
