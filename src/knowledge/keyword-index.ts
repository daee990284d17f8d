/**
 * The keyword half of a local knowledge base: an inverted index over the chunks' terms, built in
 * memory from the terms cached with each chunk (a chunk's terms are its `content_ltks`, in
 * RAGFlow's words: tokenize.ts's terms joined by spaces).
 *
 * It answers three questions:
 * - which chunks match a query, best first, by BM25 over two fields (the title — file name and
 *   section — counting twice, like RAGFlow's title boost); query terms of four letters or more
 *   also match longer terms they begin, at a discount ("pass" finds "password");
 * - how many chunks hold a term (document frequency, for the term weights of similarity.ts);
 * - whether a chunk holds a term, or two terms next to each other (for the term similarity).
 *
 * Why not MiniSearch (which the project also has): its serialized index loads as slowly as it
 * builds (seconds for 10 000 chunks), and it cannot say whether two terms are adjacent.
 */

/** A chunk's terms as the index takes them. */
export interface ChunkTerms {
  /** The content's terms, in order (repeats kept: BM25 counts them). */
  content: readonly string[];
  /** The title's terms: file name and section. */
  title: readonly string[];
}

/** BM25 as Elasticsearch (RAGFlow's default store) sets it. */
const K1 = 1.2;
const B = 0.75;
const TITLE_BOOST = 2;
/** How much a prefix match counts beside an exact one (MiniSearch's own default). */
const PREFIX_WEIGHT = 0.375;
const MIN_PREFIX_LENGTH = 4;
/** Prefix matches per query term, at most (the shortest terms first). */
const MAX_PREFIX_EXPANSIONS = 50;

interface Postings {
  docs: Int32Array;
  /** Term frequency in the field. */
  tfs: Uint16Array;
}

/** Postings under construction: chunk indexes and counts, appended in chunk order. */
class PostingsBuilder {
  docs: number[] = [];
  tfs: number[] = [];
  add(doc: number): void {
    const last = this.docs.length - 1;
    if (last >= 0 && this.docs[last] === doc) this.tfs[last] = Math.min(0xffff, this.tfs[last] + 1);
    else {
      this.docs.push(doc);
      this.tfs.push(1);
    }
  }
  build(): Postings {
    return { docs: Int32Array.from(this.docs), tfs: Uint16Array.from(this.tfs) };
  }
}

export interface KeywordHit {
  index: number;
  score: number;
}

/** Binary search in sorted chunk indexes. */
function contains(docs: Int32Array, doc: number): boolean {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = docs[mid];
    if (v === doc) return true;
    if (v < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export class KeywordIndex {
  readonly size: number;
  private readonly content = new Map<string, Postings>();
  private readonly title = new Map<string, Postings>();
  /** Adjacent term pairs ("a b") of content and title, for the term similarity. */
  private readonly pairs = new Map<string, Int32Array>();
  private readonly contentLength: Uint32Array;
  private readonly titleLength: Uint32Array;
  private readonly avgContent: number;
  private readonly avgTitle: number;
  /** Every term, sorted, for prefix matching. */
  private readonly sortedTerms: string[];
  private readonly frequency = new Map<string, number>();

  constructor(chunks: readonly ChunkTerms[]) {
    this.size = chunks.length;
    this.contentLength = new Uint32Array(chunks.length);
    this.titleLength = new Uint32Array(chunks.length);
    const content = new Map<string, PostingsBuilder>();
    const title = new Map<string, PostingsBuilder>();
    const pairs = new Map<string, number[]>();
    const addTo = (map: Map<string, PostingsBuilder>, term: string, doc: number) => {
      let p = map.get(term);
      if (!p) map.set(term, (p = new PostingsBuilder()));
      p.add(doc);
    };
    const addPair = (a: string, b: string, doc: number) => {
      const key = `${a} ${b}`;
      let p = pairs.get(key);
      if (!p) pairs.set(key, (p = []));
      if (p[p.length - 1] !== doc) p.push(doc);
    };
    let totalContent = 0;
    let totalTitle = 0;
    chunks.forEach((chunk, doc) => {
      const seen = new Set<string>();
      for (const [field, map, lengths] of [
        [chunk.content, content, this.contentLength],
        [chunk.title, title, this.titleLength],
      ] as const) {
        lengths[doc] = field.length;
        for (let i = 0; i < field.length; i++) {
          addTo(map, field[i], doc);
          seen.add(field[i]);
          if (i + 1 < field.length) addPair(field[i], field[i + 1], doc);
        }
      }
      totalContent += chunk.content.length;
      totalTitle += chunk.title.length;
      for (const term of seen) this.frequency.set(term, (this.frequency.get(term) ?? 0) + 1);
    });
    for (const [term, p] of content) this.content.set(term, p.build());
    for (const [term, p] of title) this.title.set(term, p.build());
    for (const [key, docs] of pairs) this.pairs.set(key, Int32Array.from(docs));
    this.avgContent = chunks.length > 0 ? totalContent / chunks.length : 0;
    this.avgTitle = chunks.length > 0 ? totalTitle / chunks.length : 0;
    this.sortedTerms = [...this.frequency.keys()].sort();
  }

  /** Chunks that hold the term, in any field. */
  documentFrequency(term: string): number {
    return this.frequency.get(term) ?? 0;
  }

  /** Whether chunk `doc` holds `term` (in any field). */
  has(doc: number, term: string): boolean {
    const c = this.content.get(term);
    if (c && contains(c.docs, doc)) return true;
    const t = this.title.get(term);
    return t !== undefined && contains(t.docs, doc);
  }

  /** Whether chunk `doc` holds `a` directly followed by `b`. */
  hasPair(doc: number, a: string, b: string): boolean {
    const docs = this.pairs.get(`${a} ${b}`);
    return docs !== undefined && contains(docs, doc);
  }

  /** Indexed terms that start with `prefix` (other than itself), shortest first. */
  private expansions(prefix: string): string[] {
    let lo = 0;
    let hi = this.sortedTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sortedTerms[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < this.sortedTerms.length && this.sortedTerms[i].startsWith(prefix); i++) if (this.sortedTerms[i] !== prefix) out.push(this.sortedTerms[i]);
    return out.sort((a, b) => a.length - b.length).slice(0, MAX_PREFIX_EXPANSIONS);
  }

  /** The `topK` chunks with the best BM25 score for the query terms (at least one term matched). */
  search(terms: readonly string[], topK: number): KeywordHit[] {
    if (this.size === 0 || terms.length === 0 || topK <= 0) return [];
    const scores = new Float64Array(this.size);
    const touched: number[] = [];
    const n = this.size;
    const accumulate = (term: string, weight: number) => {
      for (const [map, lengths, avg, boost] of [
        [this.content, this.contentLength, this.avgContent, 1],
        [this.title, this.titleLength, this.avgTitle, TITLE_BOOST],
      ] as const) {
        const p = map.get(term);
        if (!p) continue;
        const df = p.docs.length;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const norm = avg > 0 ? avg : 1;
        for (let i = 0; i < p.docs.length; i++) {
          const doc = p.docs[i];
          const tf = p.tfs[i];
          const s = (weight * boost * idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * lengths[doc]) / norm));
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] += s;
        }
      }
    };
    for (const term of new Set(terms)) {
      accumulate(term, 1);
      if (term.length >= MIN_PREFIX_LENGTH) for (const longer of this.expansions(term)) accumulate(longer, (PREFIX_WEIGHT * term.length) / longer.length);
    }
    const hits = touched.map((index) => ({ index, score: scores[index] }));
    hits.sort((a, b) => b.score - a.score || a.index - b.index);
    return hits.length > topK ? hits.slice(0, topK) : hits;
  }
}
