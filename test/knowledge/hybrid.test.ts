/**
 * Hybrid retrieval over local knowledge bases, end to end: the Retrieval tool, the index on disk,
 * embeddings and reranking from the mock server over loopback through the real openai client and
 * fetch. Synonyms are made by pinning texts to one concept vector in the mock's script.
 */
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { paramsWithDefaults } from "../../src/components/params.js";
import { UnavailableError } from "../../src/components/unavailable.js";
import type { CanvasflowConfig, KnowledgeBaseConfig } from "../../src/config/types.js";
import { startMockLlmServer, type MockLlmScript, type MockLlmServer } from "../../src/llm/index.js";
import { buildIndex } from "../../src/knowledge/indexer.js";
import { setIndexNotifier } from "../../src/knowledge/knowledge-base.js";
import { createKnowledgeModels } from "../../src/knowledge/models.js";
import type { KnowledgeModels } from "../../src/knowledge/model-types.js";
import { Retrieval } from "../../src/tools/retrieval.js";
import type { RetrievedChunk } from "../../src/tools/retrieval/types.js";
import { canvasDsl, lastEvent, messageText, node, nodeFinished } from "../helpers/dsl.js";
import { closedPort } from "../helpers/http.js";
import { minimalDocx, minimalPdf } from "../helpers/documents.js";
import { toolContext } from "../helpers/tools.js";

const FAST_RETRY = { maxRetries: 3, delayMs: 5, timeoutMs: 20_000 };
const notes: string[] = [];
setIndexNotifier((note) => notes.push(note));

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function folder(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "canvasflow-hybrid-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  return dir;
}

async function mock(script?: MockLlmScript): Promise<MockLlmServer> {
  const server = await startMockLlmServer(script ? { script } : {});
  cleanup.push(() => server.close());
  return server;
}

function models(server: MockLlmServer | { url: string }, extra: Partial<CanvasflowConfig> = {}): KnowledgeModels {
  return createKnowledgeModels({ providers: { mock: { baseURL: server.url } }, embedding: { provider: "mock", model: "mock-embed", dimensions: 256 }, ...extra }, {}, { retry: FAST_RETRY });
}

/** The texts the mock was asked to embed, in order. */
function embeddedTexts(server: MockLlmServer): string[] {
  return server.requests.filter((r) => r.path === "/v1/embeddings").flatMap((r) => (r.body as { input: string[] }).input);
}

async function retrieve(kb: KnowledgeBaseConfig, knowledgeModels: KnowledgeModels, query: string, params: Record<string, unknown> = {}) {
  const { ctx } = toolContext({ params: paramsWithDefaults(Retrieval, { kb_ids: ["kb"], ...params }), knowledgeBases: { kb }, knowledgeModels });
  let tokens = 0;
  const counted = { ...ctx, addUsage: (u: { total_tokens?: number }) => (tokens += u.total_tokens ?? 0) };
  const out = await Retrieval.tool!.run({ query }, counted);
  return { text: out.formalized_content as string, chunks: out.json as RetrievedChunk[], tokens };
}

const VEHICLES: MockLlmScript = { embeddings: [{ match: "\\b(automobiles?|cars?)\\b", concept: "vehicle" }] };

const GARAGE = {
  "cars.md": "# Cars\n\nA car needs its oil changed every 15 000 km.",
  "bikes.md": "# Bikes\n\nA bicycle chain wants grease every month.",
  "boats.md": "# Boats\n\nHulls are cleaned before the winter.",
};

describe("hybrid scoring", () => {
  it("finds a chunk that shares no keyword with the query through pinned concept vectors, and not with keywords only (weight 1.0)", async () => {
    const server = await mock(VEHICLES);
    const dir = await folder(GARAGE);
    const kb = { type: "local" as const, dir };
    const hybrid = await retrieve(kb, models(server), "automobile maintenance");
    expect(hybrid.chunks[0]).toMatchObject({ document_name: "cars.md", term_similarity: expect.closeTo(0, 6) });
    // 0.5 × 0 (no shared term) + 0.5 × cosine; the chunk's vector is 0.1 × its file name's + 0.9 × the concept's.
    expect(hybrid.chunks[0].vector_similarity).toBeGreaterThan(0.9);
    expect(hybrid.chunks[0].similarity).toBeCloseTo(0.5 * hybrid.chunks[0].vector_similarity!, 6);
    expect(hybrid.chunks.map((c) => c.document_name)).not.toContain("boats.md");
    // The query's embedding is counted into the run's usage (the mock counts words).
    expect(hybrid.tokens).toBe(2);

    const keywordsOnly = await retrieve(kb, models(server), "automobile maintenance", { keywords_similarity_weight: 1 });
    expect(keywordsOnly.chunks).toEqual([]);
    expect(keywordsOnly.text).toBe('Nothing relevant to "automobile maintenance" was found in the knowledge base.');
    expect(keywordsOnly.tokens).toBe(0);
  });

  it("blends term and vector similarity by keywords_similarity_weight and applies the threshold to the blend", async () => {
    const server = await mock(VEHICLES);
    const dir = await folder(GARAGE);
    const kb = { type: "local" as const, dir };
    const all = await retrieve(kb, models(server), "bicycle chain", { similarity_threshold: 0, keywords_similarity_weight: 0.3 });
    const bikes = all.chunks.find((c) => c.document_name === "bikes.md")!;
    expect(bikes.term_similarity).toBeCloseTo(1, 6);
    expect(bikes.similarity).toBeCloseTo(0.3 * bikes.term_similarity! + 0.7 * bikes.vector_similarity!, 6);
    for (const chunk of all.chunks) expect(chunk.similarity).toBeCloseTo(0.3 * chunk.term_similarity! + 0.7 * chunk.vector_similarity!, 6);
    const threshold = bikes.similarity - 1e-6;
    const strict = await retrieve(kb, models(server), "bicycle chain", { similarity_threshold: threshold, keywords_similarity_weight: 0.3 });
    expect(strict.chunks.map((c) => c.id)).toEqual(all.chunks.filter((c) => c.similarity >= threshold).map((c) => c.id));
    const one = await retrieve(kb, models(server), "bicycle chain", { similarity_threshold: 0, keywords_similarity_weight: 0.3, top_n: 1 });
    expect(one.chunks).toEqual(all.chunks.slice(0, 1));
  });

  it("follows the reranker: the mock reverses the order it is sent, and the output follows it", async () => {
    const server = await mock({ rerank: [{ match: ".", order: "reverse" }] });
    const dir = await folder({ "a.txt": "Apples grow on trees.", "b.txt": "Apples are red or green apples.", "c.txt": "Apple pie with apples." });
    const kb = { type: "local" as const, dir };
    const knowledgeModels = models(server, { rerankModels: { "bge-reranker-v2-m3": { provider: "mock", model: "mock-rerank" } } });
    const plain = await retrieve(kb, knowledgeModels, "apples", { similarity_threshold: 0 });
    const reranked = await retrieve(kb, knowledgeModels, "apples", { similarity_threshold: 0, rerank_id: "bge-reranker-v2-m3@Xinference" });
    const request = server.requests.find((r) => r.path === "/v1/rerank")!.body as { model: string; query: string; documents: string[]; top_n: number };
    expect(request).toMatchObject({ model: "mock-rerank", query: "apples", top_n: 3 });
    // Sent best first by the blend; the reranker reverses that, and the output follows the reranker.
    expect(request.documents).toEqual(plain.chunks.map((c) => c.content));
    expect(reranked.chunks.map((c) => c.content)).toEqual([...request.documents].reverse());
    // The reranker's score takes the cosine's place in the blend (rerank_by_model).
    for (const chunk of reranked.chunks) expect(chunk.similarity).toBeCloseTo(0.5 * chunk.term_similarity! + 0.5 * chunk.vector_similarity!, 6);
    expect(reranked.chunks.map((c) => c.vector_similarity)).toEqual([1, 2 / 3, 1 / 3]);
  });

  it("makes the Retrieval unavailable, naming the endpoint, when the embedding or rerank endpoint cannot be reached; on a canvas the run goes on", async () => {
    const dir = await folder(GARAGE);
    const kb = { type: "local" as const, dir };
    const port = await closedPort();
    const down = models({ url: `http://127.0.0.1:${port}/v1` }, { rerankModels: { r: { provider: "mock" } } });
    const failure = retrieve(kb, down, "automobile");
    await expect(failure).rejects.toBeInstanceOf(UnavailableError);
    await expect(retrieve(kb, down, "automobile")).rejects.toThrow(`embedding model "mock-embed" at http://127.0.0.1:${port}/v1 could not be reached: ECONNREFUSED`);

    const server = await mock();
    const rerankDown = createKnowledgeModels(
      { providers: { mock: { baseURL: server.url }, gone: { baseURL: `http://127.0.0.1:${port}/v1` } }, embedding: { provider: "mock", model: "e" }, rerankModels: { r: { provider: "gone", model: "rr" } } },
      {},
      { retry: FAST_RETRY },
    );
    await expect(retrieve(kb, rerankDown, "oil", { rerank_id: "r" })).rejects.toThrow(`rerank model "rr" at http://127.0.0.1:${port}/v1/rerank could not be reached: ECONNREFUSED`);
    await expect(retrieve(kb, rerankDown, "oil", { rerank_id: "unknown" })).rejects.toThrow('rerank_id "unknown" is not configured: add "unknown" to "rerankModels"');

    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Retrieval:Docs"]),
      "Retrieval:Docs": node("Retrieval", { query: "sys.query", kb_ids: ["kb"] }, ["Message:Out"]),
      "Message:Out": node("Message", { content: ["Found:{Retrieval:Docs@formalized_content}"] }),
    });
    const canvas = await loadCanvas(dsl, { services: { tools: { knowledgeBases: { kb }, knowledgeModels: down, endpoints: {}, env: {} } } });
    const events = await canvas.runToEnd({ query: "automobile" });
    expect(lastEvent(events)).toMatchObject({ event: "workflow_finished" });
    expect(lastEvent(events).data).not.toHaveProperty("error");
    expect(nodeFinished(events, "Retrieval:Docs").error).toContain(`http://127.0.0.1:${port}/v1 could not be reached`);
    expect(messageText(events)).toContain("could not be reached");
  });

  it("retries 429 and 5xx embedding answers, then succeeds", async () => {
    const server = await mock({ embeddings: [{ match: ".", status: 503, message: "warming up", times: 2 }] });
    const dir = await folder({ "one.txt": "Only one file." });
    const { report } = await buildIndex({ dir, embedding: models(server).embeddingFor({ type: "local", dir }, "kb") });
    expect(report.chunks).toBe(1);
    expect(server.requests.filter((r) => r.path === "/v1/embeddings")).toHaveLength(3);
  });
});

describe("the persistent index", () => {
  it("re-embeds only the file that changed, counted in the mock's request log", async () => {
    const server = await mock();
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`doc${i}.md`] = `# Doc ${i}\n\nParagraph ${i} about topic ${i}.\n\n## More\n\nSecond section of document ${i}.`;
    const dir = await folder(files);
    const embedding = models(server).embeddingFor({ type: "local", dir }, "kb");
    const first = await buildIndex({ dir, embedding });
    expect(first.report).toMatchObject({ files: 6, chunks: 12, chunkedFiles: 6, reusedFiles: 0, embeddedChunks: 12 });
    expect(first.report.tokens).toBeGreaterThan(0);
    // 12 chunks and 6 file names.
    expect(embeddedTexts(server)).toHaveLength(18);
    expect(await readdir(path.join(dir, ".canvasflow-index", "entries"))).toHaveLength(6);

    server.requests.length = 0;
    const again = await buildIndex({ dir, embedding });
    expect(again.report).toMatchObject({ chunkedFiles: 0, reusedFiles: 6, embeddedChunks: 0, tokens: 0 });
    expect(embeddedTexts(server)).toEqual([]);

    await writeFile(path.join(dir, "doc3.md"), "# Doc 3\n\nRewritten entirely: zeppelins.");
    await utimes(path.join(dir, "doc3.md"), new Date(), new Date(Date.now() + 5000));
    const updated = await buildIndex({ dir, embedding });
    expect(updated.report).toMatchObject({ files: 6, chunks: 11, chunkedFiles: 1, reusedFiles: 5, embeddedChunks: 1 });
    expect(embeddedTexts(server)).toEqual(["# Doc 3\n\nRewritten entirely: zeppelins."]);
    // The old entry is gone; the search sees the new text.
    expect(await readdir(path.join(dir, ".canvasflow-index", "entries"))).toHaveLength(6);
    const found = await retrieve({ type: "local", dir }, models(server), "zeppelins");
    expect(found.chunks[0].document_name).toBe("doc3.md");

    // A file touched but not changed is hashed and keeps its entry.
    server.requests.length = 0;
    await utimes(path.join(dir, "doc1.md"), new Date(), new Date(Date.now() + 9000));
    expect((await buildIndex({ dir, embedding })).report).toMatchObject({ chunkedFiles: 0, embeddedChunks: 0 });
    expect(embeddedTexts(server)).toEqual([]);
  });

  it("rebuilds on a dimension mismatch and on another model, and says so", async () => {
    const server = await mock();
    const dir = await folder({ "a.txt": "Alpha text.", "b.txt": "Beta text." });
    const at = (dimensions: number, model = "mock-embed") =>
      createKnowledgeModels({ providers: { mock: { baseURL: server.url } }, embedding: { provider: "mock", model, dimensions } }, {}, { retry: FAST_RETRY }).embeddingFor({ type: "local", dir }, "kb");
    await buildIndex({ dir, embedding: at(64) });
    server.requests.length = 0;
    const smaller = await buildIndex({ dir, embedding: at(32) });
    expect(smaller.report.notes).toEqual([expect.stringContaining("dimension mismatch: the index at")]);
    expect(smaller.report.notes[0]).toMatch(/holds 64-dimensional vectors, the configuration asks for 32: rebuilding it$/);
    expect(smaller.report.embeddedChunks).toBe(2);
    expect(smaller.index.vectors?.dimensions).toBe(32);
    const other = await buildIndex({ dir, embedding: at(32, "other-embed") });
    expect(other.report.notes[0]).toContain('was made with "mock-embed" of provider "mock" at 32 dimensions, the configuration now says "other-embed" of provider "mock" at 32 dimensions: rebuilding it');
    const keywords = await buildIndex({ dir });
    expect(keywords.report.notes[0]).toContain("the configuration now says no embedding model (keywords only)");
    expect(keywords.index.vectors).toBeUndefined();
  });

  it("never uses a corrupt cache: a damaged entry is read again from its file, a damaged manifest rebuilds all", async () => {
    const server = await mock();
    const dir = await folder({ "a.txt": "Alpha text.", "b.txt": "Beta text.", "c.txt": "Gamma text." });
    const embedding = models(server).embeddingFor({ type: "local", dir }, "kb");
    const first = await buildIndex({ dir, embedding });
    const entries = path.join(dir, ".canvasflow-index", "entries");
    const [victim] = await readdir(entries);
    const bytes = await readFile(path.join(entries, victim));
    bytes[bytes.length - 40] ^= 0xff;
    await writeFile(path.join(entries, victim), bytes);
    server.requests.length = 0;
    const repaired = await buildIndex({ dir, embedding });
    expect(repaired.report.notes).toEqual([expect.stringMatching(/^the cached entry of [abc]\.txt is corrupt \(its checksum does not match\): reading the file again$/)]);
    expect(repaired.report).toMatchObject({ chunkedFiles: 1, reusedFiles: 2, embeddedChunks: 1 });
    expect(repaired.index.chunks.map((c) => c.content)).toEqual(first.index.chunks.map((c) => c.content));

    await writeFile(path.join(dir, ".canvasflow-index", "manifest.json"), "{ half a manif");
    const rebuilt = await buildIndex({ dir, embedding });
    expect(rebuilt.report.notes[0]).toMatch(/is corrupt \(manifest.json is not valid JSON: .*\): rebuilding it$/);
    // Unchanged entries are valid and keyed by content: they are used again, only the file names are embedded anew.
    expect(rebuilt.report).toMatchObject({ files: 3, chunks: 3 });
  });

  it("keeps the index in indexDir when configured, and in memory only when it cannot be written", async () => {
    const server = await mock();
    const dir = await folder({ "a.txt": "Alpha text." });
    const indexDir = path.join(await folder({}), "idx");
    const found = await retrieve({ type: "local", dir, indexDir }, models(server), "alpha");
    expect(found.chunks[0].content).toBe("Alpha text.");
    expect(await readdir(indexDir)).toEqual(expect.arrayContaining(["entries", "manifest.json"]));
    expect(await readdir(dir)).toEqual(["a.txt"]);

    const blocker = path.join(await folder({ file: "not a folder" }), "file");
    const { report, index } = await buildIndex({ dir, indexDir: path.join(blocker, "idx") });
    expect(report.notes[0]).toMatch(/^cannot write the index at .*: the index is kept in memory only$/);
    expect(index.chunks).toHaveLength(1);
  });
});

describe("file types", () => {
  it("reads .pdf (text layer), .docx, .html and .csv, and lists a file it cannot read with the reason", async () => {
    const dir = await folder({
      "manual.pdf": minimalPdf([["Chapter one: unpacking the kettle."], ["Descaling uses citric acid every month."]]),
      "policy.docx": await minimalDocx([{ heading: 1, text: "Warranty" }, { text: "The kettle is covered for two years." }]),
      "page.html": "<html><head><script>var hidden = 'no';</script></head><body><h1>Support</h1><p>Call the <a href='https://x'>hotline</a> at noon.</p></body></html>",
      "prices.csv": "item;price\nkettle;30\nfilter;4\n",
      "broken.pdf": "this is not a PDF",
    });
    const { index, report } = await buildIndex({ dir });
    const sections = index.chunks.map((c) => `${c.documentName} | ${c.section} | ${c.content}`);
    expect(sections).toEqual([
      "manual.pdf | page 1 | Chapter one: unpacking the kettle.",
      "manual.pdf | page 2 | Descaling uses citric acid every month.",
      "page.html | Support | # Support\n\nCall the hotline at noon.",
      "policy.docx | Warranty | # Warranty\n\nThe kettle is covered for two years.",
      "prices.csv | row 1 | item: kettle\nprice: 30",
      "prices.csv | row 2 | item: filter\nprice: 4",
    ]);
    expect(report.skipped).toEqual([{ path: "broken.pdf", reason: expect.stringMatching(/^it is not a readable PDF: /) }]);
    const server = await mock();
    const found = await retrieve({ type: "local", dir }, models(server), "descaling citric acid");
    expect(found.chunks[0]).toMatchObject({ document_name: "manual.pdf", section: "page 2" });
  });
});
