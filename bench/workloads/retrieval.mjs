/**
 * retrieval: a generated local knowledge base of 10 000 chunks (500 Markdown files of 20
 * sections), embedded by the mock server (384 dimensions, over loopback, in this process).
 *
 * Measured once per process, on the wall clock (the embedding requests wait on a socket):
 * - index: `canvasflow kb index` on a folder with no index (read, chunk, embed, write the cache);
 * - reindex: the same after 1% of the files (5) changed, as in a new process: the cache is read
 *   from disk and checked, only the changed files are read and embedded;
 * - open: loading the index for search from the cache (what a Retrieval's first search does);
 * - query latency p50 / p99 over 400 queries: hybrid (RAGFlow's blend: the query's embedding
 *   over loopback, keyword candidates, an exact vector scan, term similarity, threshold, top_n)
 *   and, alternating with it on the same queries, MiniSearch keyword-only search over the same
 *   chunks (the baseline: what local search was before), and our keyword-only search (weight 1);
 * - the check of the folder's files that a long-running process makes at most once a second.
 * The harness's own samples time single hybrid queries.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import MiniSearch from "minisearch";
import { canvasflow, random } from "../lib.mjs";

const FILES = 500;
const SECTIONS = 20;
const DIMENSIONS = 384;
const QUERIES = 400;
const CHANGED = FILES / 100;
export const plan = { warmup: 5, warmupMs: 500, samples: 5, clock: "wall" };

const rand = random(14);
const SYLLABLES = ["ka", "lo", "mi", "ren", "tor", "va", "sel", "un", "dra", "pe", "qui", "mon", "sta", "ler", "bo", "fin", "gar", "ith", "zu", "cre"];
const VOCABULARY = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join(""));
/** Zipf-like: low ranks are common, as in real text. */
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * rand() ** 2.5)];
const sentence = () => {
  const words = Array.from({ length: 8 + Math.floor(rand() * 10) }, word);
  return `${words[0][0].toUpperCase()}${words.join(" ").slice(1)}.`;
};

function fileText(i, version) {
  const parts = [`# Document ${i}${version ? ` (revision ${version})` : ""}`];
  for (let s = 0; s < SECTIONS; s++) parts.push(`## Section ${s} ${word()}`, Array.from({ length: 4 + Math.floor(rand() * 3) }, sentence).join(" "));
  return parts.join("\n\n");
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];

async function timed(fn) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - started, cpu_ms: (used.user + used.system) / 1000 };
}

export async function canvasflowSide() {
  const api = await canvasflow();
  const { tokenize, processTerm } = await import("../../dist/src/knowledge/tokenize.js");
  const { effectiveThreshold } = await import("../../dist/src/knowledge/similarity.js");
  const { listSourceFiles } = await import("../../dist/src/knowledge/indexer.js");
  api.setIndexNotifier(() => undefined);

  const root = mkdtempSync(path.join(tmpdir(), "canvasflow-bench-kb-"));
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, "kb");
  await mkdir(dir);
  for (let i = 0; i < FILES; i++) await writeFile(path.join(dir, `doc-${String(i).padStart(4, "0")}.md`), fileText(i, 0));

  const mock = await api.startMockLlmServer();
  const models = api.createKnowledgeModels({ providers: { mock: { baseURL: mock.url } }, embedding: { provider: "mock", model: "bench-embed", dimensions: DIMENSIONS, batchSize: 64 } }, {});
  const embedding = models.embeddingFor({ type: "local", dir }, "bench");

  const log = (what) => process.stderr.write(`retrieval bench: ${what}\n`);
  log("files written");
  const full = await timed(() => api.updateIndex({ dir, embedding }));
  if (full.value.chunks !== FILES * SECTIONS) throw new Error(`expected ${FILES * SECTIONS} chunks, got ${full.value.chunks}`);
  log(`indexed in ${full.ms.toFixed(0)} ms (${full.cpu_ms.toFixed(0)} ms CPU)`);
  for (let i = 0; i < CHANGED; i++) {
    const file = path.join(dir, `doc-${String(i * 97).padStart(4, "0")}.md`);
    await writeFile(file, fileText(i * 97, 1));
    await utimes(file, new Date(), new Date(Date.now() + 10_000));
  }
  const reindex = await timed(() => api.updateIndex({ dir, embedding }));
  const open = await timed(() => api.buildIndex({ dir, embedding }));
  const index = open.value.index;
  log(`opened in ${open.ms.toFixed(0)} ms, re-indexed in ${reindex.ms.toFixed(0)} ms (${reindex.cpu_ms.toFixed(0)} ms CPU)`);
  const check = await timed(() => listSourceFiles(dir));

  // The baseline: MiniSearch over the same chunks, as local search worked before (BM25, title ×2).
  const miniBuild = await timed(() => {
    const mini = new MiniSearch({ fields: ["title", "content"], tokenize: (t) => tokenize(t), processTerm: (t) => processTerm(t) });
    mini.addAll(index.chunks.map((c, id) => ({ id, title: `${c.documentName} ${c.section}`, content: c.content })));
    return mini;
  });
  const mini = miniBuild.value;
  log(`MiniSearch built in ${miniBuild.ms.toFixed(0)} ms`);

  // Queries made of words the chunks hold: 3 to 6 of them.
  const queries = Array.from({ length: QUERIES }, () => Array.from({ length: 3 + Math.floor(rand() * 4) }, word).join(" "));
  const options = (q, w) => ({ query: q, topK: 1024, similarityThreshold: 0.2, keywordsWeight: w });
  const hybridQuery = async (q, w = 0.5) => {
    const scored = await api.scoreCandidates(index, options(q, w));
    const threshold = effectiveThreshold(w, 0.2);
    return scored.filter((s) => s.similarity >= threshold).slice(0, 8);
  };
  const keywordBaseline = (q) => mini.search(q, { boost: { title: 2 }, prefix: (term) => term.length >= 4, combineWith: "OR" }).slice(0, 1024).slice(0, 8);

  let cursor = 0;
  return {
    run: async () => {
      await hybridQuery(queries[cursor++ % queries.length]);
    },
    extra: async () => {
      for (const q of queries.slice(0, 40)) {
        await hybridQuery(q);
        keywordBaseline(q);
        await hybridQuery(q, 1);
      }
      const hybrid = [];
      const keyword = [];
      const ours = [];
      let found = 0;
      for (const q of queries) {
        let t = performance.now();
        const hits = await hybridQuery(q);
        hybrid.push(performance.now() - t);
        if (hits.length > 0) found++;
        t = performance.now();
        keywordBaseline(q);
        keyword.push(performance.now() - t);
        t = performance.now();
        await hybridQuery(q, 1);
        ours.push(performance.now() - t);
      }
      for (const xs of [hybrid, keyword, ours]) xs.sort((a, b) => a - b);
      await mock.close();
      const report = reindex.value;
      return {
        chunks: index.chunks.length,
        files: FILES,
        dimensions: DIMENSIONS,
        index_ms: full.ms,
        index_cpu_ms: full.cpu_ms,
        index_tokens: full.value.tokens,
        open_ms: open.ms,
        open_cpu_ms: open.cpu_ms,
        reindex_ms: reindex.ms,
        reindex_cpu_ms: reindex.cpu_ms,
        reindex_files: report.chunkedFiles,
        reindex_embedded_chunks: report.embeddedChunks,
        reindex_share: reindex.ms / full.ms,
        reindex_cpu_share: reindex.cpu_ms / full.cpu_ms,
        folder_check_ms: check.ms,
        minisearch_build_ms: miniBuild.ms,
        queries: QUERIES,
        queries_with_results: found,
        hybrid_p50_ms: percentile(hybrid, 0.5),
        hybrid_p99_ms: percentile(hybrid, 0.99),
        keyword_minisearch_p50_ms: percentile(keyword, 0.5),
        keyword_minisearch_p99_ms: percentile(keyword, 0.99),
        keyword_ours_p50_ms: percentile(ours, 0.5),
        keyword_ours_p99_ms: percentile(ours, 0.99),
        p99_ratio: percentile(hybrid, 0.99) / percentile(keyword, 0.99),
      };
    },
  };
}
