/**
 * Which character encoding a text document is in, and its text (research/ragflow-pipelines.md
 * §5.4, RAGFlow's `find_codec`). RAGFlow asks chardet only whether the start is ASCII, then takes
 * the first codec of a fixed list that decodes the bytes, so a Latin-1 file of even length comes
 * out as UTF-16 and anything else that is not UTF-8 or GBK as EBCDIC (cp037), decoded with errors
 * ignored. Here the order is: a byte-order mark; strict UTF-8; UTF-16 recognised by its zero
 * bytes; then the detector's candidates (chardet, loaded when a document is not UTF-8), each
 * accepted only if it decodes the whole document without error, GB18030 first when the detector
 * is unsure (as in RAGFlow's list). A document none of them decodes is refused instead of being
 * read as garbage.
 */
import { DocumentParseError } from "../payload.js";
import { importPackage } from "../../util/optional-package.js";

/** How the encoding was found: said by the file, proved by decoding, or guessed by the detector. */
export type CodecEvidence = "bom" | "utf-8" | "utf-16-zeros" | "detected" | "utf-8-repaired";

export interface TextCodec {
  /** A WHATWG encoding label TextDecoder knows (`utf-8`, `gb18030`, `windows-1252`…). */
  encoding: string;
  evidence: CodecEvidence;
  /** The detector's confidence (0–100) when evidence is `detected`. */
  confidence?: number;
  /** Bytes replaced with U+FFFD when evidence is `utf-8-repaired`. */
  replaced?: number;
}

export interface DecodedText {
  text: string;
  encoding: string;
  /** Something the user should know about the decoding (a guess, bytes replaced). */
  warning?: string;
}

/** Bytes the detector looks at: enough for its statistics, bounded for a 100 MB file. */
const DETECTOR_SAMPLE_BYTES = 64 * 1024;
/** Like git, a NUL in the first 8000 bytes (outside UTF-16) marks a binary file. */
const BINARY_SNIFF_BYTES = 8000;
/** The detector's confidence (0–100) from which its first guess is taken over RAGFlow's order. */
const CONFIDENT = 50;
/** A UTF-8 file with at most one bad byte in this many is UTF-8 with a few damaged bytes. */
const REPAIRABLE_UTF8_RATIO = 1000;

/** chardet's names that TextDecoder decodes, by the label to give it. ISO-2022-CN/KR and the
 * generic `mbcs`/`sbcs` have no WHATWG decoder, so a candidate naming them is passed over. */
const DETECTOR_LABELS: Record<string, string> = {
  "GB18030": "gb18030",
  "Big5": "big5",
  "Shift_JIS": "shift_jis",
  "EUC-JP": "euc-jp",
  "EUC-KR": "euc-kr",
  "ISO-2022-JP": "iso-2022-jp",
  "ISO-8859-1": "windows-1252",
  "ISO-8859-2": "iso-8859-2",
  "ISO-8859-5": "iso-8859-5",
  "ISO-8859-6": "iso-8859-6",
  "ISO-8859-7": "iso-8859-7",
  "ISO-8859-8": "iso-8859-8",
  "ISO-8859-9": "windows-1254",
  "KOI8-R": "koi8-r",
  "windows-874": "windows-874",
  "windows-1250": "windows-1250",
  "windows-1251": "windows-1251",
  "windows-1252": "windows-1252",
  "windows-1253": "windows-1253",
  "windows-1254": "windows-1254",
  "windows-1255": "windows-1255",
  "windows-1256": "windows-1256",
  "windows-1257": "windows-1257",
  "windows-1258": "windows-1258",
};

interface Chardet {
  analyse(buffer: Uint8Array): { confidence: number; name: string; lang?: string }[];
}

let chardet: Promise<Chardet> | undefined;
function loadChardet(): Promise<Chardet> {
  chardet ??= importPackage<Chardet & { default?: Chardet }>("chardet", "Detecting a text document's character encoding").then((m) => m.default ?? m);
  return chardet;
}

function decodes(bytes: Uint8Array, encoding: string): boolean {
  try {
    new TextDecoder(encoding, { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  // A UTF-32LE mark starts like UTF-16LE's; TextDecoder has no UTF-32, so it is named and refused.
  if (bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) return "utf-32le";
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) return "utf-32be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/**
 * UTF-16 without a mark, told by its zero bytes: text mostly in Latin script has a zero as every
 * other byte, at odd offsets for little-endian and even ones for big-endian.
 */
function utf16ByZeros(bytes: Uint8Array): string | undefined {
  const sample = bytes.subarray(0, Math.min(bytes.length, DETECTOR_SAMPLE_BYTES) & ~1);
  // Too few bytes say nothing: four bytes of binary can look like two UTF-16 characters.
  if (sample.length < 16) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  const pairs = sample.length / 2;
  if (oddZeros > pairs * 0.3 && evenZeros < pairs * 0.05) return "utf-16le";
  if (evenZeros > pairs * 0.3 && oddZeros < pairs * 0.05) return "utf-16be";
  return undefined;
}

function hasNul(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Characters a lenient UTF-8 decoding had to replace (a U+FFFD that was in the file counts too, rarely). */
function utf8Damage(bytes: Uint8Array): { replaced: number; multibyte: boolean } {
  const text = new TextDecoder("utf-8").decode(bytes);
  let replaced = 0;
  let multibyte = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd) replaced++;
    else if (code > 0x7f) multibyte = true;
  }
  return { replaced, multibyte };
}

/**
 * The encoding of a document's bytes, or a DocumentParseError when they are binary or no known
 * encoding decodes them. `document` names the file in the error.
 */
export async function findCodec(document: string, bytes: Uint8Array): Promise<TextCodec> {
  const bom = byteOrderMark(bytes);
  if (bom === "utf-32le" || bom === "utf-32be") {
    throw new DocumentParseError(document, `${document} is UTF-32 text (${bom.toUpperCase()} byte-order mark), which is not supported: save it as UTF-8`);
  }
  if (bom) return { encoding: bom, evidence: "bom" };
  const utf16 = utf16ByZeros(bytes);
  if (utf16 && decodes(bytes.length % 2 === 0 ? bytes : bytes.subarray(0, bytes.length - 1), utf16)) return { encoding: utf16, evidence: "utf-16-zeros" };
  if (hasNul(bytes)) {
    throw new DocumentParseError(document, `${document} holds binary data (a NUL byte in its first ${BINARY_SNIFF_BYTES} bytes), not text: give this file type a text file`);
  }
  if (decodes(bytes, "utf-8")) return { encoding: "utf-8", evidence: "utf-8" };
  const damage = utf8Damage(bytes);
  if (damage.multibyte && damage.replaced * REPAIRABLE_UTF8_RATIO <= bytes.length) return { encoding: "utf-8", evidence: "utf-8-repaired", replaced: damage.replaced };

  const { analyse } = await loadChardet();
  const candidates = analyse(bytes.subarray(0, DETECTOR_SAMPLE_BYTES));
  // A short or unusual text leaves the detector unsure; then RAGFlow's preference holds, GB
  // (GB18030 covers GB2312 and GBK, which it tries right after UTF-8) before the detector's guesses.
  const sure = (candidates[0]?.confidence ?? 0) >= CONFIDENT;
  const gb = candidates.find((candidate) => candidate.name === "GB18030") ?? { name: "GB18030", confidence: 0 };
  const order = sure ? candidates : [gb, ...candidates];
  for (const candidate of order) {
    const label = DETECTOR_LABELS[candidate.name];
    if (label && decodes(bytes, label)) return { encoding: label, evidence: "detected", confidence: candidate.confidence };
  }
  throw new DocumentParseError(document, `${document} is not valid UTF-8 and no other known character encoding decodes it: save it as UTF-8`);
}

/** The document's text in its encoding (a byte-order mark removed), with a warning for a guessed or repaired decoding. */
export async function decodeDocumentText(document: string, bytes: Uint8Array): Promise<DecodedText> {
  const codec = await findCodec(document, bytes);
  const input = codec.encoding.startsWith("utf-16") && bytes.length % 2 === 1 ? bytes.subarray(0, bytes.length - 1) : bytes;
  const text = new TextDecoder(codec.encoding).decode(input);
  if (codec.evidence === "utf-8-repaired") {
    const replaced = codec.replaced ?? 0;
    return { text, encoding: codec.encoding, warning: `${document}: ${replaced} byte${replaced === 1 ? "" : "s"} that are not valid UTF-8 were replaced with U+FFFD` };
  }
  if (codec.evidence === "detected") {
    return { text, encoding: codec.encoding, warning: `${document} is not UTF-8: read as ${codec.encoding}, a guess from its bytes (detector confidence ${codec.confidence}/100)` };
  }
  return { text, encoding: codec.encoding };
}
