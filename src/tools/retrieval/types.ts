/**
 * What a knowledge base search takes and gives back, whatever the backend (a local folder or a
 * RAGFlow server).
 */
import type { ReferenceChunk, ReferenceDocument } from "../../components/types.js";

/** A retrieved chunk in the shape of RAGFlow's retrieval API (and of message_end references). */
export interface RetrievedChunk extends ReferenceChunk {
  document_id: string;
  document_name: string;
  dataset_id: string;
  /** In [0, 1]: what similarity_threshold filters and results are ordered by. */
  similarity: number;
  /** In [0, 1]: RAGFlow's term similarity (the share of the query's weighted terms the chunk holds). */
  term_similarity?: number;
  /** The cosine of the embeddings, or the reranker's score when reranked. */
  vector_similarity?: number;
}

export interface SearchResult {
  chunks: RetrievedChunk[];
  documents: ReferenceDocument[];
}

/** The Retrieval params a search needs, already read as numbers. */
export interface SearchOptions {
  query: string;
  /** Chunks returned. */
  topN: number;
  /** Candidate chunks considered before the threshold and top_n apply. */
  topK: number;
  similarityThreshold: number;
  /** keywords_similarity_weight: the weight of term similarity; the rest goes to vector similarity. */
  keywordsWeight: number;
  rerankId: string;
  useKg: boolean;
  tocEnhance: boolean;
  crossLanguages: string[];
  /** What local knowledge bases are searched with: the query in the cross_languages (default: query). */
  localQuery?: string;
  signal: AbortSignal;
  /** Told the tokens that embedding the query and reranking cost. */
  onTokens?: (tokens: number) => void;
}

/** Documents of a chunk list, counted (RAGFlow doc_aggs), in order of first appearance. */
export function documentAggregates(chunks: readonly RetrievedChunk[]): ReferenceDocument[] {
  const byId = new Map<string, ReferenceDocument>();
  for (const chunk of chunks) {
    const doc = byId.get(chunk.document_id);
    if (doc) doc.count += 1;
    else byId.set(chunk.document_id, { doc_id: chunk.document_id, doc_name: chunk.document_name, count: 1, ...(chunk.url ? { url: chunk.url } : {}) });
  }
  return [...byId.values()];
}
