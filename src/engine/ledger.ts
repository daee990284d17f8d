/**
 * What a run gathers from its components besides outputs: model tokens (summed into
 * workflow_finished.usage) and retrieved references (sent with the next message_end).
 */
import type { ReferenceChunk, ReferenceDocument, UsageReport } from "../components/types.js";
import type { TokenUsage } from "./events.js";

export interface ReferenceBucket {
  chunks: ReferenceChunk[];
  doc_aggs: ReferenceDocument[];
}

export function emptyReferences(): ReferenceBucket {
  return { chunks: [], doc_aggs: [] };
}

function count(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** One model call: its tokens are added and `calls` grows by one. */
export function addUsage(total: TokenUsage, usage: UsageReport): void {
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  total.prompt_tokens += prompt;
  total.completion_tokens += completion;
  total.total_tokens += usage.total_tokens === undefined ? prompt + completion : count(usage.total_tokens);
  total.calls += 1;
}

/**
 * Add chunks (deduplicated by id; RAGFlow keys them by a hash modulo 500, so different chunks
 * overwrite each other) and documents (counts merged by doc_id).
 */
export function addReferences(bucket: ReferenceBucket, chunks: readonly ReferenceChunk[], documents: readonly ReferenceDocument[]): void {
  const seen = new Set(bucket.chunks.map((c) => c.id));
  for (const chunk of chunks) {
    if (seen.has(chunk.id)) continue;
    seen.add(chunk.id);
    bucket.chunks.push({ ...chunk });
  }
  for (const document of documents) {
    const existing = bucket.doc_aggs.find((d) => d.doc_id === document.doc_id);
    if (existing) existing.count += count(document.count);
    else bucket.doc_aggs.push({ ...document });
  }
}
