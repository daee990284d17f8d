/**
 * Reading a document for the text parsers within ParseLimits: its bytes, streamed and counted
 * so that a source whose announced size is wrong still cannot exceed `maxFileBytes`, and the
 * produced texts kept under `maxTextChars`.
 */
import { DocumentParseError, type DocumentSource, type ParseLimits } from "../payload.js";

function tooLarge(name: string, size: number, limits: ParseLimits): DocumentParseError {
  return new DocumentParseError(name, `${name} is ${size} bytes, over the limit of ${limits.maxFileBytes} bytes per document (the config's pipelines.limits.maxFileBytes)`);
}

/** Fails before any read when the announced size is over the limit. */
export function checkDocumentSize(source: DocumentSource, limits: ParseLimits): void {
  if (source.size > limits.maxFileBytes) throw tooLarge(source.name, source.size, limits);
}

/** The whole document, read as a stream and stopped as soon as it passes `maxFileBytes`. */
export async function readDocumentBytes(source: DocumentSource, limits: ParseLimits, signal: AbortSignal): Promise<Uint8Array> {
  checkDocumentSize(source, limits);
  const pieces: Uint8Array[] = [];
  let total = 0;
  for await (const piece of source.stream()) {
    signal.throwIfAborted();
    total += piece.byteLength;
    if (total > limits.maxFileBytes) throw tooLarge(source.name, total, limits);
    pieces.push(piece);
  }
  if (pieces.length === 1) return pieces[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.byteLength;
  }
  return bytes;
}

/**
 * Texts kept in order until their characters reach `maxTextChars`: the one that crosses the limit
 * is cut there and the rest are left out, with one warning naming the limit.
 */
export function limitTexts(document: string, texts: string[], limits: ParseLimits, warn: (message: string) => void): string[] {
  let room = limits.maxTextChars;
  const kept: string[] = [];
  for (const text of texts) {
    if (text.length <= room) {
      kept.push(text);
      room -= text.length;
      continue;
    }
    // Never between the two halves of a surrogate pair.
    const end = /[\uD800-\uDBFF]/.test(text[room - 1] ?? "") ? room - 1 : room;
    if (end > 0) kept.push(text.slice(0, end));
    warn(`${document}: the parsed text reached ${limits.maxTextChars} characters (the config's pipelines.limits.maxTextChars); the rest of the document is left out`);
    break;
  }
  return kept;
}

/**
 * The document's text as it streams in, for formats that must be UTF-8 (JSON, JSON Lines): a
 * UTF-16 byte-order mark is honoured, a UTF-8 one dropped, and bytes that are not valid UTF-8
 * fail the document. Reading stops at `maxFileBytes`.
 */
export async function* streamDocumentUtf8(source: DocumentSource, limits: ParseLimits, signal: AbortSignal, why: string): AsyncGenerator<string> {
  checkDocumentSize(source, limits);
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  let total = 0;
  let head: Uint8Array = new Uint8Array(0);
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    try {
      return decoder!.decode(bytes, { stream });
    } catch {
      throw new DocumentParseError(source.name, `${source.name} is not valid ${decoder!.encoding.toUpperCase()} text (in its first ${total} bytes): ${why}`);
    }
  };
  for await (const piece of source.stream()) {
    signal.throwIfAborted();
    total += piece.byteLength;
    if (total > limits.maxFileBytes) throw tooLarge(source.name, total, limits);
    if (!decoder) {
      // The encoding is told by the first two bytes, which may come in separate pieces.
      head = concat(head, piece);
      if (head.length < 2) continue;
      const encoding = head[0] === 0xff && head[1] === 0xfe ? "utf-16le" : head[0] === 0xfe && head[1] === 0xff ? "utf-16be" : "utf-8";
      decoder = new TextDecoder(encoding, { fatal: true });
      yield decode(head, true);
      continue;
    }
    yield decode(piece, true);
  }
  if (!decoder) {
    // A file of fewer than two bytes.
    decoder = new TextDecoder("utf-8", { fatal: true });
    yield decode(head, false);
    return;
  }
  yield decode(new Uint8Array(0), false);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
