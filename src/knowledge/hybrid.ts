/**
 * Scoring a query against one local knowledge base, as RAGFlow's Dealer.retrieval does against
 * its document store (rag/nlp/search.py):
 *
 * 1. candidates: the top_k chunks by keywords (BM25), and — unless keywords_similarity_weight is
 *    1, which asks for keywords only — the top_k chunks by vector cosine that reach
 *    similarity_threshold (RAGFlow's kNN query takes k = top_k and `similarity` =
 *    similarity_threshold);
 * 2. each candidate's term similarity and vector similarity (similarity.ts), blended by
 *    keywords_similarity_weight. A knowledge base without embeddings scores by term similarity
 *    alone, as RAGFlow's hybrid_similarity does when every cosine is 0.
 *
 * Reranking, the threshold and top_n come after the candidates of all knowledge bases are
 * together (tools/retrieval/search.ts).
 */
import type { BuiltIndex, IndexedChunk } from "./indexer.js";
import { blend, queryBag, termSimilarity, termWeights } from "./similarity.js";
import { termsOf } from "./tokenize.js";
import { topIndexes } from "./vector-index.js";

export interface HybridQuery {
  query: string;
  topK: number;
  similarityThreshold: number;
  keywordsWeight: number;
  signal?: AbortSignal;
  /** Told the tokens the query's embedding cost (counted into the run's usage). */
  onTokens?: (tokens: number) => void;
}

export interface ScoredChunk {
  chunk: IndexedChunk;
  termSimilarity: number;
  /** The cosine (0 without embeddings); a reranker's score once reranked. */
  vectorSimilarity: number;
  similarity: number;
}

/** The query's vector has another size than the index's: the model changed behind its name. */
export class QueryDimensionMismatch extends Error {}

/** The candidates of one knowledge base with their scores, best first. */
export async function scoreCandidates(index: BuiltIndex, query: HybridQuery): Promise<ScoredChunk[]> {
  const terms = termsOf(query.query);
  const w = Math.min(1, Math.max(0, query.keywordsWeight));
  const keywordHits = index.keywords.search(terms, query.topK);
  let cosines: Float32Array | undefined;
  const candidates = new Set(keywordHits.map((h) => h.index));
  if (index.vectors && index.model && w < 1 && index.chunks.length > 0) {
    const { vectors, tokens } = await index.model.embed([query.query], { signal: query.signal });
    query.onTokens?.(tokens);
    if (vectors[0].length !== index.vectors.dimensions) {
      throw new QueryDimensionMismatch(`dimension mismatch: ${index.model.label} gave the query a ${vectors[0].length}-dimensional vector, the index holds ${index.vectors.dimensions}-dimensional ones: rebuilding it`);
    }
    cosines = index.vectors.cosines(vectors[0]);
    for (const i of topIndexes(cosines, query.topK, query.similarityThreshold)) candidates.add(i);
  }
  const bag = queryBag(termWeights(terms, index.keywords));
  const scored: ScoredChunk[] = [];
  for (const i of candidates) {
    const termSim = terms.length > 0 ? termSimilarity(bag, index.keywords, i) : 0;
    const vectorSim = cosines ? cosines[i] : 0;
    scored.push({ chunk: index.chunks[i], termSimilarity: termSim, vectorSimilarity: vectorSim, similarity: cosines ? blend(w, termSim, vectorSim) : termSim });
  }
  return scored.sort((a, b) => b.similarity - a.similarity);
}
