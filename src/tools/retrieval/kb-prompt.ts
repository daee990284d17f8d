/**
 * The text a model reads for retrieved chunks, in the style of RAGFlow's kb_prompt: one block per
 * chunk with its citation id, the document's name, the section and the content.
 *
 *   ID: 201734
 *   ├── Title: guide/passwords.md
 *   ├── Section: Accounts > Reset
 *   └── Content:
 *   ## Reset …
 */
import { createHash } from "node:crypto";
import type { ReferenceChunk } from "../../components/types.js";

/**
 * The number a model cites a chunk by ([ID:n]): stable for a chunk id. RAGFlow takes the chunk
 * id's hash modulo 500, where two chunks of one answer collide easily; a million makes that rare.
 */
export function citationId(chunkId: string): number {
  return Number.parseInt(createHash("sha1").update(chunkId).digest("hex").slice(0, 12), 16) % 1_000_000;
}

/** One header line; newlines inside a value are folded to spaces. Empty values draw nothing. */
function node(label: string, value: unknown): string {
  if (value === undefined || value === null) return "";
  const line = String(value).replace(/\n+/g, " ");
  return line === "" ? "" : `\n├── ${label}: ${line}`;
}

function formatChunk(chunk: ReferenceChunk): string {
  return (
    `\nID: ${citationId(chunk.id)}` +
    node("Title", chunk.document_name) +
    node("Section", chunk.section) +
    node("URL", chunk.url) +
    `\n└── Content:\n${chunk.content}`
  );
}

export function formatChunks(chunks: readonly ReferenceChunk[]): string {
  return chunks.map(formatChunk).join("\n");
}
