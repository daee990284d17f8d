/**
 * A local knowledge base as a long-running process holds it: the index is built (or loaded from
 * its index folder) on first use and kept. Before a search, the folder's files are compared with
 * the ones the index was built from — at most once a second, since listing a large folder costs
 * more than a search — and the index is updated when they changed. Concurrent searches share one
 * update; a failed update is not kept, so the next search tries again.
 */
import path from "node:path";
import { stat } from "node:fs/promises";
import { UnavailableError } from "../components/unavailable.js";
import { DEFAULT_CHUNKER, type DocumentChunker, type PipelineChunkerOpener } from "./chunkers.js";
import { IndexCache } from "./index-cache.js";
import { buildIndex, DEFAULT_INDEX_FOLDER, filesSignature, listSourceTree, type BuiltIndex, type IndexReport } from "./indexer.js";
import type { EmbeddingModel } from "./model-types.js";

/** How long a check of the folder's files holds. */
const FRESH_FOR_MS = 1000;

interface KnowledgeBaseOptions {
  dir: string;
  indexDir?: string;
  embedding?: EmbeddingModel;
  /** The ingestion pipeline that chunks the folder; default the one its index was made with, else the default chunker. */
  pipeline?: string;
  /** Opens a pipeline as a chunker (the services' `tools.pipelineChunker`). */
  openPipeline?: PipelineChunkerOpener;
  /** Milliseconds on a monotonic clock (default performance.now; tests pass their own). */
  now?: () => number;
}

/**
 * The chunker of a knowledge base: the pipeline it is given, else the pipeline its index was made
 * with (manifest.json records it, so that a search never chunks a changed file otherwise than
 * `kb index --pipeline` did), else the default chunker.
 */
export async function chunkerFor(options: { indexDir: string; pipeline?: string; openPipeline?: PipelineChunkerOpener }): Promise<DocumentChunker> {
  let pipeline = options.pipeline;
  let recorded = false;
  if (pipeline === undefined) {
    pipeline = await recordedPipeline(options.indexDir);
    recorded = pipeline !== undefined;
  }
  if (pipeline === undefined) return DEFAULT_CHUNKER;
  const where = recorded ? `the index at ${options.indexDir} was made with the pipeline ${pipeline} (its manifest.json says so)` : `the pipeline ${pipeline}`;
  if (!options.openPipeline) throw new UnavailableError(`${where}, and this process cannot run ingestion pipelines`);
  try {
    return await options.openPipeline(pipeline);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UnavailableError(recorded ? `${where}, which cannot be opened: ${message}; index the folder again (canvasflow kb index DIR --pipeline FILE, or --default-chunker)` : message);
  }
}

/** Where the notes of an update go (rebuilt caches, skipped files), by default standard error. */
export type IndexNotifier = (message: string) => void;

let notifier: IndexNotifier = (message) => process.stderr.write(`canvasflow: ${message}\n`);

/** Sets where index notes go (the library's users may want them elsewhere, tests nowhere); returns the previous one. */
export function setIndexNotifier(notify: IndexNotifier): IndexNotifier {
  const previous = notifier;
  notifier = notify;
  return previous;
}

function tell(dir: string, report: IndexReport): void {
  for (const note of report.notes) notifier(`knowledge base ${dir}: ${note}`);
  for (const skip of report.skipped) notifier(`knowledge base ${dir}: skipped ${skip.path}: ${skip.reason}`);
}

/** The pipeline an index's manifest says its chunks were made with, if any. */
export async function recordedPipeline(indexDir: string): Promise<string | undefined> {
  const manifest = await new IndexCache(indexDir).readManifest();
  return manifest.kind === "ok" ? manifest.value.pipeline : undefined;
}

async function listFolder(dir: string, chunker: DocumentChunker) {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new Error("it is not a folder");
    return await listSourceTree(dir, chunker);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : error instanceof Error ? error.message : String(error);
    throw new UnavailableError(`cannot read the folder ${dir}: ${reason}`);
  }
}

export class LocalKnowledgeBase {
  readonly dir: string;
  readonly indexDir: string;
  private current: { index: BuiltIndex; checkedAt: number } | undefined;
  private pending: Promise<BuiltIndex> | undefined;
  /** Decided on first use and kept (a pipeline is compiled once) while the index's manifest names the same pipeline. */
  private chunker: Promise<DocumentChunker> | undefined;
  /** The pipeline the manifest named when `chunker` was decided (without a configured one). */
  private chunkerRecorded: string | undefined;

  private readonly now: () => number;

  constructor(readonly options: KnowledgeBaseOptions) {
    this.now = options.now ?? (() => performance.now());
    this.dir = path.resolve(options.dir);
    this.indexDir = path.resolve(options.indexDir ?? path.join(this.dir, DEFAULT_INDEX_FOLDER));
  }

  private async chunking(): Promise<DocumentChunker> {
    if (this.options.pipeline === undefined) {
      // Another process may have indexed the folder with a pipeline (or again without) since:
      // follow the manifest, never overwrite its chunks with another chunker's.
      const recorded = await recordedPipeline(this.indexDir);
      if (recorded !== this.chunkerRecorded) {
        // The index in memory was made by the other chunker too.
        this.chunker = undefined;
        this.current = undefined;
      }
      this.chunkerRecorded = recorded;
    }
    this.chunker ??= chunkerFor({ indexDir: this.indexDir, pipeline: this.options.pipeline, openPipeline: this.options.openPipeline }).catch((error: unknown) => {
      // Not kept: the next search tries again (the pipeline file may be fixed meanwhile).
      this.chunker = undefined;
      throw error;
    });
    return this.chunker;
  }

  /** The index, brought up to date with the folder when the last check is older than FRESH_FOR_MS. */
  index(): Promise<BuiltIndex> {
    if (this.current && this.now() - this.current.checkedAt < FRESH_FOR_MS) return Promise.resolve(this.current.index);
    this.pending ??= this.refresh().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /**
   * Embeds everything again (the cache included), e.g. when the model's vectors no longer have
   * the index's size: a model that changed behind its name.
   */
  async rebuild(reason: string): Promise<BuiltIndex> {
    await this.pending?.catch(() => undefined);
    this.pending = (async () => {
      const chunker = await this.chunking();
      const { files, skipped } = await listFolder(this.dir, chunker);
      const checkedAt = this.now();
      const { index, report } = await buildIndex({ dir: this.dir, indexDir: this.indexDir, embedding: this.options.embedding, files, skippedEntries: skipped, rebuild: { reason }, chunker });
      tell(this.dir, report);
      this.current = { index, checkedAt };
      return index;
    })().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async refresh(): Promise<BuiltIndex> {
    const chunker = await this.chunking();
    const { files, skipped } = await listFolder(this.dir, chunker);
    const checkedAt = this.now();
    if (this.current && this.current.index.signature === filesSignature(files)) {
      this.current.checkedAt = checkedAt;
      return this.current.index;
    }
    const { index, report } = await buildIndex({ dir: this.dir, indexDir: this.indexDir, embedding: this.options.embedding, files, skippedEntries: skipped, chunker });
    tell(this.dir, report);
    this.current = { index, checkedAt };
    return index;
  }
}

const open = new Map<string, LocalKnowledgeBase>();

/** The knowledge base of a folder, index folder and embedding model: one per process. */
export function localKnowledgeBase(options: KnowledgeBaseOptions): LocalKnowledgeBase {
  const kb = new LocalKnowledgeBase(options);
  const key = JSON.stringify([kb.dir, kb.indexDir, options.embedding?.key ?? null, options.pipeline ?? null]);
  const existing = open.get(key);
  if (existing) return existing;
  open.set(key, kb);
  return kb;
}
