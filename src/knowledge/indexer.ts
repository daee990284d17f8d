/**
 * Building and updating a local knowledge base's index: the folder's files are compared with the
 * cached manifest; a file whose size and modification time are unchanged keeps its cached entry;
 * any other file is hashed, and only when no entry for that content and embedding model exists
 * is it read, chunked and embedded. The result is written back to the index folder and loaded
 * for search.
 *
 * Chunk vectors follow RAGFlow (rag/svr/task_executor.py, `embedding`): 0.1 × the embedding of
 * the file's name + 0.9 × the embedding of the chunk's content (`filename_embd_weight`), with
 * HTML table tags stripped from the content first and "None" for an empty chunk.
 */
import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_CHUNKER, draftTerms, type DocumentChunker } from "./chunkers.js";
import { decodeVector } from "./embedding-client.js";
import { contentHash, IndexCache, MANIFEST_FORMAT, modelTag, type CacheEntry, type CachedChunk, type Manifest, type ManifestFile } from "./index-cache.js";
import { KeywordIndex } from "./keyword-index.js";
import type { EmbeddingModel } from "./model-types.js";
import { termsOf } from "./tokenize.js";
import { VectorIndex } from "./vector-index.js";

/** Raise when chunking or terms change: entries of older versions are then made again. */
const CHUNKER_VERSION = 1;
/** RAGFlow's default filename_embd_weight. */
const FILE_NAME_WEIGHT = 0.1;
export const DEFAULT_INDEX_FOLDER = ".canvasflow-index";
/** Files read and chunked at once. */
const READ_CONCURRENCY = 8;
/** Larger files are skipped: a knowledge base is text, and a whole file is held in memory while read. */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

interface SourceFile {
  /** Below the folder, "/"-separated. */
  relative: string;
  absolute: string;
  size: number;
  mtimeMs: number;
}

/** A chunk as searched: its text and where it comes from. */
export interface IndexedChunk {
  id: string;
  documentId: string;
  documentName: string;
  section: string;
  content: string;
  /** RAGFlow's other fields, when a pipeline made the chunk (important_kwd, question_kwd, positions…). */
  fields?: Record<string, unknown>;
}

export interface BuiltIndex {
  dir: string;
  chunks: IndexedChunk[];
  keywords: KeywordIndex;
  /** Present when the knowledge base has an embedding model. */
  vectors: VectorIndex | undefined;
  model: EmbeddingModel | undefined;
  /** The files it was built from (sizes and times), to tell when they change. */
  signature: string;
}

export interface IndexReport {
  files: number;
  chunks: number;
  /** Files whose cached entry was used. */
  reusedFiles: number;
  /** Files read and chunked this time. */
  chunkedFiles: number;
  embeddedChunks: number;
  /** Embedding tokens the server reported. */
  tokens: number;
  skipped: Array<{ path: string; reason: string }>;
  /** What was noticed about the cache: rebuilt, corrupt, model changed, cannot be written. */
  notes: string[];
  ms: number;
}

export interface IndexProgress {
  phase: "reading" | "embedding";
  done: number;
  total: number;
}

export interface BuildOptions {
  dir: string;
  /** Default `<dir>/.canvasflow-index`. */
  indexDir?: string;
  embedding?: EmbeddingModel;
  /** The folder's files when the caller has just listed them. */
  files?: SourceFile[];
  /** What the listing that gave `files` left out, and why (listSourceTree's `skipped`). */
  skippedEntries?: ReadonlyArray<{ path: string; reason: string }>;
  signal?: AbortSignal;
  onProgress?: (progress: IndexProgress) => void;
  /** Ignore the cache and embed everything again, saying why in the report's notes. */
  rebuild?: { reason: string };
  /** How files become chunks; default the default chunker. Files it does not accept are not listed. */
  chunker?: DocumentChunker;
}

/** The files a knowledge base reads below a folder (hidden files and folders skipped), sorted by path. */
export async function listSourceFiles(dir: string, chunker: DocumentChunker = DEFAULT_CHUNKER): Promise<SourceFile[]> {
  return (await listSourceTree(dir, chunker)).files;
}

/**
 * The files a knowledge base reads below a folder, sorted by path, and the entries it leaves out
 * with the reason: symbolic links (not followed, so an index holds only what is inside the
 * folder), named pipes (reading one blocks until a writer comes), sockets and devices. Hidden
 * entries and files of formats it does not read are left out silently.
 */
export async function listSourceTree(dir: string, chunker: DocumentChunker = DEFAULT_CHUNKER): Promise<{ files: SourceFile[]; skipped: Array<{ path: string; reason: string }> }> {
  const files: SourceFile[] = [];
  const skipped: Array<{ path: string; reason: string }> = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const absolute = path.join(folder, entry.name);
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(absolute, relative);
      else if (entry.isFile()) {
        if (!chunker.accepts(entry.name)) continue;
        const info = await stat(absolute);
        files.push({ relative, absolute, size: info.size, mtimeMs: info.mtimeMs });
      } else {
        const reason = notAFile(entry);
        if (reason) skipped.push({ path: relative, reason });
      }
    }
  };
  await walk(dir, "");
  const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  files.sort((a, b) => order(a.relative, b.relative));
  skipped.sort((a, b) => order(a.path, b.path));
  return { files, skipped };
}

function notAFile(entry: Dirent): string | undefined {
  if (entry.isSymbolicLink()) return "a symbolic link (not followed: a knowledge base indexes only what is inside its folder)";
  if (entry.isFIFO()) return "a named pipe (FIFO), not a file";
  if (entry.isSocket()) return "a socket, not a file";
  if (entry.isBlockDevice() || entry.isCharacterDevice()) return "a device, not a file";
  return undefined;
}

export function filesSignature(files: readonly SourceFile[]): string {
  return files.map((f) => `${f.relative}\t${f.size}\t${f.mtimeMs}`).join("\n");
}

function shortHash(...parts: string[]): string {
  return createHash("sha1").update(parts.join("\u0000")).digest("hex").slice(0, 32);
}

/** What RAGFlow embeds for a chunk: table tags stripped, "None" for nothing. */
function embeddingText(content: string): string {
  const text = content.replace(/<\/?(table|td|caption|tr|th)( [^<>]{0,12})?>/g, " ");
  return text.trim() === "" ? "None" : text;
}

function describeModel(key: string | null): string {
  if (key === null) return "no embedding model (keywords only)";
  try {
    const [provider, model, dimensions] = JSON.parse(key) as [string, string, number | null];
    return `"${model}" of provider "${provider}"${dimensions ? ` at ${dimensions} dimensions` : ""}`;
  } catch {
    return key;
  }
}

function sameModelApartFromDimensions(a: string, b: string): boolean {
  try {
    const [pa, ma] = JSON.parse(a) as unknown[];
    const [pb, mb] = JSON.parse(b) as unknown[];
    return pa === pb && ma === mb;
  } catch {
    return false;
  }
}

function encodeVector(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64");
}

/** One file's part of the index, before the whole is assembled. */
interface FileState {
  file: SourceFile;
  hash: string;
  entry: CacheEntry;
  /** True when the entry must be written. */
  fresh: boolean;
  nameVector: Float32Array | undefined;
}

/** A mismatch that makes every cached vector unusable: the whole index is embedded again. */
class DimensionMismatch extends Error {}

async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Builds or updates the index of a folder and loads it. Unreadable files are skipped and listed;
 * a corrupt cache is never used; a cache the model cannot use (another model, other dimensions)
 * is rebuilt; a cache that cannot be written leaves the index in memory only. Each of these is
 * said in `report.notes` or `report.skipped`. Fails only when the folder cannot be listed or the
 * embedding model cannot answer.
 */
export async function buildIndex(options: BuildOptions): Promise<{ index: BuiltIndex; report: IndexReport }> {
  const { index, report } = await update(options, true);
  return { index: index!, report };
}

/**
 * Brings the index folder up to date without loading the index for search (what
 * `canvasflow kb index` does): cached entries are still read and checked.
 */
export async function updateIndex(options: BuildOptions): Promise<IndexReport> {
  return (await update(options, false)).report;
}

async function update(options: BuildOptions, load: boolean): Promise<{ index: BuiltIndex | undefined; report: IndexReport }> {
  if (options.rebuild) {
    const built = await build(options, true, load);
    built.report.notes.unshift(options.rebuild.reason);
    return built;
  }
  try {
    return await build(options, false, load);
  } catch (error) {
    if (!(error instanceof DimensionMismatch)) throw error;
    const again = await build(options, true, load);
    again.report.notes.unshift(error.message);
    return again;
  }
}

async function build(options: BuildOptions, ignoreCache: boolean, load: boolean): Promise<{ index: BuiltIndex | undefined; report: IndexReport }> {
  const started = performance.now();
  const dir = path.resolve(options.dir);
  const cache = new IndexCache(path.resolve(options.indexDir ?? path.join(dir, DEFAULT_INDEX_FOLDER)));
  const model = options.embedding;
  const modelKey = model?.key ?? null;
  const chunker = options.chunker ?? DEFAULT_CHUNKER;
  // The default chunker's entries keep the names they had before chunkers were pluggable.
  const tag = modelTag(`${modelKey ?? ""}#chunker ${CHUNKER_VERSION}${chunker.key === DEFAULT_CHUNKER.key ? "" : `#${chunker.key}`}`);
  const listing = options.files ? { files: options.files, skipped: options.skippedEntries ?? [] } : await listSourceTree(dir, chunker);
  const files = listing.files;
  const notes: string[] = [];
  const skipped: IndexReport["skipped"] = [...listing.skipped];

  // What the last index knew about each file, when it can be trusted.
  let previous: Manifest | undefined;
  if (!ignoreCache) {
    const read = await cache.readManifest();
    if (read.kind === "corrupt") notes.push(`the index at ${cache.dir} is corrupt (${read.problem}): rebuilding it`);
    else if (read.kind === "ok") {
      const m = read.value;
      if (m.format !== MANIFEST_FORMAT || m.chunker !== CHUNKER_VERSION) notes.push(`the index at ${cache.dir} was made by another version of canvasflow: rebuilding it`);
      else if (m.model !== modelKey) {
        if (m.model !== null && modelKey !== null && sameModelApartFromDimensions(m.model, modelKey)) {
          notes.push(`dimension mismatch: the index at ${cache.dir} holds ${m.dimensions ?? "?"}-dimensional vectors, the configuration asks for ${model?.dimensions ?? "the model's own size"}: rebuilding it`);
        } else notes.push(`the index at ${cache.dir} was made with ${describeModel(m.model)}, the configuration now says ${describeModel(modelKey)}: rebuilding it`);
      } else {
        previous = m;
        const before = m.chunking ?? DEFAULT_CHUNKER.key;
        if (before !== chunker.key) notes.push(`the index at ${cache.dir} was chunked by ${m.pipeline ? `the pipeline ${m.pipeline}` : before === DEFAULT_CHUNKER.key ? DEFAULT_CHUNKER.label : "another version of its pipeline"}, now by ${chunker.label}: chunking every file again`);
      }
    }
  }
  const known = new Map((previous?.files ?? []).map((f) => [f.path, f]));
  // A file's name vector depends on its path only: kept while the path is.
  const knownNameVector = (before: ManifestFile | undefined) => (model && before?.nameVector ? decodeVector(before.nameVector) : undefined);

  // 1. Each file's entry: cached when its content (by hash) was indexed before with this model.
  const states: FileState[] = [];
  let read = 0;
  await pool(files, chunker.concurrency ?? READ_CONCURRENCY, async (file) => {
    options.signal?.throwIfAborted();
    const before = known.get(file.relative);
    const unchanged = before !== undefined && before.size === file.size && before.mtimeMs === file.mtimeMs;
    let bytes: Buffer | undefined;
    try {
      if (file.size > MAX_FILE_BYTES) throw new Error(`it is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
      let hash: string;
      if (unchanged) hash = before.hash;
      else {
        bytes = await readFile(file.absolute);
        hash = contentHash(bytes);
      }
      let entry: CacheEntry | undefined;
      if (!ignoreCache) {
        const cached = await cache.readEntry(hash, tag);
        if (cached.kind === "ok" && (modelKey === null ? cached.value.dimensions === 0 : cached.value.dimensions > 0)) entry = cached.value;
        else if (cached.kind === "corrupt") notes.push(`the cached entry of ${file.relative} is corrupt (${cached.problem}): reading the file again`);
      }
      if (!entry) {
        bytes ??= await readFile(file.absolute);
        hash = contentHash(bytes);
        const drafts = await chunker.chunk({ relative: file.relative, absolute: file.absolute, bytes }, options.signal);
        entry = {
          chunks: drafts.map<CachedChunk>((draft) => {
            const { terms, sectionTerms } = draftTerms(draft);
            return {
              section: draft.section,
              content: draft.content,
              terms: terms.join(" "),
              sectionTerms: sectionTerms.join(" "),
              ...(draft.embeddingText !== undefined ? { embeddingText: draft.embeddingText } : {}),
              ...(draft.fields !== undefined ? { fields: draft.fields } : {}),
            };
          }),
          dimensions: 0,
          vectors: [],
        };
        states.push({ file, hash, entry, fresh: true, nameVector: knownNameVector(before) });
      } else {
        states.push({ file, hash, entry, fresh: false, nameVector: knownNameVector(before) });
      }
    } catch (error) {
      // A cancelled build writes nothing: a file cut off is not a file that cannot be read.
      if (options.signal?.aborted) throw error;
      skipped.push({ path: file.relative, reason: (error as NodeJS.ErrnoException).code === "EACCES" ? "permission denied" : error instanceof Error ? error.message : String(error) });
    }
    options.onProgress?.({ phase: "reading", done: ++read, total: files.length });
  });
  options.signal?.throwIfAborted();
  states.sort((a, b) => (a.file.relative < b.file.relative ? -1 : 1));
  skipped.sort((a, b) => (a.path < b.path ? -1 : 1));

  // 2. Embeddings for the new entries' chunks and for file names not embedded yet.
  let tokens = 0;
  let embeddedChunks = 0;
  let dimensions = 0;
  if (model) {
    const texts: string[] = [];
    const targets: Array<(v: Float32Array) => void> = [];
    for (const state of states) {
      if (state.fresh) {
        state.entry.vectors = new Array(state.entry.chunks.length);
        state.entry.chunks.forEach((chunk, i) => {
          texts.push(chunk.embeddingText ?? embeddingText(chunk.content));
          targets.push((v) => (state.entry.vectors[i] = v));
        });
        embeddedChunks += state.entry.chunks.length;
      }
      if (!state.nameVector) {
        texts.push(state.file.relative);
        targets.push((v) => (state.nameVector = v));
      }
    }
    if (texts.length > 0) {
      options.onProgress?.({ phase: "embedding", done: 0, total: texts.length });
      const result = await model.embed(texts, { signal: options.signal, onProgress: (done) => options.onProgress?.({ phase: "embedding", done, total: texts.length }) });
      result.vectors.forEach((v, i) => targets[i](v));
      tokens = result.tokens;
    }
    for (const state of states) {
      const sizes = [...state.entry.vectors.map((v) => v.length), state.nameVector!.length];
      for (const size of sizes) {
        if (dimensions === 0) dimensions = size;
        else if (size !== dimensions) throw new DimensionMismatch(`dimension mismatch: the cached vectors have ${dimensions} dimensions, ${model.label} now gives ${size}: rebuilding the index`);
      }
      if (state.fresh) state.entry.dimensions = state.entry.chunks.length > 0 ? dimensions : 0;
    }
    // An entry with no chunks has no vectors to say its size: mark it as made with a model anyway.
    for (const state of states) if (state.fresh && state.entry.dimensions === 0) state.entry.dimensions = dimensions || 1;
  }

  // 3. The cache: new entries, the manifest, and entries nothing refers to any more.
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    chunker: CHUNKER_VERSION,
    model: modelKey,
    dimensions: model ? dimensions : null,
    ...(chunker.key !== DEFAULT_CHUNKER.key ? { chunking: chunker.key } : {}),
    ...(chunker.pipeline !== undefined ? { pipeline: chunker.pipeline } : {}),
    files: states.map<ManifestFile>((s) => ({
      path: s.file.relative,
      size: s.file.size,
      mtimeMs: s.file.mtimeMs,
      hash: s.hash,
      chunks: s.entry.chunks.length,
      ...(s.nameVector ? { nameVector: encodeVector(s.nameVector) } : {}),
    })),
  };
  const changed =
    states.some((s) => s.fresh) || previous === undefined || previous.chunking !== manifest.chunking || previous.pipeline !== manifest.pipeline || JSON.stringify(previous.files) !== JSON.stringify(manifest.files);
  if (changed) {
    try {
      for (const state of states) if (state.fresh) await cache.writeEntry(state.hash, tag, state.entry);
      await cache.writeManifest(manifest);
      await cache.removeEntriesExcept(new Set(states.map((s) => path.basename(cache.entryFile(s.hash, tag)))));
    } catch (error) {
      notes.push(`cannot write the index at ${cache.dir} (${(error as Error).message}): the index is kept in memory only`);
    }
  }

  const report: IndexReport = {
    files: states.length,
    chunks: states.reduce((n, s) => n + s.entry.chunks.length, 0),
    reusedFiles: states.filter((s) => !s.fresh).length,
    chunkedFiles: states.filter((s) => s.fresh).length,
    embeddedChunks,
    tokens,
    skipped,
    notes,
    ms: 0,
  };
  if (!load) {
    report.ms = performance.now() - started;
    return { index: undefined, report };
  }

  // 4. The index in memory.
  const chunks: IndexedChunk[] = [];
  const terms: Array<{ content: string[]; title: string[] }> = [];
  const rows: Array<{ name: Float32Array; content: Float32Array }> = [];
  for (const state of states) {
    const documentId = shortHash(dir, state.file.relative);
    const nameTerms = termsOf(state.file.relative);
    state.entry.chunks.forEach((chunk, i) => {
      chunks.push({
        id: shortHash(documentId, String(i), chunk.content),
        documentId,
        documentName: state.file.relative,
        section: chunk.section,
        content: chunk.content,
        ...(chunk.fields !== undefined ? { fields: chunk.fields } : {}),
      });
      terms.push({ content: chunk.terms === "" ? [] : chunk.terms.split(" "), title: [...nameTerms, ...(chunk.sectionTerms === "" ? [] : chunk.sectionTerms.split(" "))] });
      if (model) rows.push({ name: state.nameVector!, content: state.entry.vectors[i] });
    });
  }
  const index: BuiltIndex = {
    dir,
    chunks,
    keywords: new KeywordIndex(terms),
    vectors: model
      ? new VectorIndex(dimensions || 1, rows.length, (i, row) => {
          const { name, content } = rows[i];
          for (let j = 0; j < row.length; j++) row[j] = FILE_NAME_WEIGHT * name[j] + (1 - FILE_NAME_WEIGHT) * content[j];
        })
      : undefined,
    model,
    // All listed files, skipped ones too: a skipped file is tried again when it changes, not on every search.
    signature: filesSignature(files),
  };
  report.ms = performance.now() - started;
  return { index, report };
}
