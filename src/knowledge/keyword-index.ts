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
interface ChunkTerms {
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

/**
 * One field's postings in compressed sparse rows: term t's chunks are
 * `docs[offsets[t] .. offsets[t + 1]]` (ascending), with their term frequencies in `tfs`.
 * Built from typed arrays in two passes, so a 10 000-chunk index makes little garbage.
 */
interface FieldPostings {
  offsets: Int32Array;
  docs: Int32Array;
  tfs: Uint16Array;
  lengths: Uint32Array;
  avgLength: number;
}

function buildField(sequences: readonly Int32Array[], termCount: number): FieldPostings {
  const seen = new Int32Array(termCount).fill(-1);
  const count = new Int32Array(termCount);
  const lengths = new Uint32Array(sequences.length);
  let total = 0;
  sequences.forEach((seq, doc) => {
    lengths[doc] = seq.length;
    total += seq.length;
    for (let i = 0; i < seq.length; i++) {
      const t = seq[i];
      if (seen[t] !== doc) {
        seen[t] = doc;
        count[t]++;
      }
    }
  });
  const offsets = new Int32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t] + count[t];
  const docs = new Int32Array(offsets[termCount]);
  const tfs = new Uint16Array(offsets[termCount]);
  const cursor = offsets.slice(0, termCount);
  const at = new Int32Array(termCount);
  seen.fill(-1);
  sequences.forEach((seq, doc) => {
    for (let i = 0; i < seq.length; i++) {
      const t = seq[i];
      if (seen[t] !== doc) {
        seen[t] = doc;
        at[t] = cursor[t]++;
        docs[at[t]] = doc;
        tfs[at[t]] = 1;
      } else if (tfs[at[t]] < 0xffff) tfs[at[t]]++;
    }
  });
  return { offsets, docs, tfs, lengths, avgLength: sequences.length > 0 ? total / sequences.length : 0 };
}

interface KeywordHit {
  index: number;
  score: number;
}

/** Binary search for a chunk among a term's postings. */
function contains(docs: Int32Array, from: number, to: number, doc: number): boolean {
  let lo = from;
  let hi = to - 1;
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
  private readonly ids = new Map<string, number>();
  /** Every term, sorted, for prefix matching. */
  private readonly sortedTerms: string[];
  private readonly content: FieldPostings;
  private readonly title: FieldPostings;
  /** Each chunk's terms as ids, in order: adjacency is read from them. */
  private readonly contentSequences: Int32Array[];
  private readonly titleSequences: Int32Array[];
  /** Chunks holding the term in any field. */
  private readonly frequency: Int32Array;

  constructor(chunks: readonly ChunkTerms[]) {
    this.size = chunks.length;
    const idOf = (term: string) => {
      let id = this.ids.get(term);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(term, id);
      }
      return id;
    };
    const toIds = (terms: readonly string[]) => {
      const out = new Int32Array(terms.length);
      for (let i = 0; i < terms.length; i++) out[i] = idOf(terms[i]);
      return out;
    };
    this.contentSequences = chunks.map((c) => toIds(c.content));
    this.titleSequences = chunks.map((c) => toIds(c.title));
    const termCount = this.ids.size;
    this.content = buildField(this.contentSequences, termCount);
    this.title = buildField(this.titleSequences, termCount);
    this.frequency = new Int32Array(termCount);
    const seen = new Int32Array(termCount).fill(-1);
    for (let doc = 0; doc < chunks.length; doc++) {
      for (const seq of [this.contentSequences[doc], this.titleSequences[doc]]) {
        for (let i = 0; i < seq.length; i++) {
          if (seen[seq[i]] !== doc) {
            seen[seq[i]] = doc;
            this.frequency[seq[i]]++;
          }
        }
      }
    }
    this.sortedTerms = [...this.ids.keys()].sort();
  }

  /** Chunks that hold the term, in any field. */
  documentFrequency(term: string): number {
    const id = this.ids.get(term);
    return id === undefined ? 0 : this.frequency[id];
  }

  /** Whether chunk `doc` holds `term` (in any field). */
  has(doc: number, term: string): boolean {
    const id = this.ids.get(term);
    if (id === undefined) return false;
    return contains(this.content.docs, this.content.offsets[id], this.content.offsets[id + 1], doc) || contains(this.title.docs, this.title.offsets[id], this.title.offsets[id + 1], doc);
  }

  /** Whether chunk `doc` holds `a` directly followed by `b` (in its content or its title). */
  hasPair(doc: number, a: string, b: string): boolean {
    const ia = this.ids.get(a);
    const ib = this.ids.get(b);
    if (ia === undefined || ib === undefined) return false;
    for (const seq of [this.contentSequences[doc], this.titleSequences[doc]]) {
      for (let i = 0; i + 1 < seq.length; i++) if (seq[i] === ia && seq[i + 1] === ib) return true;
    }
    return false;
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
      const id = this.ids.get(term);
      if (id === undefined) return;
      for (const [field, boost] of [
        [this.content, 1],
        [this.title, TITLE_BOOST],
      ] as const) {
        const from = field.offsets[id];
        const to = field.offsets[id + 1];
        const df = to - from;
        if (df === 0) continue;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const norm = field.avgLength > 0 ? field.avgLength : 1;
        for (let i = from; i < to; i++) {
          const doc = field.docs[i];
          const tf = field.tfs[i];
          const s = (weight * boost * idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * field.lengths[doc]) / norm));
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
