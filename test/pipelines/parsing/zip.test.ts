import { describe, expect, it } from "vitest";
import { resolvePartPath, withZip, ZipArchive } from "../../../src/pipelines/parsing/zip.js";
import { writeZip } from "./zip-writer.js";
import { rejection } from "./binary-request.js";

const MiB = 1024 * 1024;

describe("ZipArchive", () => {
  it("lists and reads entries, and counts what it inflated", async () => {
    const bytes = writeZip([
      { name: "a.txt", data: "hello" },
      { name: "dir/b.xml", data: "<x>é</x>" },
    ]);
    await withZip("doc.docx", "DOCX", bytes, { maxInflatedBytes: MiB }, async (zip) => {
      expect(zip.names()).toEqual(["a.txt", "dir/b.xml"]);
      expect(await zip.readText("dir/b.xml")).toBe("<x>é</x>");
      expect(zip.inflatedBytes).toBe(9);
      const missing = await rejection(zip.read("nope.xml"));
      expect(missing.name).toBe("DocumentParseError");
      expect(missing.message).toMatch(/doc\.docx is not a complete DOCX file: its ZIP container has no nope\.xml/);
    });
  });

  it("refuses a file that is not a ZIP container", async () => {
    const error = await rejection(ZipArchive.open("x.xlsx", "XLSX", new TextEncoder().encode("just text, no zip"), { maxInflatedBytes: MiB }));
    expect(error.name).toBe("DocumentParseError");
    expect(error.message).toMatch(/x\.xlsx is not a readable XLSX file: it is not a ZIP container/);
  });

  it("refuses an entry whose declared size is past maxInflatedBytes, before inflating", async () => {
    const bytes = writeZip([{ name: "big.xml", data: "a".repeat(3 * MiB) }]);
    const error = await rejection(withZip("bomb.docx", "DOCX", bytes, { maxInflatedBytes: 2 * MiB }, (zip) => zip.read("big.xml")));
    expect(error.name).toBe("DocumentParseError");
    expect(error.message).toMatch(/bomb\.docx is refused as a possible zip bomb: big\.xml declares 3\.0 MiB inflated, past the 2\.0 MiB .*maxInflatedBytes/);
  });

  it("stops an entry that inflates past the size its headers declare", async () => {
    const bytes = writeZip([{ name: "liar.xml", data: "a".repeat(4 * MiB), declaredSize: 1000 }]);
    const error = await rejection(withZip("liar.docx", "DOCX", bytes, { maxInflatedBytes: 2 * MiB }, (zip) => zip.read("liar.xml")));
    expect(error.name).toBe("DocumentParseError");
    expect(error.message).toMatch(/liar\.docx is refused as a possible zip bomb: liar\.xml inflates past the 1000 bytes its header declares/);
  });

  it("counts all entries read against one budget", async () => {
    const bytes = writeZip([
      { name: "one.xml", data: "a".repeat(600_000) },
      { name: "two.xml", data: "b".repeat(600_000) },
    ]);
    const error = await rejection(
      withZip("two.xlsx", "XLSX", bytes, { maxInflatedBytes: MiB }, async (zip) => {
        await zip.read("one.xml");
        await zip.read("two.xml");
      }),
    );
    expect(error.message).toMatch(/two\.xml declares .* past the 1\.0 MiB/);
  });

  it("refuses a large entry with an extreme compression ratio, and too many entries", async () => {
    const bytes = writeZip([{ name: "zeros.bin", data: new Uint8Array(8 * MiB) }]);
    const ratio = await rejection(withZip("r.pptx", "PPTX", bytes, { maxInflatedBytes: 100 * MiB }, (zip) => zip.read("zeros.bin")));
    expect(ratio.message).toMatch(/zeros\.bin inflates \d+ times .* more than the 1000 times/);
    const many = writeZip(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.txt`, data: "x" })));
    const count = await rejection(ZipArchive.open("m.epub", "EPUB", many, { maxInflatedBytes: MiB, maxEntries: 20 }));
    expect(count.message).toMatch(/m\.epub has 30 entries in its ZIP container, more than the 20/);
  });

  it("refuses an entry with a damaged deflate stream", async () => {
    const bytes = writeZip([{ name: "a.xml", data: "x".repeat(5000) }]);
    // Corrupt the compressed data just after the 30-byte local header and the 5-byte name.
    bytes[36] ^= 0xff;
    bytes[37] ^= 0xff;
    const error = await rejection(withZip("d.docx", "DOCX", bytes, { maxInflatedBytes: MiB }, (zip) => zip.read("a.xml")));
    expect(error.name).toBe("DocumentParseError");
    expect(error.message).toMatch(/d\.docx/);
  });
});

describe("resolvePartPath", () => {
  it("resolves relationship targets against the naming part", () => {
    expect(resolvePartPath("word/document.xml", "media/image1.png")).toBe("word/media/image1.png");
    expect(resolvePartPath("ppt/slides/slide1.xml", "../slideLayouts/slideLayout2.xml")).toBe("ppt/slideLayouts/slideLayout2.xml");
    expect(resolvePartPath("word/document.xml", "/word/styles.xml")).toBe("word/styles.xml");
    expect(resolvePartPath("", "word/document.xml")).toBe("word/document.xml");
  });
});
