/**
 * Cuts the text of a local knowledge base's files into chunks: Markdown by headings (a long
 * section by paragraphs), plain text by paragraphs, JSON one chunk per element or record. No
 * chunk is longer than MAX_CHUNK_CHARS: longer text is cut at the best break before the limit.
 * (documents.ts turns the other formats into one of these.)
 */
import { isPlainObject } from "../util/values.js";

/** About 500 tokens, RAGFlow's default chunk size. */
export const MAX_CHUNK_CHARS = 2000;

/** One chunk of a file, before it is indexed. */
export interface TextChunk {
  /** Where in the document it is: the Markdown heading path or the JSON record's name; "" for none. */
  section: string;
  /** The text a model reads. */
  content: string;
}

/** Where to cut text that is too long: the last paragraph, line, sentence or word break before `max`. */
function breakIndex(text: string, max: number): number {
  const window = text.slice(0, max + 1);
  const floor = Math.floor(max / 2);
  const candidates = [window.lastIndexOf("\n\n"), window.lastIndexOf("\n")];
  const sentence = [...window.matchAll(/[.!?。！？;；](?=\s|$)|[。！？]/gu)].at(-1);
  if (sentence?.index !== undefined) candidates.push(sentence.index + sentence[0].length);
  candidates.push(window.search(/\s\S*$/u));
  for (const at of candidates) if (at >= floor) return at;
  return max;
}

/** Text cut into pieces of at most `max` characters, each trimmed, none empty. */
export function splitToCap(text: string, max = MAX_CHUNK_CHARS): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const at = breakIndex(rest, max);
    const piece = rest.slice(0, at).trim();
    if (piece !== "") pieces.push(piece);
    rest = rest.slice(at).trim();
  }
  if (rest !== "") pieces.push(rest);
  return pieces;
}

/** Paragraphs (blocks between blank lines) packed together into pieces of at most `max` characters. */
function packParagraphs(paragraphs: readonly string[], max: number): string[] {
  const pieces: string[] = [];
  let current = "";
  for (const paragraph of paragraphs.flatMap((p) => splitToCap(p, max))) {
    if (current !== "" && current.length + 2 + paragraph.length > max) {
      pieces.push(current);
      current = "";
    }
    current = current === "" ? paragraph : `${current}\n\n${paragraph}`;
  }
  if (current !== "") pieces.push(current);
  return pieces;
}

/** Blocks of text separated by blank lines, blank lines inside fenced code kept. */
function paragraphsOf(lines: readonly string[]): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker.slice(0, 3) : null;
    if (fence === null && line.trim() === "") {
      if (current.length > 0) paragraphs.push(current.join("\n"));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) paragraphs.push(current.join("\n"));
  return paragraphs.filter((p) => p.trim() !== "");
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;

/** Markdown: one chunk per section (a heading and the text up to the next heading); long sections by paragraphs. */
export function chunkMarkdown(text: string, max = MAX_CHUNK_CHARS): TextChunk[] {
  const chunks: TextChunk[] = [];
  const path: Array<{ level: number; title: string }> = [];
  let heading: string | null = null;
  let body: string[] = [];
  let fence: string | null = null;

  const flush = () => {
    const paragraphs = paragraphsOf(body);
    const section = path.map((h) => h.title).join(" > ");
    if (paragraphs.length > 0) {
      // The heading line opens every piece of its section; a very long one is shortened to leave room.
      const room = heading === null ? max : Math.max(Math.floor(max / 2), max - heading.length - 2);
      const title = heading === null ? "" : heading.slice(0, max - room - 2);
      for (const piece of packParagraphs(paragraphs, room)) chunks.push({ section, content: title === "" ? piece : `${title}\n\n${piece}` });
    }
    body = [];
  };

  for (const line of text.split(/\r?\n/)) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker.slice(0, 3) : null;
    const match = fence === null ? HEADING.exec(line) : null;
    if (!match || match[2] === "") {
      body.push(line);
      continue;
    }
    flush();
    const level = match[1].length;
    while (path.length > 0 && path[path.length - 1].level >= level) path.pop();
    path.push({ level, title: match[2] });
    heading = line.trim();
  }
  flush();
  return chunks;
}

/** Plain text: one chunk per paragraph. */
export function chunkText(text: string, max = MAX_CHUNK_CHARS): TextChunk[] {
  return paragraphsOf(text.split(/\r?\n/)).flatMap((p) => splitToCap(p, max).map((content) => ({ section: "", content })));
}

const NAME_FIELDS = ["title", "name", "question", "heading", "id"];

/** A JSON record as text: "key: value" lines for an object, the value itself otherwise. */
function recordText(value: unknown): string {
  if (typeof value === "string") return value;
  if (isPlainObject(value)) {
    return Object.entries(value)
      .map(([key, v]) => `${key}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join("\n");
  }
  return JSON.stringify(value);
}

/** A record's own name: its first title-like string field. */
function recordName(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const key of NAME_FIELDS) {
    const v = value[key];
    if ((typeof v === "string" && v.trim() !== "") || typeof v === "number") return String(v);
  }
  return undefined;
}

/**
 * JSON: a top-level array gives one chunk per element; a top-level object one chunk per entry,
 * except that an entry holding an array gives one chunk per element of it. Throws on invalid JSON.
 */
export function chunkJson(text: string, max = MAX_CHUNK_CHARS): TextChunk[] {
  const data: unknown = JSON.parse(text);
  const records: Array<{ section: string; value: unknown }> = [];
  if (Array.isArray(data)) {
    data.forEach((value, i) => records.push({ section: recordName(value) ?? `[${i}]`, value }));
  } else if (isPlainObject(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (Array.isArray(value)) value.forEach((item, i) => records.push({ section: `${key} > ${recordName(item) ?? `[${i}]`}`, value: item }));
      else records.push({ section: key, value: isPlainObject(value) || Array.isArray(value) ? value : `${key}: ${recordText(value)}` });
    }
  } else if (data !== null) {
    records.push({ section: "", value: data });
  }
  return records.flatMap(({ section, value }) => splitToCap(recordText(value), max).map((content) => ({ section, content })));
}
