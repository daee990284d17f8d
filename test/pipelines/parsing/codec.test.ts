/** find_codec: marks, strict UTF-8, UTF-16 by zero bytes, the detector's guesses, binary and undecodable bytes. */
import { describe, expect, it } from "vitest";
import { decodeDocumentText, findCodec } from "../../../src/pipelines/parsing/codec.js";

const hex = (text: string) => Uint8Array.from(Buffer.from(text.replace(/\s/g, ""), "hex"));
const utf16le = (text: string) => new Uint8Array(Uint16Array.from([...text].map((c) => c.charCodeAt(0))).buffer);

describe("findCodec", () => {
  it("follows a byte-order mark and drops it", async () => {
    expect(await decodeDocumentText("a.txt", hex("efbbbf 68 69"))).toEqual({ text: "hi", encoding: "utf-8" });
    expect((await decodeDocumentText("a.txt", new Uint8Array([0xff, 0xfe, ...utf16le("hé")]))).text).toBe("hé");
    expect((await decodeDocumentText("a.txt", hex("feff 0068 00e9"))).text).toBe("hé");
  });

  it("refuses UTF-32, naming it", async () => {
    await expect(findCodec("a.txt", hex("fffe0000 68000000"))).rejects.toThrow(/UTF-32/);
  });

  it("takes valid UTF-8, ASCII included", async () => {
    expect(await findCodec("a.txt", new TextEncoder().encode("plain ascii"))).toEqual({ encoding: "utf-8", evidence: "utf-8" });
    expect(await findCodec("a.txt", new TextEncoder().encode("naïve café"))).toEqual({ encoding: "utf-8", evidence: "utf-8" });
  });

  it("recognises UTF-16 without a mark by its zero bytes", async () => {
    expect(await findCodec("a.txt", utf16le("plain text in UTF-16"))).toMatchObject({ encoding: "utf-16le" });
  });

  it("reads UTF-8 with a rare bad byte as UTF-8, saying how many were replaced", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("é".repeat(800)), 0xff, ...new TextEncoder().encode("fin")]);
    const decoded = await decodeDocumentText("a.txt", bytes);
    expect(decoded.text.endsWith("\ufffdfin")).toBe(true);
    expect(decoded.warning).toMatch(/1 byte that are not valid UTF-8|1 byte .*U\+FFFD/);
  });

  it("guesses GBK, Big5, Shift_JIS, windows-1252 and KOI8-R text", async () => {
    // "这是中文文本，用于测试编码检测。" in GBK.
    expect(await decodeDocumentText("a.txt", hex("d5e2cac7d6d0cec4cec4b1bea3acd3c3d3dab2e2cad4b1e0c2ebbcecb2e2a1a3"))).toMatchObject({ text: "这是中文文本，用于测试编码检测。", encoding: "gb18030" });
    // "這是第一段中文。逗號不是分隔符，但句號是！" in Big5.
    expect(await decodeDocumentText("a.txt", hex("b36fac4fb2c4a440acc3a4a4a4e5a143b37bb8b9a4a3ac4fa4c0b96ab2c5a141a6fda5798bb9ac4fa149"))).toMatchObject({ encoding: "big5" });
    // "これは日本語のテキストです。漢字とひらがな。" in Shift_JIS.
    expect(await decodeDocumentText("a.txt", hex("82b182ea82cd93fa967b8cea82cc8365834c8358836782c582b781428abf8e9a82c682d082e782aa82c8814"+"2"))).toMatchObject({
      text: "これは日本語のテキストです。漢字とひらがな。",
      encoding: "shift_jis",
    });
    const latin = Uint8Array.from(Buffer.from("Le café est très chaud, et la crème brûlée aussi. Déjà vu à l'école.", "latin1"));
    expect(await decodeDocumentText("a.txt", latin)).toMatchObject({ text: "Le café est très chaud, et la crème brûlée aussi. Déjà vu à l'école.", encoding: "windows-1252" });
    // "Привет, как дела? Это русский текст для проверки." in KOI8-R.
    const koi8 = hex("f0d2c9d7c5d42c20cbc1cb20c4c5ccc13f20fcd4cf20d2d5d3d3cbc9ca20d4c5cbd3d420c4ccd120d0d2cfd7c5d2cbc92e");
    expect(await decodeDocumentText("a.txt", koi8)).toMatchObject({ text: "Привет, как дела? Это русский текст для проверки.", encoding: "koi8-r" });
  });

  it("prefers GB when the detector is unsure, as RAGFlow's codec list does", async () => {
    // "中文网页": too short for the detector.
    expect(await decodeDocumentText("a.txt", hex("d6d0cec4cdf8d2b3"))).toMatchObject({ text: "中文网页", encoding: "gb18030" });
  });

  it("refuses binary data, naming the document", async () => {
    await expect(findCodec("image.txt", hex("89504e470d0a1a0a0000000d49484452"))).rejects.toMatchObject({ name: "DocumentParseError", document: "image.txt", message: expect.stringMatching(/binary/) });
  });
});
