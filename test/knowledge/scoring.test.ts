/**
 * The pure pieces of local retrieval: the keyword index (BM25 order, prefixes, adjacency,
 * document frequency), RAGFlow's term weights and similarity, the rerank window and score
 * normalization, exact vector search, the cache entry format, and the config keys.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { decodeEntry, encodeEntry } from "../../src/knowledge/index-cache.js";
import { KeywordIndex } from "../../src/knowledge/keyword-index.js";
import { normalizeScores, parseRerankAnswer } from "../../src/knowledge/rerank-client.js";
import { effectiveThreshold, idf, queryBag, rerankWindow, termSimilarity, termWeights } from "../../src/knowledge/similarity.js";
import { termsOf } from "../../src/knowledge/tokenize.js";
import { topIndexes, VectorIndex } from "../../src/knowledge/vector-index.js";

const chunk = (content: string, title = "") => ({ content: termsOf(content), title: termsOf(title) });

describe("the keyword index", () => {
  const index = new KeywordIndex([
    chunk("reset your password from the login page", "accounts.md Reset"),
    chunk("password rules: twelve characters", "accounts.md Rules"),
    chunk("shipping takes two days", "shipping.txt"),
    chunk("passwords are never sent by mail", "security.md"),
  ]);

  it("ranks by BM25, counts the title twice, and finds longer words a query term begins", () => {
    expect(index.search(["reset"], 10).map((h) => h.index)).toEqual([0]);
    const hits = index.search(["password"], 10).map((h) => h.index);
    expect(hits.slice(0, 2).sort()).toEqual([0, 1]);
    // "passwords" only through the prefix, at a discount: last.
    expect(hits).toEqual([...hits.slice(0, 2), 3]);
    expect(index.search(["accounts"], 10).map((h) => h.index).sort()).toEqual([0, 1]);
    expect(index.search(["zeppelin"], 10)).toEqual([]);
    expect(index.search(["password", "shipping"], 2)).toHaveLength(2);
  });

  it("knows document frequencies, membership and adjacency", () => {
    expect(index.documentFrequency("password")).toBe(2);
    expect(index.documentFrequency("accounts")).toBe(2);
    expect(index.documentFrequency("nothing")).toBe(0);
    expect(index.has(0, "login")).toBe(true);
    expect(index.has(0, "reset")).toBe(true);
    expect(index.has(2, "login")).toBe(false);
    expect(index.hasPair(0, "reset", "password")).toBe(true);
    expect(index.hasPair(0, "password", "reset")).toBe(false);
    expect(index.hasPair(1, "password", "rules")).toBe(true);
  });

  it("scores term similarity as RAGFlow's token_similarity: weighted terms at 0.4, neighbour pairs at 0.6", () => {
    const terms = termsOf("reset password");
    const weights = termWeights(terms, index);
    const [r, p] = weights.map((w) => w.weight);
    expect(r + p).toBeCloseTo(1, 12);
    expect(r).toBeCloseTo(idf(1, 4) / (idf(1, 4) + idf(2, 4)), 12);
    const bag = queryBag(weights);
    expect(bag.total).toBeCloseTo(0.4 + 0.6 * Math.max(r, p), 12);
    expect(termSimilarity(bag, index, 0)).toBeCloseTo(1, 6);
    expect(termSimilarity(bag, index, 1)).toBeCloseTo((0.4 * p) / bag.total, 6);
    expect(termSimilarity(bag, index, 2)).toBeCloseTo(0, 6);
    // Numbers count twice, one- and two-letter words hardly at all.
    const numbered = termWeights(["12345", "ab"], new KeywordIndex([]));
    expect(numbered[0].weight / numbered[1].weight).toBeCloseTo(2 / 0.01, 6);
  });
});

describe("RAGFlow's rules", () => {
  it("applies no threshold when the vector weight is 0", () => {
    expect(effectiveThreshold(1, 0.2)).toBe(0);
    expect(effectiveThreshold(0.5, 0.2)).toBe(0.2);
  });

  it("sizes the rerank window as Dealer._rerank_window does", () => {
    expect(rerankWindow(8, 1024)).toBe(64);
    expect(rerankWindow(6, 1024)).toBe(66);
    expect(rerankWindow(10, 30)).toBe(30);
    expect(rerankWindow(10, 25)).toBe(30);
    expect(rerankWindow(1, 1024)).toBe(30);
    expect(rerankWindow(1, 5)).toBe(5);
  });

  it("brings rerank scores into [0, 1] as RerankModel.Base._normalize_rank does", () => {
    expect(normalizeScores([0.2, 0.9])).toEqual([0.2, 0.9]);
    expect(normalizeScores([-2, 0, 6])).toEqual([0, 0.25, 1]);
    expect(normalizeScores([3.0001, 3])).toEqual([1, 1]);
    expect(parseRerankAnswer({ results: [{ index: 1, relevance_score: 0.7 }] }, 3).scores).toEqual([0, 0.7, 0]);
    expect(() => parseRerankAnswer({ results: [{ index: 5, relevance_score: 1 }] }, 2)).toThrow("answered with a result for document 5 of 2");
    expect(() => parseRerankAnswer({}, 2)).toThrow("answered without a results list");
  });
});

describe("exact vector search", () => {
  it("gives every chunk's cosine and the top_k above a minimum", () => {
    const index = VectorIndex.of(2, [Float32Array.of(1, 0), Float32Array.of(0, 2), Float32Array.of(1, 1), Float32Array.of(-1, 0)]);
    const cos = index.cosines(Float32Array.of(3, 0));
    expect([...cos].map((c) => Number(c.toFixed(4)))).toEqual([1, 0, 0.7071, -1]);
    expect(topIndexes(cos, 2, 0)).toEqual([0, 2]);
    expect(topIndexes(cos, 10, 0.5)).toEqual([0, 2]);
    expect(() => index.cosines(Float32Array.of(1, 2, 3))).toThrow("the query vector has 3 dimensions, the index 2");
  });

  it("matches a plain cosine for any vectors (odd sizes included)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }).chain((d) => fc.tuple(fc.array(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: d, maxLength: d }), { minLength: 1, maxLength: 5 }), fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: d, maxLength: d }))), ([rows, q]) => {
        const index = VectorIndex.of(q.length, rows.map((r) => Float32Array.from(r)));
        const got = index.cosines(Float32Array.from(q));
        rows.forEach((r, i) => {
          // Vectors too short to have a direction in float32 are left out.
          if (Math.hypot(...r) < 1e-3 || Math.hypot(...q) < 1e-3) return;
          const dot = r.reduce((s, v, j) => s + v * q[j], 0);
          expect(got[i]).toBeCloseTo(dot / (Math.hypot(...r) * Math.hypot(...q)), 3);
        });
      }),
    );
  });
});

describe("cache entries", () => {
  it("round-trip, and refuse a changed byte", () => {
    const entry = { chunks: [{ section: "S", content: "Text é", terms: "text e", sectionTerms: "s" }], dimensions: 3, vectors: [Float32Array.of(0.5, -1, 2)] };
    const bytes = encodeEntry(entry);
    const back = decodeEntry(bytes);
    expect(back.chunks).toEqual(entry.chunks);
    expect([...back.vectors[0]]).toEqual([0.5, -1, 2]);
    for (const at of [0, 12, bytes.length - 20, bytes.length - 1]) {
      const broken = Buffer.from(bytes);
      broken[at] ^= 1;
      expect(() => decodeEntry(broken)).toThrow();
    }
    expect(() => decodeEntry(bytes.subarray(0, 10))).toThrow("not an index entry");
  });
});

describe("configuration", () => {
  it("checks the providers of embedding and rerank routes, and resolves indexDir and pipeline", () => {
    const config = validateConfig(
      {
        providers: { p: { baseURL: "http://127.0.0.1:1/v1" } },
        embedding: { provider: "p", model: "e" },
        rerankModels: { r: { provider: "p" } },
        knowledgeBases: { kb: { type: "local", dir: "kb", indexDir: "idx", embedding: false, pipeline: "ingest.json" } },
      },
      "/etc/canvasflow/canvasflow.config.json",
    );
    expect(config.knowledgeBases!.kb).toEqual({ type: "local", dir: "/etc/canvasflow/kb", indexDir: "/etc/canvasflow/idx", embedding: false, pipeline: "/etc/canvasflow/ingest.json" });
    expect(() => validateConfig({ knowledgeBases: { kb: { type: "local", dir: "kb", pipeline: "" } } }, "c.json")).toThrow("/knowledgeBases/kb/pipeline");
    expect(() =>
      validateConfig({ providers: {}, embedding: { provider: "nope", model: "e" }, defaultRerankModel: { provider: "gone" }, knowledgeBases: { kb: { type: "local", dir: "kb", embedding: { provider: "x", model: "m" } } } }, "c.json"),
    ).toThrow(/\/embedding\/provider: names the provider "nope"[\s\S]*\/defaultRerankModel\/provider: names the provider "gone"[\s\S]*\/knowledgeBases\/kb\/embedding\/provider: names the provider "x"/);
    expect(() => validateConfig({ embedding: { provider: "p", model: "e", dimensions: 0 } }, "c.json")).toThrow("/embedding/dimensions");
    expect(() => validateConfig({ knowledgeBases: { kb: { type: "local", dir: "kb", embedding: true } } }, "c.json")).toThrow("/knowledgeBases/kb/embedding");
  });
});
