/**
 * Searching a local knowledge base and scoring the hits.
 *
 * RAGFlow scores a chunk as `w · term similarity + (1 − w) · vector similarity`, with
 * w = keywords_similarity_weight. Local knowledge bases have no embeddings, so the second part is
 * the chunk's BM25 score relative to the best score of the search (the best hit gets 1):
 *
 *   similarity = w · (query terms found in the chunk / query terms) + (1 − w) · (BM25 / best BM25)
 *
 * Both parts are in [0, 1], so the similarity is too. A chunk's title (its file name and heading
 * path) counts twice as much as its body in BM25. Query terms of four letters or more also match
 * longer words they begin ("pass" finds "password").
 */
import type { LocalIndex } from "./local-index.js";
import { queryTerms } from "./tokenize.js";
import type { RetrievedChunk, SearchOptions } from "./types.js";

export function searchLocalIndex(index: LocalIndex, datasetId: string, options: Pick<SearchOptions, "query" | "topK" | "keywordsWeight">): RetrievedChunk[] {
  const terms = queryTerms(options.query);
  if (terms.length === 0) return [];
  const hits = index.search
    .search(options.query, { boost: { title: 2 }, prefix: (term) => term.length >= 4, combineWith: "OR" })
    .slice(0, Math.max(1, options.topK));
  if (hits.length === 0) return [];
  const best = hits[0].score;
  const w = Math.min(1, Math.max(0, options.keywordsWeight));
  return hits.map((hit) => {
    const chunk = index.chunks[hit.id as number];
    const termSimilarity = new Set(hit.queryTerms).size / terms.length;
    const rank = best > 0 ? hit.score / best : 0;
    return {
      id: chunk.id,
      content: chunk.content,
      document_id: chunk.documentId,
      document_name: chunk.documentName,
      dataset_id: datasetId,
      similarity: Math.min(1, w * Math.min(1, termSimilarity) + (1 - w) * rank),
      term_similarity: Math.min(1, termSimilarity),
      ...(chunk.section !== "" ? { section: chunk.section } : {}),
    };
  });
}
