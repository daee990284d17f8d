/**
 * The index folder of a local knowledge base (default `<dir>/.canvasflow-index`):
 *
 *   manifest.json            which files the index holds: path, size, mtime, content hash, the
 *                            embedding model, and each file's name vector
 *   entries/<hash>.<model>   one file's chunks, their terms and their vectors, keyed by the
 *                            file's content hash and the embedding model
 *
 * An entry is binary: a magic line, the length of a JSON header, the header (chunks and terms),
 * the vectors as little-endian float32, then the SHA-256 of everything before it. An entry whose
 * checksum or shape is wrong is corrupt: it is never used, and the file is read again.
 *
 * Writes go to a temporary file renamed into place, so a reader sees a whole file or none.
 * Entries are immutable (their name says what is in them), so two processes indexing one folder
 * at once write the same bytes; the manifest is replaced last.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

const MAGIC = Buffer.from("CFKB1\n", "latin1");
const CHECKSUM_BYTES = 32;
export const MANIFEST_FORMAT = 1;

/** One chunk as cached: its text, and its terms (tokenize.ts's, joined by spaces). */
export interface CachedChunk {
  section: string;
  content: string;
  /** The content's terms. */
  terms: string;
  /** The section's terms. */
  sectionTerms: string;
  /** What its vector is made of, when the chunker said (a pipeline's Tokenizer fields). */
  embeddingText?: string;
  /** RAGFlow's other fields, when a pipeline made the chunk. */
  fields?: Record<string, unknown>;
}

export interface CacheEntry {
  chunks: CachedChunk[];
  /** 0 without an embedding model. */
  dimensions: number;
  /** One per chunk when dimensions > 0, else none. */
  vectors: Float32Array[];
}

export interface ManifestFile {
  /** Below the knowledge base's folder, "/"-separated. */
  path: string;
  size: number;
  mtimeMs: number;
  /** SHA-256 of the file's bytes (hex). */
  hash: string;
  chunks: number;
  /** The embedding of the file's name (RAGFlow blends it into every chunk's vector), base64 float32. */
  nameVector?: string;
}

export interface Manifest {
  format: number;
  /** Changes when chunking or terms change: older entries are then chunked again. */
  chunker: number;
  /** The embedding model's key, or null for keywords only. */
  model: string | null;
  dimensions: number | null;
  /** The chunker's key, when it is not the default one (DocumentChunker.key). */
  chunking?: string;
  /** The pipeline file the chunks were made with (absolute): searches chunk changed files with it too. */
  pipeline?: string;
  files: ManifestFile[];
}

export function contentHash(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The part of an entry's name that says which embedding model made its vectors. */
export function modelTag(modelKey: string | null): string {
  return createHash("sha256")
    .update(modelKey ?? "keywords only")
    .digest("hex")
    .slice(0, 16);
}

export function encodeEntry(entry: CacheEntry): Buffer {
  const header = Buffer.from(JSON.stringify({ chunks: entry.chunks, dimensions: entry.dimensions }), "utf8");
  const headerEnd = MAGIC.length + 4 + header.length;
  const padding = (4 - (headerEnd % 4)) % 4;
  const vectorBytes = entry.dimensions > 0 ? entry.chunks.length * entry.dimensions * 4 : 0;
  const out = Buffer.alloc(headerEnd + padding + vectorBytes + CHECKSUM_BYTES);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(header.length, MAGIC.length);
  header.copy(out, MAGIC.length + 4);
  let offset = headerEnd + padding;
  for (const vector of entry.vectors) {
    Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(out, offset);
    offset += vector.byteLength;
  }
  createHash("sha256").update(out.subarray(0, offset)).digest().copy(out, offset);
  return out;
}

/** An entry from its bytes; throws saying what is wrong with it. */
export function decodeEntry(bytes: Buffer): CacheEntry {
  if (bytes.length < MAGIC.length + 4 + CHECKSUM_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error("not an index entry");
  const body = bytes.subarray(0, bytes.length - CHECKSUM_BYTES);
  if (!createHash("sha256").update(body).digest().equals(bytes.subarray(bytes.length - CHECKSUM_BYTES))) throw new Error("its checksum does not match");
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const headerEnd = MAGIC.length + 4 + headerLength;
  if (headerEnd > body.length) throw new Error("its header is cut off");
  const header = JSON.parse(body.subarray(MAGIC.length + 4, headerEnd).toString("utf8")) as { chunks?: unknown; dimensions?: unknown };
  const chunks = header.chunks;
  const dimensions = header.dimensions;
  if (!Array.isArray(chunks) || typeof dimensions !== "number" || !Number.isInteger(dimensions) || dimensions < 0) throw new Error("its header has the wrong shape");
  for (const c of chunks as CachedChunk[]) {
    if (typeof c?.content !== "string" || typeof c.section !== "string" || typeof c.terms !== "string" || typeof c.sectionTerms !== "string") throw new Error("a chunk has the wrong shape");
    if ((c.embeddingText !== undefined && typeof c.embeddingText !== "string") || (c.fields !== undefined && (typeof c.fields !== "object" || c.fields === null || Array.isArray(c.fields)))) throw new Error("a chunk has the wrong shape");
  }
  const start = headerEnd + ((4 - (headerEnd % 4)) % 4);
  const expected = dimensions > 0 ? chunks.length * dimensions * 4 : 0;
  if (body.length - start !== expected) throw new Error(`it holds ${body.length - start} bytes of vectors, ${expected} expected`);
  // One aligned copy for all vectors; each chunk's vector is a view on it.
  const all = new Float32Array(body.buffer.slice(body.byteOffset + start, body.byteOffset + body.length));
  const vectors = dimensions > 0 ? chunks.map((_, i) => all.subarray(i * dimensions, (i + 1) * dimensions)) : [];
  return { chunks: chunks as CachedChunk[], dimensions, vectors };
}

function isManifest(value: unknown): value is Manifest {
  const m = value as Manifest;
  if (!m || typeof m !== "object" || typeof m.format !== "number" || typeof m.chunker !== "number" || !Array.isArray(m.files)) return false;
  if (m.model !== null && typeof m.model !== "string") return false;
  if (m.dimensions !== null && typeof m.dimensions !== "number") return false;
  if ((m.chunking !== undefined && typeof m.chunking !== "string") || (m.pipeline !== undefined && typeof m.pipeline !== "string")) return false;
  return m.files.every(
    (f) => f && typeof f.path === "string" && typeof f.size === "number" && typeof f.mtimeMs === "number" && typeof f.hash === "string" && /^[0-9a-f]{64}$/.test(f.hash) && typeof f.chunks === "number" && (f.nameVector === undefined || typeof f.nameVector === "string"),
  );
}

type ReadResult<T> = { kind: "missing" } | { kind: "corrupt"; problem: string } | { kind: "ok"; value: T };

/** No such file, or a path through something that is not a folder. */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

let temporaryCounter = 0;

/** Writes a file under a temporary name and renames it into place: a reader sees it whole or not at all. */
export async function writeAtomically(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.${++temporaryCounter}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export class IndexCache {
  constructor(readonly dir: string) {}

  private get manifestFile(): string {
    return path.join(this.dir, "manifest.json");
  }

  entryFile(hash: string, tag: string): string {
    return path.join(this.dir, "entries", `${hash}.${tag}`);
  }

  async readManifest(): Promise<ReadResult<Manifest>> {
    let text: string;
    try {
      text = await readFile(this.manifestFile, "utf8");
    } catch (error) {
      if (isMissing(error)) return { kind: "missing" };
      return { kind: "corrupt", problem: `cannot read manifest.json: ${(error as Error).message}` };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { kind: "corrupt", problem: `manifest.json is not valid JSON: ${(error as Error).message}` };
    }
    return isManifest(value) ? { kind: "ok", value } : { kind: "corrupt", problem: "manifest.json does not have the shape of an index manifest" };
  }

  async readEntry(hash: string, tag: string): Promise<ReadResult<CacheEntry>> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.entryFile(hash, tag));
    } catch (error) {
      if (isMissing(error)) return { kind: "missing" };
      return { kind: "corrupt", problem: (error as Error).message };
    }
    try {
      return { kind: "ok", value: decodeEntry(bytes) };
    } catch (error) {
      return { kind: "corrupt", problem: (error as Error).message };
    }
  }

  async writeEntry(hash: string, tag: string, entry: CacheEntry): Promise<void> {
    await mkdir(path.join(this.dir, "entries"), { recursive: true });
    await writeAtomically(this.entryFile(hash, tag), encodeEntry(entry));
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeAtomically(this.manifestFile, JSON.stringify(manifest));
  }

  /** Removes entries that `keep` (file names under entries/) does not list. */
  async removeEntriesExcept(keep: ReadonlySet<string>): Promise<number> {
    let names: string[];
    try {
      names = await readdir(path.join(this.dir, "entries"));
    } catch {
      return 0;
    }
    const stale = names.filter((name) => !keep.has(name) && !name.endsWith(".tmp"));
    await Promise.all(stale.map((name) => rm(path.join(this.dir, "entries", name), { force: true })));
    return stale.length;
  }
}
