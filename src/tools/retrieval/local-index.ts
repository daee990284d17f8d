/**
 * Local knowledge bases: a folder of .md, .txt and .json files, chunked and indexed for full-text
 * search with MiniSearch (in memory, BM25 ranking, per-field boosts, and it reports which query
 * terms each result matched, which the similarity score needs).
 *
 * An index is built once per folder and kept for the life of the process. Every search checks the
 * folder's files (names, sizes, modification times) and rebuilds the index only when they changed.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import MiniSearch from "minisearch";
import { UnavailableError } from "../../components/unavailable.js";
import { chunkFile, formatOf, type TextChunk } from "./chunking.js";
import { processTerm, tokenize } from "./tokenize.js";

/** A chunk as indexed: its text and where it comes from. */
export interface IndexedChunk extends TextChunk {
  id: string;
  documentId: string;
  /** The file's path below the folder, with "/" separators. */
  documentName: string;
}

interface IndexedDocument {
  /** Numeric position of the chunk in `chunks`. */
  id: number;
  title: string;
  content: string;
}

export interface LocalIndex {
  readonly dir: string;
  readonly chunks: readonly IndexedChunk[];
  readonly search: MiniSearch<IndexedDocument>;
}

interface FileEntry {
  relative: string;
  absolute: string;
  size: number;
  mtimeMs: number;
}

function hash(...parts: string[]): string {
  return createHash("sha1").update(parts.join("\u0000")).digest("hex").slice(0, 32);
}

/** The searchable files below a folder (hidden files and folders skipped), sorted by path. */
async function listFiles(dir: string): Promise<FileEntry[]> {
  const files: FileEntry[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const absolute = path.join(folder, entry.name);
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(absolute, relative);
      else if (entry.isFile() && formatOf(entry.name)) {
        const info = await stat(absolute);
        files.push({ relative, absolute, size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  };
  await walk(dir, "");
  return files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

function signatureOf(files: readonly FileEntry[]): string {
  return files.map((f) => `${f.relative}\t${f.size}\t${f.mtimeMs}`).join("\n");
}

async function buildIndex(dir: string, files: readonly FileEntry[]): Promise<LocalIndex> {
  const chunks: IndexedChunk[] = [];
  for (const file of files) {
    const format = formatOf(file.relative)!;
    const text = await readFile(file.absolute, "utf8");
    let pieces: TextChunk[];
    try {
      pieces = chunkFile(format, text);
    } catch (error) {
      throw new Error(`${file.relative} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const documentId = hash(dir, file.relative);
    pieces.forEach((piece, i) => chunks.push({ ...piece, id: hash(documentId, String(i), piece.content), documentId, documentName: file.relative }));
  }
  const search = new MiniSearch<IndexedDocument>({
    fields: ["title", "content"],
    tokenize: (text) => tokenize(text),
    processTerm: (term) => processTerm(term),
  });
  search.addAll(
    chunks.map((chunk, id) => ({ id, title: chunk.section === "" ? chunk.documentName : `${chunk.documentName} ${chunk.section}`, content: chunk.content })),
  );
  return { dir, chunks, search };
}

const cache = new Map<string, { signature: string; index: Promise<LocalIndex> }>();

/**
 * The index of a folder, built on first use and rebuilt when its files change. Fails with a
 * message naming the folder when it cannot be read.
 */
export async function localIndex(dir: string): Promise<LocalIndex> {
  const absolute = path.resolve(dir);
  let files: FileEntry[];
  try {
    const info = await stat(absolute);
    if (!info.isDirectory()) throw new Error("it is not a folder");
    files = await listFiles(absolute);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : error instanceof Error ? error.message : String(error);
    throw new UnavailableError(`cannot read the folder ${absolute}: ${reason}`);
  }
  const signature = signatureOf(files);
  const cached = cache.get(absolute);
  if (cached && cached.signature === signature) return cached.index;
  const index = buildIndex(absolute, files);
  cache.set(absolute, { signature, index });
  // A failed build is not kept: the next search tries again.
  index.catch(() => {
    if (cache.get(absolute)?.index === index) cache.delete(absolute);
  });
  return index;
}
