/**
 * Reading the entries of a ZIP container (DOCX, XLSX, PPTX, EPUB) with bounded inflation, so a
 * zip bomb fails its document with a DocumentParseError instead of exhausting memory.
 *
 * Three guards, each checked before any byte is inflated and again while inflating (an entry's
 * declared sizes can lie; yauzl's validateEntrySizes catches a stream longer or shorter than its
 * header says, and the running count below catches it first):
 * - the number of entries (a container of millions of tiny entries costs memory in its directory);
 * - the bytes all entries read from one container may inflate to (the config's pipelines.limits.maxInflatedBytes);
 * - the compression ratio of a large entry (XML compresses 10–50x; a bomb, 1000x and more).
 *
 * yauzl reads the central directory lazily and inflates one entry at a time as a stream.
 */
import type { Readable } from "node:stream";
import type { Entry, ZipFile } from "yauzl";
import { DocumentParseError } from "../payload.js";
import { requirePackage } from "../../util/optional-package.js";

type Yauzl = typeof import("yauzl");

export interface ZipLimits {
  /** Bytes all entries read from the container may inflate to, together. */
  maxInflatedBytes: number;
  /** Entries the container may list. */
  maxEntries: number;
  /** Largest inflated/compressed ratio of an entry that inflates past `ratioCheckFromBytes`. */
  maxRatio: number;
  /** Entries smaller than this are not ratio-checked (a tiny repetitive file is harmless). */
  ratioCheckFromBytes: number;
}

export const DEFAULT_ZIP_LIMITS: Omit<ZipLimits, "maxInflatedBytes"> = {
  maxEntries: 20_000,
  maxRatio: 1_000,
  ratioCheckFromBytes: 1024 * 1024,
};

function loadYauzl(): Yauzl {
  return requirePackage<Yauzl>("yauzl", "Reading DOCX, XLSX, PPTX and EPUB documents (ZIP containers)");
}

function mib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

/** One container, opened: its entry names, and bounded reads of any of them. */
export class ZipArchive {
  private inflated = 0;

  private constructor(
    /** The document's name, for error messages. */
    readonly document: string,
    /** What the container is expected to be ("DOCX"…), for error messages. */
    private readonly kind: string,
    private readonly zip: ZipFile,
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly limits: ZipLimits,
  ) {}

  /** Opens the container and reads its directory; a damaged or oversized one is a DocumentParseError. */
  static async open(document: string, kind: string, bytes: Uint8Array, limits: Pick<ZipLimits, "maxInflatedBytes"> & Partial<ZipLimits>): Promise<ZipArchive> {
    const full: ZipLimits = { ...DEFAULT_ZIP_LIMITS, ...limits };
    const yauzl = loadYauzl();
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let zip: ZipFile;
    try {
      zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, autoClose: false });
    } catch (error) {
      throw new DocumentParseError(document, `${document} is not a readable ${kind} file: it is not a ZIP container (${(error as Error).message})`);
    }
    if (zip.entryCount > full.maxEntries) {
      zip.close();
      throw new DocumentParseError(document, `${document} has ${zip.entryCount} entries in its ZIP container, more than the ${full.maxEntries} a ${kind} file may have; it is refused as a possible zip bomb`);
    }
    const entries = await readDirectory(document, kind, zip);
    return new ZipArchive(document, kind, zip, entries, full);
  }

  /** Entry names, in the container's order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Bytes inflated so far from this container. */
  get inflatedBytes(): number {
    return this.inflated;
  }

  /** The entry's bytes; a missing entry is a DocumentParseError naming it. */
  async read(name: string): Promise<Uint8Array> {
    const parts: Buffer[] = [];
    for await (const part of this.stream(name)) parts.push(part);
    return Buffer.concat(parts);
  }

  /** The entry as UTF-8 text (the encoding of every OOXML and EPUB part). */
  async readText(name: string): Promise<string> {
    return new TextDecoder("utf-8").decode(await this.read(name));
  }

  /** The entry, inflated piece by piece; every piece counts against the container's budget. */
  async *stream(name: string): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new DocumentParseError(this.document, `${this.document} is not a complete ${this.kind} file: its ZIP container has no ${name}`);
    this.checkDeclared(entry);
    let stream: Readable;
    try {
      stream = await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw new DocumentParseError(this.document, `${this.document}: cannot read ${name} from its ZIP container (${(error as Error).message})`);
    }
    let entryBytes = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        entryBytes += chunk.length;
        this.inflated += chunk.length;
        if (entryBytes > entry.uncompressedSize) {
          throw this.bomb(`${name} inflates past the ${entry.uncompressedSize} bytes its header declares`);
        }
        if (this.inflated > this.limits.maxInflatedBytes) {
          throw this.bomb(`its entries inflate past ${mib(this.limits.maxInflatedBytes)} (the config's pipelines.limits.maxInflatedBytes) while reading ${name}`);
        }
        yield chunk;
      }
    } catch (error) {
      if (error instanceof DocumentParseError) throw error;
      // yauzl's validateEntrySizes stops a stream that outgrows its declared size before we see the bytes.
      if (/too many bytes in the stream/.test((error as Error).message)) throw this.bomb(`${name} inflates past the ${entry.uncompressedSize} bytes its header declares`);
      throw new DocumentParseError(this.document, `${this.document}: ${name} in its ZIP container is damaged (${(error as Error).message})`);
    } finally {
      stream.destroy();
    }
  }

  close(): void {
    this.zip.close();
  }

  /** Refuses an entry by its header, before inflating anything. */
  private checkDeclared(entry: Entry): void {
    if (entry.isEncrypted()) {
      throw new DocumentParseError(this.document, `${this.document}: ${entry.fileName} is encrypted inside its ZIP container; encrypted ${this.kind} files cannot be parsed`);
    }
    if (this.inflated + entry.uncompressedSize > this.limits.maxInflatedBytes) {
      throw this.bomb(`${entry.fileName} declares ${mib(entry.uncompressedSize)} inflated, past the ${mib(this.limits.maxInflatedBytes)} its entries may inflate to (the config's pipelines.limits.maxInflatedBytes)`);
    }
    if (entry.uncompressedSize >= this.limits.ratioCheckFromBytes) {
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (ratio > this.limits.maxRatio) {
        throw this.bomb(`${entry.fileName} inflates ${Math.round(ratio)} times (${mib(entry.compressedSize)} to ${mib(entry.uncompressedSize)}), more than the ${this.limits.maxRatio} times a document part may`);
      }
    }
  }

  private bomb(reason: string): DocumentParseError {
    return new DocumentParseError(this.document, `${this.document} is refused as a possible zip bomb: ${reason}`);
  }
}

function readDirectory(document: string, kind: string, zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on("entry", (entry: Entry) => {
      // Directories carry no content; OOXML part names are case-insensitive but written as listed.
      if (!entry.fileName.endsWith("/")) entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    zip.once("error", (error: Error) => {
      zip.close();
      reject(new DocumentParseError(document, `${document} is not a readable ${kind} file: its ZIP directory is damaged (${error.message})`));
    });
    zip.readEntry();
  });
}

/** Opens a container with the ParseLimits of a request, runs `use`, and always closes it. */
export async function withZip<T>(document: string, kind: string, bytes: Uint8Array, limits: { maxInflatedBytes: number }, use: (zip: ZipArchive) => Promise<T>): Promise<T> {
  const zip = await ZipArchive.open(document, kind, bytes, { maxInflatedBytes: limits.maxInflatedBytes });
  try {
    return await use(zip);
  } finally {
    zip.close();
  }
}

/** Resolves a relationship target (`../media/image1.png`) against the part that names it (`word/document.xml`). */
export function resolvePartPath(fromPart: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const base = fromPart.includes("/") ? fromPart.slice(0, fromPart.lastIndexOf("/")).split("/") : [];
  for (const segment of target.split("/")) {
    if (segment === "..") base.pop();
    else if (segment !== "." && segment !== "") base.push(segment);
  }
  return base.join("/");
}
