/**
 * tiktoken's cl100k_base encoding, exactly as RAGFlow's Python runs it (tiktoken 0.12), built on
 * the rank table that gpt-tokenizer ships. gpt-tokenizer's own encoder is not used because it
 * differs from tiktoken where chunk sizes feel it: it treats `<|im_start|>`, `<|im_end|>` and
 * `<|im_sep|>` as special tokens (tiktoken's cl100k_base does not), its `\s` is JavaScript's
 * (U+FEFF in, U+0085 out), its decoder keeps an unfinished UTF-8 sequence for the next call, and
 * its merge loop is quadratic in the length of one pre-token.
 *
 * Here: the text is cut into pre-tokens by tiktoken's pattern (with Unicode White_Space for
 * `\s`), each pre-token's UTF-8 bytes are merged by rank, lowest first and leftmost on ties
 * (tiktoken's `_byte_pair_merge`); long pre-tokens are merged with a heap, which gives the same
 * tokens in O(n log n).
 */

/** Unicode White_Space, what `\s` means in tiktoken's (Rust) pattern. */
const WS = "\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/**
 * tiktoken's cl100k_base pattern `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|
 * ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`. Its possessive quantifiers match what
 * the greedy ones below match (none of them can give back a character another part would take);
 * the case-insensitive contractions are spelled out (ASCII only, as tiktoken matches them).
 */
export const PRETOKEN = new RegExp(
  `'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^${WS}\\p{L}\\p{N}]+[\\r\\n]*|[${WS}]+$|[${WS}]*[\\r\\n]|[${WS}]+(?![^${WS}])|[${WS}]`,
  "gu",
);

/** cl100k_base's special tokens: tiktoken refuses a text holding one (RAGFlow then counts 0). */
export const SPECIAL_TOKEN = /<\|endoftext\|>|<\|fim_prefix\|>|<\|fim_middle\|>|<\|fim_suffix\|>|<\|endofprompt\|>/;

/** A rank table entry as gpt-tokenizer stores it: the token's text, or its bytes when they are not UTF-8. */
export type RawRank = string | readonly number[];

/** Pre-tokens of at most this many bytes are merged by scanning; longer ones with a heap. */
const SCAN_MERGE_LIMIT = 128;
/** Merged pre-tokens kept for reuse (common words recur); cleared when full. */
const CACHE_LIMIT = 50_000;

const utf8 = new TextDecoder("utf-8");

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** One byte per character (latin1): the key a token's bytes are looked up by. */
function byteString(text: string): string {
  // ASCII is its own byte string.
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, "utf8").toString("latin1");
}

export class Cl100kEncoding {
  private readonly ranks = new Map<string, number>();
  private readonly tokenBytes: string[] = [];
  private readonly cache = new Map<string, readonly number[]>();

  constructor(raw: readonly RawRank[]) {
    raw.forEach((entry, rank) => {
      const bytes = typeof entry === "string" ? Buffer.from(entry, "utf8").toString("latin1") : String.fromCharCode(...entry);
      this.ranks.set(bytes, rank);
      this.tokenBytes[rank] = bytes;
    });
  }

  /** Whether tiktoken would refuse the text (it holds a special token). */
  refuses(text: string): boolean {
    return SPECIAL_TOKEN.test(text);
  }

  /**
   * The pre-tokens of a text tiktoken accepts, lazily. A lone surrogate becomes U+FFFD first, as
   * tiktoken's own fallback does (`encode("utf-16", "surrogatepass").decode("utf-16", "replace")`).
   */
  *pieces(text: string): Generator<string> {
    const wellFormed = /[\uD800-\uDFFF]/.test(text) ? text.replace(LONE_SURROGATE, "\uFFFD") : text;
    for (const match of wellFormed.matchAll(PRETOKEN)) yield match[0];
  }

  /** The tokens of one pre-token. */
  encodePiece(piece: string): readonly number[] {
    const bytes = byteString(piece);
    const whole = this.ranks.get(bytes);
    if (whole !== undefined) return [whole];
    const cached = this.cache.get(bytes);
    if (cached) return cached;
    const tokens = bytes.length <= SCAN_MERGE_LIMIT ? this.mergeByScan(bytes) : this.mergeByHeap(bytes);
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(bytes, tokens);
    return tokens;
  }

  /** The text of some tokens; an unfinished UTF-8 sequence at the end reads as U+FFFD, as in Python's `errors="replace"`. */
  decode(tokens: readonly number[]): string {
    let bytes = "";
    for (const token of tokens) {
      const piece = this.tokenBytes[token];
      if (piece === undefined) throw new RangeError(`cl100k_base has no token ${token}`);
      bytes += piece;
    }
    return utf8.decode(Buffer.from(bytes, "latin1"));
  }

  private rank(bytes: string, start: number, end: number): number {
    return this.ranks.get(bytes.slice(start, end)) ?? Infinity;
  }

  /** tiktoken's `_byte_pair_merge`: merge the lowest-ranked adjacent pair, leftmost first, until none has a rank. */
  private mergeByScan(bytes: string): number[] {
    const starts: number[] = [];
    const ranks: number[] = [];
    for (let i = 0; i < bytes.length - 1; i++) {
      starts.push(i);
      ranks.push(this.rank(bytes, i, i + 2));
    }
    starts.push(bytes.length - 1, bytes.length);
    ranks.push(Infinity, Infinity);
    const pairRank = (i: number) => (i + 3 < starts.length ? this.rank(bytes, starts[i], starts[i + 3]) : Infinity);
    for (;;) {
      let min = Infinity;
      let at = -1;
      for (let i = 0; i < ranks.length - 1; i++) {
        if (ranks[i] < min) {
          min = ranks[i];
          at = i;
        }
      }
      if (at < 0) break;
      if (at > 0) ranks[at - 1] = pairRank(at - 1);
      ranks[at] = pairRank(at);
      starts.splice(at + 1, 1);
      ranks.splice(at + 1, 1);
    }
    return this.partsToTokens(bytes, starts);
  }

  /** The same merges with a heap of (rank, start): the lowest rank, then the leftmost, as the scan finds them. */
  private mergeByHeap(bytes: string): number[] {
    const n = bytes.length;
    // Parts as a linked list over byte offsets: part i spans [i, next[i]).
    const next = new Int32Array(n + 1);
    const prev = new Int32Array(n + 1);
    const alive = new Uint8Array(n + 1).fill(1);
    for (let i = 0; i <= n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
    }
    const heap = new MergeHeap();
    // The rank of merging part `start` with the part after it.
    const pairRank = (start: number): number => {
      const second = next[start];
      if (second >= n) return Infinity;
      return this.rank(bytes, start, next[second]);
    };
    const current = new Float64Array(n + 1).fill(Infinity);
    for (let i = 0; i < n - 1; i++) {
      current[i] = this.rank(bytes, i, i + 2);
      if (current[i] !== Infinity) heap.push(current[i], i);
    }
    while (heap.size > 0) {
      const [rank, start] = heap.pop();
      if (!alive[start] || current[start] !== rank) continue; // stale entry
      const second = next[start];
      alive[second] = 0;
      next[start] = next[second];
      if (next[second] <= n) prev[next[second]] = start;
      current[start] = pairRank(start);
      if (current[start] !== Infinity) heap.push(current[start], start);
      const before = prev[start];
      if (before >= 0) {
        current[before] = pairRank(before);
        if (current[before] !== Infinity) heap.push(current[before], before);
      }
    }
    const starts: number[] = [];
    for (let i = 0; i < n; i = next[i]) starts.push(i);
    starts.push(n);
    return this.partsToTokens(bytes, starts);
  }

  private partsToTokens(bytes: string, starts: readonly number[]): number[] {
    const tokens: number[] = [];
    for (let i = 0; i + 1 < starts.length; i++) {
      const rank = this.ranks.get(bytes.slice(starts[i], starts[i + 1]));
      // Every single byte is a token, and every merge yields one, so a part always has a rank.
      if (rank === undefined) throw new Error("cl100k_base rank table is incomplete");
      tokens.push(rank);
    }
    return tokens;
  }
}

/** A binary min-heap of (rank, start), ordered by rank then start. */
class MergeHeap {
  private readonly ranks: number[] = [];
  private readonly starts: number[] = [];

  get size(): number {
    return this.ranks.length;
  }

  push(rank: number, start: number): void {
    this.ranks.push(rank);
    this.starts.push(start);
    let i = this.ranks.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): [number, number] {
    const top: [number, number] = [this.ranks[0], this.starts[0]];
    const lastRank = this.ranks.pop()!;
    const lastStart = this.starts.pop()!;
    if (this.ranks.length > 0) {
      this.ranks[0] = lastRank;
      this.starts[0] = lastStart;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < this.ranks.length && this.less(left, smallest)) smallest = left;
        if (right < this.ranks.length && this.less(right, smallest)) smallest = right;
        if (smallest === i) break;
        this.swap(i, smallest);
        i = smallest;
      }
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    return this.ranks[a] < this.ranks[b] || (this.ranks[a] === this.ranks[b] && this.starts[a] < this.starts[b]);
  }

  private swap(a: number, b: number): void {
    [this.ranks[a], this.ranks[b]] = [this.ranks[b], this.ranks[a]];
    [this.starts[a], this.starts[b]] = [this.starts[b], this.starts[a]];
  }
}
