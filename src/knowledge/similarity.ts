/**
 * RAGFlow's scores, as rag/nlp/query.py (FulltextQueryer) and rag/nlp/search.py (Dealer.retrieval,
 * Dealer.rerank, Dealer.rerank_by_model) compute them.
 *
 * Term similarity (`token_similarity`): each query term gets a weight (term_weight.py); the query
 * becomes a bag of its terms at 0.4 × weight and of each pair of neighbouring terms at
 * 0.6 × the larger weight of the two; the similarity is the share of that bag's weight that the
 * chunk holds (a term anywhere in its content or title, a pair as neighbours):
 *
 *   term_similarity = Σ weight of the query's terms and pairs found in the chunk / Σ all weights
 *
 * Term weights: RAGFlow multiplies two IDFs read from its dictionary files (word frequency in a
 * large corpus and document frequency), `idf(s, N) = log10(10 + (N − s + 0.5) / (s + 0.5))`,
 * by named-entity and part-of-speech factors. Those dictionaries are Chinese-centred and not
 * ours to ship, so here the document frequency is the knowledge base's own (s = chunks holding
 * the term, N = chunks), with the same formula, and of the factors the two that need no
 * dictionary: numbers ×2, words of one or two letters ×0.01. The weights are then normalized to
 * sum to 1, as RAGFlow does.
 *
 * The blend (`hybrid_similarity`, `rerank_with_knn`):
 *
 *   similarity = keywords_similarity_weight × term_similarity
 *              + (1 − keywords_similarity_weight) × vector_similarity
 *
 * where vector_similarity is the cosine of the query's and the chunk's embeddings — or, with a
 * rerank model, the reranker's score for the chunk (rerank_by_model).
 */
import type { KeywordIndex } from "./keyword-index.js";

/** term_weight.py, Dealer.weights.idf. */
export function idf(frequency: number, total: number): number {
  return Math.log10(10 + (total - frequency + 0.5) / (frequency + 0.5));
}

/** term_weight.py's `ner` factors that need no dictionary. */
function entityFactor(term: string): number {
  if (/^[0-9,.]{2,}$/.test(term)) return 2;
  if (/^[a-z]{1,2}$/.test(term)) return 0.01;
  return 1;
}

/** The query's terms with their weights, summing to 1 (term_weight.py, `weights(preprocess=False)`). */
export function termWeights(terms: readonly string[], index: KeywordIndex): Array<{ term: string; weight: number }> {
  const raw = terms.map((term) => ({ term, weight: idf(index.documentFrequency(term), index.size) * entityFactor(term) }));
  const sum = raw.reduce((s, t) => s + t.weight, 0);
  return sum > 0 ? raw.map((t) => ({ term: t.term, weight: t.weight / sum })) : raw;
}

/** The weighted bag `token_similarity` builds from the query: single terms and neighbour pairs. */
interface QueryBag {
  terms: Map<string, number>;
  pairs: Array<{ a: string; b: string; weight: number }>;
  total: number;
}

export function queryBag(weighted: ReadonlyArray<{ term: string; weight: number }>): QueryBag {
  const terms = new Map<string, number>();
  const pairs = new Map<string, { a: string; b: string; weight: number }>();
  let total = 0;
  weighted.forEach(({ term, weight }, i) => {
    terms.set(term, (terms.get(term) ?? 0) + weight * 0.4);
    total += weight * 0.4;
    const next = weighted[i + 1];
    if (next) {
      const key = `${term} ${next.term}`;
      const pair = pairs.get(key) ?? { a: term, b: next.term, weight: 0 };
      pair.weight += Math.max(weight, next.weight) * 0.6;
      pairs.set(key, pair);
      total += Math.max(weight, next.weight) * 0.6;
    }
  });
  return { terms, pairs: [...pairs.values()], total };
}

/** query.py `similarity`: the share of the bag's weight that chunk `doc` holds (1e-9 keeps 0/0 at 0). */
export function termSimilarity(bag: QueryBag, index: KeywordIndex, doc: number): number {
  let found = 1e-9;
  for (const [term, weight] of bag.terms) if (index.has(doc, term)) found += weight;
  for (const { a, b, weight } of bag.pairs) if (index.hasPair(doc, a, b)) found += weight;
  return found / (bag.total + 1e-9);
}

/** The blend, with w = keywords_similarity_weight. */
export function blend(keywordsWeight: number, termSim: number, vectorSim: number): number {
  return keywordsWeight * termSim + (1 - keywordsWeight) * vectorSim;
}

/**
 * The threshold RAGFlow applies after scoring (Dealer.retrieval): none when the vector weight is 0,
 * since "similarity_threshold is not meaningful for term-only scores".
 */
export function effectiveThreshold(keywordsWeight: number, similarityThreshold: number): number {
  return 1 - keywordsWeight <= 0 ? 0 : similarityThreshold;
}

/**
 * How many of the best candidates a reranker sees (Dealer._rerank_window): about 64, a whole
 * number of pages of top_n, and no more than top_k (rounded up to a page).
 */
export function rerankWindow(topN: number, topK: number): number {
  if (topN <= 1) return topK > 0 ? Math.min(30, topK) : 30;
  let window = Math.ceil(64 / topN) * topN;
  if (topK > 0) window = Math.min(window, Math.ceil(topK / topN) * topN);
  return window;
}
