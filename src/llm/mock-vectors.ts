/**
 * What the mock server answers on /v1/embeddings and /v1/rerank, decided purely from the request
 * and the script (the HTTP side is mock-server.ts). Deterministic: the same text always gets the
 * same vector, and the same query and documents the same scores.
 *
 * Embeddings are hashed character n-grams ("feature hashing"): each word and each three-letter
 * piece of it adds ±1 to a dimension chosen by its hash. Texts that share words or word parts
 * therefore point in similar directions, and texts that share nothing are nearly orthogonal. A
 * script can pin vectors: a text matching an `embeddings` rule gets the rule's concept vector, so
 * "car" and "automobile" can be made synonyms.
 *
 * The reranker scores each document by the cosine of the mock embeddings of the query and the
 * document (negative values as 0). A `rerank` rule can give explicit scores, or score the
 * documents by their position (reversed or as given), or fail.
 */
import { createHash } from "node:crypto";
import type { MockEmbeddingRule, MockRerankRule } from "./mock-script.js";

const WORD = /[\p{L}\p{N}]+/gu;

/** FNV-1a, 32 bits: cheap, stable across runs and platforms. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function normalized(values: number[]): number[] {
  const norm = Math.hypot(...values);
  return norm === 0 ? values : values.map((v) => v / norm);
}

/**
 * A unit vector for a name that shares nothing with other names: a concept a script pins texts
 * to, and what a text without any letter or digit gets.
 */
export function conceptVector(name: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash("sha256").update(`${block}\u0000${name}`).digest();
    for (let i = 0; i + 4 <= digest.length && values.length < dimensions; i += 4) values.push(digest.readUInt32BE(i) / 0xffffffff - 0.5);
  }
  return normalized(values);
}

/** The default mock embedding of a text: hashed words and character trigrams, as a unit vector. */
export function ngramEmbedding(text: string, dimensions: number): number[] {
  const values = new Array<number>(dimensions).fill(0);
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    // The top bit chooses the sign, so unrelated features cancel out instead of piling up.
    values[hash % dimensions] += hash & 0x80000000 ? -weight : weight;
  };
  let words = 0;
  for (const [word] of text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().matchAll(WORD)) {
    words++;
    add(`w:${word}`, 2);
    const padded = `<${word}>`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`g:${padded.slice(i, i + 3)}`, 1);
  }
  if (words === 0 || values.every((v) => v === 0)) return conceptVector("\u0000no words", dimensions);
  return normalized(values);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function compile(rule: { match: string; flags?: string }): RegExp {
  return new RegExp(rule.match, rule.flags ?? "i");
}

/** A rule's failure, for the HTTP side to send. */
interface MockVectorFailure {
  status: number;
  message: string;
  why: string;
}

type MockEmbeddingPlan = { kind: "error"; failure: MockVectorFailure; delayMs: number } | { kind: "vectors"; vectors: number[][]; delayMs: number; why: string };

type MockRerankPlan = { kind: "error"; failure: MockVectorFailure; delayMs: number } | { kind: "scores"; scores: number[]; delayMs: number; why: string };

/** Embedding and rerank answers from the script's `embeddings` and `rerank` rules. */
export class MockVectors {
  private readonly embeddingRules: Array<{ rule: MockEmbeddingRule; regex: RegExp; used: number }>;
  private readonly rerankRules: Array<{ rule: MockRerankRule; regex: RegExp; used: number }>;

  constructor(embeddings: readonly MockEmbeddingRule[] = [], rerank: readonly MockRerankRule[] = []) {
    this.embeddingRules = embeddings.map((rule) => ({ rule, regex: compile(rule), used: 0 }));
    this.rerankRules = rerank.map((rule) => ({ rule, regex: compile(rule), used: 0 }));
  }

  /** The vectors of a batch. A failure rule matching any input fails the whole request, as a server would. */
  embed(inputs: readonly string[], dimensions: number): MockEmbeddingPlan {
    const usable = (entry: { rule: { times?: number }; used: number }) => entry.rule.times === undefined || entry.used < entry.rule.times;
    for (const [i, entry] of this.embeddingRules.entries()) {
      if (entry.rule.status === undefined || !usable(entry) || !inputs.some((text) => entry.regex.test(text))) continue;
      entry.used++;
      return { kind: "error", failure: { status: entry.rule.status, message: entry.rule.message ?? `mock embeddings rule ${i} failed`, why: `rule ${i}` }, delayMs: entry.rule.delay_ms ?? 0 };
    }
    let pinned = 0;
    let delayMs = 0;
    const vectors = inputs.map((text) => {
      const entry = this.embeddingRules.find((e) => e.rule.concept !== undefined && usable(e) && e.regex.test(text));
      if (!entry) return ngramEmbedding(text, dimensions);
      entry.used++;
      pinned++;
      delayMs = Math.max(delayMs, entry.rule.delay_ms ?? 0);
      return conceptVector(entry.rule.concept!, dimensions);
    });
    return { kind: "vectors", vectors, delayMs, why: pinned > 0 ? `${pinned} pinned to concepts` : "n-grams" };
  }

  /** Relevance scores in [0, 1], one per document, in the documents' order. */
  rerank(query: string, documents: readonly string[]): MockRerankPlan {
    for (const [i, entry] of this.rerankRules.entries()) {
      const { rule } = entry;
      if ((rule.times !== undefined && entry.used >= rule.times) || !entry.regex.test(query)) continue;
      entry.used++;
      const delayMs = rule.delay_ms ?? 0;
      if (rule.status !== undefined) return { kind: "error", failure: { status: rule.status, message: rule.message ?? `mock rerank rule ${i} failed`, why: `rule ${i}` }, delayMs };
      const n = documents.length;
      if (rule.scores) return { kind: "scores", scores: documents.map((_, d) => rule.scores![d] ?? 0), delayMs, why: `rule ${i}: scores` };
      if (rule.order === "reverse") return { kind: "scores", scores: documents.map((_, d) => (d + 1) / n), delayMs, why: `rule ${i}: reverse` };
      return { kind: "scores", scores: documents.map((_, d) => (n - d) / n), delayMs, why: `rule ${i}: as given` };
    }
    const dimensions = 256;
    const q = ngramEmbedding(query, dimensions);
    return { kind: "scores", scores: documents.map((doc) => Math.max(0, cosine(q, ngramEmbedding(doc, dimensions)))), delayMs: 0, why: "n-gram cosine" };
  }
}
