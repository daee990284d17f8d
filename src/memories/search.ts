/**
 * Searching memories (RAGFlow's query_message): the messages of the chosen memories, of one user
 * when `user_id` is set, scored against the query as a local knowledge base without an embedding
 * model scores its chunks (knowledge/hybrid.ts: BM25 candidates, RAGFlow's term similarity),
 * filtered by the threshold and cut to top_n, best first.
 */
import { scoreCandidates } from "../knowledge/hybrid.js";
import type { BuiltIndex, IndexedChunk } from "../knowledge/indexer.js";
import { KeywordIndex } from "../knowledge/keyword-index.js";
import { effectiveThreshold } from "../knowledge/similarity.js";
import { termsOf } from "../knowledge/tokenize.js";
import type { TenantMemories } from "./scope.js";
import type { MemoryMessage } from "../backends/contracts.js";

export interface MemoryQuery {
  query: string;
  topN: number;
  topK: number;
  similarityThreshold: number;
  keywordsWeight: number;
  /** Only this user's messages ("" or undefined: everyone's). */
  userId?: string;
  signal?: AbortSignal;
}

export interface MemoryHit {
  message: MemoryMessage;
  similarity: number;
}

/** The messages as a keyword index, each message one chunk. */
export function memoryIndex(messages: readonly MemoryMessage[]): BuiltIndex {
  const chunks: IndexedChunk[] = messages.map((m) => ({ id: m.message_id, documentId: m.memory_id, documentName: m.memory_id, section: "", content: m.content }));
  return {
    dir: "",
    chunks,
    keywords: new KeywordIndex(messages.map((m) => ({ content: termsOf(m.content), title: [] }))),
    vectors: undefined,
    model: undefined,
    signature: "",
  };
}

/** Search one tenant's memories (ids are looked up in that tenant's scope only). */
export async function searchMemories(store: Pick<TenantMemories, "messages">, memoryIds: readonly string[], query: MemoryQuery): Promise<MemoryHit[]> {
  const lists = await Promise.all(memoryIds.map((id) => store.messages(id)));
  const messages = lists.flat().filter((m) => !query.userId || m.user_id === query.userId);
  if (messages.length === 0) return [];
  const byId = new Map(messages.map((m) => [m.message_id, m]));
  const scored = await scoreCandidates(memoryIndex(messages), { query: query.query, topK: query.topK, similarityThreshold: query.similarityThreshold, keywordsWeight: query.keywordsWeight, signal: query.signal });
  const threshold = effectiveThreshold(query.keywordsWeight, query.similarityThreshold);
  return scored
    .filter((s) => s.similarity >= threshold && s.similarity > 0)
    .slice(0, Math.max(0, query.topN))
    .map((s) => ({ message: byId.get(s.chunk.id)!, similarity: s.similarity }));
}

/** `formalized_content` of memory hits: their contents, one after another (RAGFlow's memory_prompt). */
export function formatMemories(hits: readonly MemoryHit[]): string {
  return hits.map((h) => h.message.content).join("\n");
}
