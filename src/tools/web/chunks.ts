/**
 * Web results as retrieved chunks (RAGFlow ToolBase._retrieve_chunks): each hit with content
 * becomes a chunk and a source document, both recorded as references for the next
 * `message_end`, and the prompt text a model reads lists them as kb_prompt does.
 */
import { createHash } from "node:crypto";
import type { ReferenceChunk, ReferenceDocument } from "../../components/types.js";
import type { ToolContext } from "../types.js";

/** RAGFlow caps each web chunk at 10 000 characters. */
export const MAX_CHUNK_CHARS = 10_000;

/** A web hit, read through the tool's accessors. */
export interface WebHit {
  readonly title: string;
  readonly url: string;
  readonly content: string;
  /** The API's relevance score, when it gives one (RAGFlow uses 1 otherwise). */
  readonly score?: number;
}

/** RAGFlow's hash_str2int: the SHA-1 of the UTF-8 text, as an integer, modulo 10^8. */
export function hashStr2Int(text: string, mod = 100_000_000): number {
  const digest = createHash("sha1").update(text, "utf8").digest("hex");
  return Number(BigInt(`0x${digest}`) % BigInt(mod));
}

/** Inline base64 PNG images (Markdown), which only waste a model's context. */
const INLINE_IMAGE = /!?\[[a-z]+\]\(data:image\/png;base64,[ 0-9A-Za-z/_=+-]+\)/g;

/** The first `max` characters (code points, as Python slices), never half a surrogate pair. */
function firstChars(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join("");
}

interface WebChunks {
  chunks: ReferenceChunk[];
  documents: ReferenceDocument[];
}

/**
 * Hits → chunks. Hits without content are skipped. The id is the hash of the URL (of the content
 * when there is none), so the same page keeps its id across searches; a page listed twice is kept once.
 */
export function webChunks(hits: readonly WebHit[]): WebChunks {
  const chunks: ReferenceChunk[] = [];
  const documents: ReferenceDocument[] = [];
  const seen = new Set<string>();
  for (const hit of hits) {
    const content = firstChars(hit.content.replace(INLINE_IMAGE, ""), MAX_CHUNK_CHARS);
    if (content.trim() === "") continue;
    const id = String(hashStr2Int(hit.url !== "" ? hit.url : content));
    if (seen.has(id)) continue;
    seen.add(id);
    chunks.push({
      id,
      content,
      document_id: id,
      document_name: hit.title,
      similarity: hit.score ?? 1,
      url: hit.url,
    });
    documents.push({ doc_id: id, doc_name: hit.title, count: 1, url: hit.url });
  }
  return { chunks, documents };
}

/** One line of the chunk tree; empty values are left out, newlines flattened. */
function node(key: string, value: string): string {
  return value ? `\n├── ${key}: ${value.replace(/\n+/g, " ")}` : "";
}

/**
 * The prompt text listing chunks (RAGFlow kb_prompt with hash ids):
 * "\nID: <id>\n├── Title: …\n├── URL: …\n└── Content:\n<content>", one block per chunk, joined by "\n".
 * The ID is the chunk's own id, so a citation [ID:n] names exactly one recorded chunk.
 */
export function chunksPrompt(chunks: readonly ReferenceChunk[]): string {
  return chunks
    .map((chunk) => `\nID: ${chunk.id}${node("Title", chunk.document_name ?? "")}${node("URL", chunk.url ?? "")}\n└── Content:\n${chunk.content}`)
    .join("\n");
}

/** Record the hits as references and return the prompt text listing them. */
export function recordWebHits(ctx: ToolContext, hits: readonly WebHit[]): string {
  const { chunks, documents } = webChunks(hits);
  if (chunks.length > 0) ctx.addReferences(chunks, documents);
  return chunksPrompt(chunks);
}
