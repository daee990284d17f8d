/**
 * A minimal ZIP writer for tests: deflated entries, and a way to make an entry's headers lie
 * about its inflated size (a zip bomb that hides behind small declared sizes).
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntryInput {
  name: string;
  data: Uint8Array | string;
  /** Declared inflated size to write in the headers instead of the real one. */
  declaredSize?: number;
  /** Store without compression. */
  stored?: boolean;
}

export function writeZip(entries: readonly ZipEntryInput[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : Buffer.from(entry.data);
    const packed = entry.stored ? data : deflateRawSync(data);
    const name = Buffer.from(entry.name, "utf8");
    const crc = crc32(data);
    const size = entry.declaredSize ?? data.length;
    const method = entry.stored ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** The entries of a ZIP made by a library (for adding to a generated document), read with yauzl. */
export async function readZipEntries(bytes: Uint8Array): Promise<ZipEntryInput[]> {
  const yauzl = await import("yauzl");
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes), { lazyEntries: true });
  const entries: ZipEntryInput[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", async (entry) => {
      const stream = await zip.openReadStreamPromise(entry);
      const parts: Buffer[] = [];
      for await (const part of stream) parts.push(part as Buffer);
      entries.push({ name: entry.fileName, data: Buffer.concat(parts) });
      zip.readEntry();
    });
    zip.on("end", () => resolve());
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}
