/**
 * Retrieval: chunking and indexing of local knowledge bases, scoring, the kb_prompt text, the
 * RAGFlow HTTP backend (against a loopback stand-in), and both uses of the tool: as a canvas node
 * (references reach message_end) and as an Agent's tool through `run`.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { ReferenceChunk } from "../../src/components/types.js";
import type { KnowledgeBaseConfig } from "../../src/config/types.js";
import { paramsWithDefaults } from "../../src/components/params.js";
import { UnavailableError } from "../../src/components/unavailable.js";
import { Retrieval } from "../../src/tools/retrieval.js";
import { setIndexNotifier } from "../../src/knowledge/knowledge-base.js";
import { buildIndex } from "../../src/knowledge/indexer.js";
import { idf } from "../../src/knowledge/similarity.js";
import { chunkJson, chunkMarkdown, chunkText, splitToCap } from "../../src/knowledge/chunking.js";
import { citationId, formatChunks } from "../../src/tools/retrieval/kb-prompt.js";
import { queryTerms, tokenize } from "../../src/knowledge/tokenize.js";
import type { ToolContext } from "../../src/tools/types.js";
import { canvasDsl, lastEvent, messageEnd, messageText, node } from "../helpers/dsl.js";
import { closedPort, sendJson, startLoopbackServer, type LoopbackServer } from "../helpers/http.js";
import { toolContext as toolContextWith } from "../helpers/tools.js";

const FIXTURE_KB = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/kb");
// A copy: searching a folder writes its index beside it (.canvasflow-index).
const KB_DIR = mkdtempSync(path.join(tmpdir(), "canvasflow-kb-fixture-"));
cpSync(FIXTURE_KB, KB_DIR, { recursive: true });
const notes: string[] = [];
setIndexNotifier((note) => notes.push(note));
afterAll(() => rm(KB_DIR, { recursive: true, force: true }));

function services(knowledgeBases: Record<string, KnowledgeBaseConfig>) {
  return { tools: { knowledgeBases, endpoints: {}, env: {} } };
}

/** A ToolContext as an Agent builds one: the tool's configured params with defaults, no canvas. */
function toolContext(params: Record<string, unknown>, knowledgeBases: Record<string, KnowledgeBaseConfig>, env: Record<string, string> = {}) {
  return toolContextWith({ params: paramsWithDefaults(Retrieval, params), knowledgeBases, env, label: "Agent:A → search_my_dateset" });
}

const run = (args: Record<string, unknown>, ctx: ToolContext) => Retrieval.tool!.run(args, ctx);

type Chunk = ReferenceChunk & { similarity: number; section?: string };

describe("chunking", () => {
  it("cuts Markdown by headings, keeping the heading path as the section", () => {
    const chunks = chunkMarkdown("Intro line.\n\n# A\n\nText of A.\n\n## B\n\nText of B.\n\n```\n# not a heading\n```\n\n# C\n");
    expect(chunks).toEqual([
      { section: "", content: "Intro line." },
      { section: "A", content: "# A\n\nText of A." },
      { section: "A > B", content: "## B\n\nText of B.\n\n```\n# not a heading\n```" },
    ]);
  });

  it("packs the paragraphs of a long section into pieces under the cap, each opened by the heading", () => {
    const paragraph = "word ".repeat(30).trim();
    const chunks = chunkMarkdown(`## Long\n\n${Array.from({ length: 6 }, () => paragraph).join("\n\n")}`, 400);
    expect(chunks.length).toBe(3);
    for (const chunk of chunks) {
      expect(chunk.section).toBe("Long");
      expect(chunk.content.startsWith("## Long\n\n")).toBe(true);
      expect(chunk.content.length).toBeLessThanOrEqual(400);
    }
  });

  it("cuts plain text by paragraphs", () => {
    expect(chunkText("one\ntwo\n\n\nthree\n")).toEqual([
      { section: "", content: "one\ntwo" },
      { section: "", content: "three" },
    ]);
  });

  it("makes one chunk per JSON element or record, named by a title-like field", () => {
    expect(chunkJson('[{"question": "Q1?", "answer": "A1"}, 42]')).toEqual([
      { section: "Q1?", content: "question: Q1?\nanswer: A1" },
      { section: "[1]", content: "42" },
    ]);
    expect(chunkJson('{"products": [{"name": "Lamp", "price": 12}], "version": 3, "owner": {"id": 7}}')).toEqual([
      { section: "products > Lamp", content: "name: Lamp\nprice: 12" },
      { section: "version", content: "version: 3" },
      { section: "owner", content: "id: 7" },
    ]);
    expect(() => chunkJson("{oops")).toThrow();
  });

  it("never makes a piece longer than the cap, and loses no text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.integer({ min: 20, max: 500 }), (text, max) => {
        const pieces = splitToCap(text, max);
        for (const piece of pieces) {
          expect(piece.length).toBeLessThanOrEqual(max);
          expect(piece).not.toBe("");
        }
        expect(pieces.join("").replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
      }),
    );
  });
});

describe("search terms", () => {
  it("splits words, pairs CJK characters, drops stop words and accents", () => {
    expect(tokenize("Reset my pass-word, café")).toEqual(["Reset", "my", "pass", "word", "café"]);
    expect(tokenize("退货政策ok")).toEqual(["退货", "货政", "政策", "ok"]);
    expect(queryTerms("How do I reset THE password? Café café")).toEqual(["reset", "password", "cafe"]);
  });
});

describe("local knowledge bases", () => {
  it("finds the section that answers the query, with a similarity in [0, 1]", async () => {
    const { ctx, references } = toolContext({ kb_ids: ["shop"] }, { shop: { type: "local", dir: KB_DIR } });
    const out = await run({ query: "how do I reset my password" }, ctx);
    const chunks = out.json as Chunk[];
    expect(chunks[0]).toMatchObject({ document_name: "guides/passwords.md", section: "Accounts > Resetting a password", dataset_id: "shop" });
    expect(chunks[0].content).toContain("Forgot password");
    for (const chunk of chunks) {
      expect(chunk.similarity).toBeGreaterThanOrEqual(0.2);
      expect(chunk.similarity).toBeLessThanOrEqual(1);
    }
    expect(chunks.map((c) => c.similarity)).toEqual([...chunks.map((c) => c.similarity)].sort((a, b) => b - a));
    expect(references).toHaveLength(1);
    expect(references[0].chunks).toEqual(chunks);
    expect(references[0].documents?.[0]).toEqual({ doc_id: chunks[0].document_id, doc_name: "guides/passwords.md", count: chunks.filter((c) => c.document_id === chunks[0].document_id).length });
  });

  it("searches JSON records and CJK text", async () => {
    const { ctx } = toolContext({ kb_ids: ["shop"] }, { shop: { type: "local", dir: KB_DIR } });
    const refunds = (await run({ query: "return an item for a refund" }, ctx)).json as Chunk[];
    expect(refunds[0]).toMatchObject({ document_name: "faq.json", section: "Can I return an item?" });
    const cjk = (await run({ query: "退货" }, ctx)).json as Chunk[];
    expect(cjk[0]).toMatchObject({ document_name: "知识.md", section: "退货政策" });
  });

  it("applies top_n and similarity_threshold", async () => {
    const kbs = { shop: { type: "local" as const, dir: KB_DIR } };
    const all = (await run({ query: "delivery express password refund" }, toolContext({ kb_ids: ["shop"], similarity_threshold: 0 }, kbs).ctx)).json as Chunk[];
    expect(all.length).toBeGreaterThan(2);
    const two = (await run({ query: "delivery express password refund" }, toolContext({ kb_ids: ["shop"], similarity_threshold: 0, top_n: 2 }, kbs).ctx)).json as Chunk[];
    expect(two).toEqual(all.slice(0, 2));
    const threshold = all[1].similarity;
    const strict = (await run({ query: "delivery express password refund" }, toolContext({ kb_ids: ["shop"], similarity_threshold: threshold }, kbs).ctx)).json as Chunk[];
    expect(strict).toEqual(all.filter((c) => c.similarity >= threshold));
    expect(strict.length).toBeLessThan(all.length);
  });

  it("skips a file it cannot read, naming it and the reason, and names a folder that does not exist", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "canvasflow-kb-"));
    try {
      await writeFile(path.join(dir, "broken.json"), "{ not json");
      await writeFile(path.join(dir, "ok.txt"), "The zeppelin leaves at noon.");
      const { ctx } = toolContext({ kb_ids: ["bad"] }, { bad: { type: "local", dir } });
      notes.length = 0;
      const found = (await run({ query: "zeppelin" }, ctx)).json as Chunk[];
      expect(found.map((c) => c.document_name)).toEqual(["ok.txt"]);
      expect(notes).toEqual([expect.stringMatching(new RegExp(`^knowledge base ${dir}: skipped broken.json: it is not valid JSON: `))]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const missing = toolContext({ kb_ids: ["gone"] }, { gone: { type: "local", dir: "/nonexistent/kb" } }).ctx;
    await expect(run({ query: "x" }, missing)).rejects.toThrow('knowledge base "gone" (/nonexistent/kb): cannot read the folder /nonexistent/kb: it does not exist');
    await expect(run({ query: "x" }, missing)).rejects.toBeInstanceOf(UnavailableError);
  });
});

describe("the Retrieval tool", () => {
  const shop = { shop: { type: "local" as const, dir: KB_DIR } };

  it("offers RAGFlow's function schema to a model", () => {
    expect(Retrieval.tool!.schema(paramsWithDefaults(Retrieval, {}))).toEqual({
      type: "function",
      function: {
        name: "search_my_dateset",
        description: "This tool can be utilized for relevant content searching in the datasets.",
        parameters: {
          type: "object",
          properties: {
            query: {
              type: "string",
              description: "The keywords to search the dataset. The keywords should be the most important words/terms(includes synonyms) from the original request.",
            },
          },
          required: ["query"],
        },
      },
    });
    expect(Retrieval.tool!.schema(paramsWithDefaults(Retrieval, { description: "Technical docs." })).function.description).toBe("Technical docs.");
  });

  it("formats chunks as RAGFlow's kb_prompt does, citing each by a stable id", async () => {
    const { ctx } = toolContext({ kb_ids: ["shop"], top_n: 1 }, shop);
    const out = await run({ query: "user: tracking number" }, ctx);
    const [chunk] = out.json as Chunk[];
    expect(out.formalized_content).toBe(`\nID: ${citationId(chunk.id)}\n├── Title: shipping.txt\n└── Content:\nParcels can be tracked with the tracking number from the confirmation e-mail.`);
    expect(formatChunks([{ id: "c1", content: "Body", document_name: "a.md", section: "S\nT", url: "https://x" }])).toBe(
      `\nID: ${citationId("c1")}\n├── Title: a.md\n├── Section: S T\n├── URL: https://x\n└── Content:\nBody`,
    );
    expect(citationId("c1")).toBe(citationId("c1"));
    expect(citationId("c1")).not.toBe(citationId("c2"));
  });

  it("returns empty content for an empty query, and empty_response (or a plain note) when nothing is found", async () => {
    const { ctx, references } = toolContext({ kb_ids: ["shop"] }, shop);
    expect(await run({ query: "  " }, ctx)).toEqual({ formalized_content: "", json: [] });
    expect(await run({ query: "zeppelin" }, ctx)).toEqual({ formalized_content: 'Nothing relevant to "zeppelin" was found in the knowledge base.', json: [] });
    const custom = toolContext({ kb_ids: ["shop"], empty_response: "Sorry, no idea." }, shop).ctx;
    expect(await run({ query: "zeppelin" }, custom)).toEqual({ formalized_content: "Sorry, no idea.", json: [] });
    expect(references).toEqual([]);
  });

  it("reads dataset_ids before the deprecated kb_ids, and names an unconfigured id and how to configure it", async () => {
    const { ctx } = toolContext({ dataset_ids: ["missing-kb"], kb_ids: ["shop"] }, shop);
    await expect(run({ query: "password" }, ctx)).rejects.toThrow(
      'knowledge base "missing-kb" is not configured: add it with --kb missing-kb=DIR or under knowledgeBases in canvasflow.config.json',
    );
    // Not the canvas's fault: the run records it and goes on (an Agent reads it as the tool's result).
    await expect(run({ query: "password" }, ctx)).rejects.toBeInstanceOf(UnavailableError);
    const none = toolContext({}, shop).ctx;
    await expect(run({ query: "password" }, none)).rejects.toThrow("no dataset is selected (dataset_ids and kb_ids are empty)");
  });

  it('uses the knowledge base configured as "*" for ids that have none and when none is named', async () => {
    const any = { "*": { type: "local" as const, dir: KB_DIR } };
    for (const params of [{}, { kb_ids: ["a5aaec4a819b11f095f1047c16ec874f"] }]) {
      const { ctx } = toolContext(params, any);
      expect(((await run({ query: "password" }, ctx)).json as Chunk[])[0].document_name).toBe("guides/passwords.md");
    }
  });

  it("refuses dataset references outside a canvas, and memory retrieval without a memory store", async () => {
    await expect(run({ query: "password" }, toolContext({ kb_ids: ["begin@kb"] }, shop).ctx)).rejects.toThrow(
      'kb_ids entry "begin@kb" is a reference, which can only be read when Retrieval runs inside a canvas',
    );
    await expect(run({ query: "password" }, toolContext({ retrieval_from: "memory", memory_ids: ["m"] }, shop).ctx)).rejects.toThrow('retrieval_from is "memory" (memory_ids "m"), but this run has no memory store');
  });
});

describe("the RAGFlow backend", () => {
  let server: LoopbackServer;
  let baseURL: string;
  const requests: Array<{ url: string | undefined; auth: string | undefined; body: Record<string, unknown> }> = [];
  let reply: { status: number; body: unknown } = { status: 200, body: {} };

  beforeAll(async () => {
    server = await startLoopbackServer((request, res) => {
      requests.push({ url: request.url, auth: request.headers.authorization, body: JSON.parse(request.body) });
      sendJson(res, reply.status, reply.body);
    });
    baseURL = server.base;
  });
  afterAll(() => server.close());

  const chunk = (id: string, similarity: number) => ({
    content: `content ${id}`,
    content_ltks: "ignored",
    document_id: `doc-${id}`,
    document_keyword: `${id}.pdf`,
    highlight: "",
    id,
    image_id: "",
    important_keywords: [""],
    kb_id: "ds-1",
    positions: [""],
    similarity,
    term_similarity: 1,
    vector_similarity: 0.5,
  });

  it("posts RAGFlow's retrieval request with the bearer key and maps the chunks", async () => {
    requests.length = 0;
    reply = { status: 200, body: { code: 0, data: { chunks: [chunk("c1", 0.9), chunk("c2", 0.4)], doc_aggs: [{ count: 1, doc_id: "doc-c1", doc_name: "c1.pdf" }], total: 2 } } };
    const kbs = { support: { type: "ragflow" as const, baseURL: `${baseURL}/`, apiKeyEnv: "RAGFLOW_KEY", datasetId: "ds-1" } };
    const { ctx, references } = toolContext({ kb_ids: ["support"], top_n: 5, keywords_similarity_weight: 0.7, rerank_id: "bge-reranker" }, kbs, { RAGFLOW_KEY: "ragflow-secret" });
    const out = await run({ query: "what is ragflow" }, ctx);
    expect(requests).toEqual([
      {
        url: "/api/v1/retrieval",
        auth: "Bearer ragflow-secret",
        body: {
          question: "what is ragflow",
          dataset_ids: ["ds-1"],
          page: 1,
          page_size: 5,
          top_k: 1024,
          similarity_threshold: 0.2,
          vector_similarity_weight: 1 - 0.7,
          keyword: false,
          highlight: false,
          use_kg: false,
          toc_enhance: false,
          rerank_id: "bge-reranker",
        },
      },
    ]);
    expect(out.json).toEqual([
      {
        id: "c1",
        content: "content c1",
        document_id: "doc-c1",
        document_name: "c1.pdf",
        dataset_id: "ds-1",
        similarity: 0.9,
        term_similarity: 1,
        vector_similarity: 0.5,
        positions: [""],
        important_keywords: [""],
      },
      expect.objectContaining({ id: "c2", similarity: 0.4 }),
    ]);
    expect(out.formalized_content).toBe(`\nID: ${citationId("c1")}\n├── Title: c1.pdf\n└── Content:\ncontent c1\n\nID: ${citationId("c2")}\n├── Title: c2.pdf\n└── Content:\ncontent c2`);
    expect(references[0].documents).toEqual([
      { doc_id: "doc-c1", doc_name: "c1.pdf", count: 1 },
      { doc_id: "doc-c2", doc_name: "c2.pdf", count: 1 },
    ]);
  });

  it("merges local and RAGFlow chunks by similarity", async () => {
    reply = { status: 200, body: { code: 0, data: { chunks: [chunk("remote", 0.8), chunk("weak", 0.1)], doc_aggs: [] } } };
    const kbs = { remote: { type: "ragflow" as const, baseURL }, shop: { type: "local" as const, dir: KB_DIR } };
    const out = await run({ query: "password zeppelin" }, toolContext({ kb_ids: ["shop", "remote"], top_n: 2 }, kbs).ctx);
    const chunks = out.json as Chunk[];
    expect(chunks.map((c) => c.id)[0]).toBe("remote");
    expect(chunks[1]).toMatchObject({ document_name: "guides/passwords.md", vector_similarity: 0 });
    // Without embeddings the similarity is RAGFlow's term similarity: "password" (0.4 of its weight)
    // is found, "zeppelin" (0.4 of its weight) and the pair "password zeppelin" (0.6 of the larger) are not.
    const { index } = await buildIndex({ dir: KB_DIR });
    const wp = idf(index.keywords.documentFrequency("password"), index.keywords.size);
    const wz = idf(0, index.keywords.size);
    const expected = (0.4 * wp) / (wp + wz) / (0.4 + (0.6 * Math.max(wp, wz)) / (wp + wz));
    expect(chunks[1].similarity).toBeCloseTo(expected, 6);
    expect(chunks[1].term_similarity).toBeCloseTo(expected, 6);
  });

  it("reports RAGFlow's error answer, a missing key variable and an unreachable server clearly", async () => {
    reply = { status: 200, body: { code: 102, message: "`datasets` is required." } };
    const kbs = { support: { type: "ragflow" as const, baseURL } };
    await expect(run({ query: "q" }, toolContext({ kb_ids: ["support"] }, kbs).ctx)).rejects.toThrow(`RAGFlow knowledge base "support" (${baseURL}/api/v1/retrieval): HTTP 200, code 102: \`datasets\` is required.`);
    await expect(run({ query: "q" }, toolContext({ kb_ids: ["support"] }, kbs).ctx)).rejects.not.toBeInstanceOf(UnavailableError);
    reply = { status: 401, body: { code: 109, message: "Authentication error: API key is invalid!" } };
    await expect(run({ query: "q" }, toolContext({ kb_ids: ["support"] }, kbs).ctx)).rejects.toThrow("(check the API key: apiKeyEnv of this knowledge base)");
    const keyed = { support: { type: "ragflow" as const, baseURL, apiKeyEnv: "NO_SUCH_KEY" } };
    await expect(run({ query: "q" }, toolContext({ kb_ids: ["support"] }, keyed).ctx)).rejects.toThrow(
      'RAGFlow knowledge base "support" reads its API key from the environment variable NO_SUCH_KEY, which is not set',
    );
    const port = await closedPort();
    const down = { support: { type: "ragflow" as const, baseURL: `http://127.0.0.1:${port}` } };
    await expect(run({ query: "q" }, toolContext({ kb_ids: ["support"] }, down).ctx)).rejects.toThrow(`RAGFlow knowledge base "support" (http://127.0.0.1:${port}/api/v1/retrieval): the request failed: ECONNREFUSED`);
    await expect(run({ query: "q" }, toolContext({ kb_ids: ["support"] }, down).ctx)).rejects.toBeInstanceOf(UnavailableError);
  });
});

describe("Retrieval on a canvas", () => {
  function retrievalCanvas(params: Record<string, unknown>, beginParams: Record<string, unknown> = {}) {
    return canvasDsl({
      begin: node("Begin", beginParams, ["Retrieval:Docs"]),
      "Retrieval:Docs": node("Retrieval", { query: "sys.query", ...params }, ["Message:Out"]),
      "Message:Out": node("Message", { content: ["Found:{Retrieval:Docs@formalized_content}"] }),
    });
  }

  it("begin → Retrieval → Message: the chunks reach the message and message_end's reference", async () => {
    const canvas = await loadCanvas(retrievalCanvas({ kb_ids: ["shop"], top_n: 2 }), { services: services({ shop: { type: "local", dir: KB_DIR } }) });
    const events = await canvas.runToEnd({ query: "express delivery cost" });
    expect(lastEvent(events)).toMatchObject({ event: "workflow_finished" });
    expect(lastEvent(events).data).not.toHaveProperty("error");
    const outputs = canvas.outputs("Retrieval:Docs")!;
    const chunks = outputs.json as Chunk[];
    expect(chunks[0].content).toContain("Express delivery takes one working day and costs 12 euros.");
    expect(messageText(events)).toBe(`Found:${outputs.formalized_content as string}`);
    expect(chunks.map((c) => c.document_name)).toEqual(["shipping.txt", "faq.json"]);
    expect(messageEnd(events)).toEqual({
      reference: {
        chunks,
        doc_aggs: [
          { doc_id: chunks[0].document_id, doc_name: "shipping.txt", count: 1 },
          { doc_id: chunks[1].document_id, doc_name: "faq.json", count: 1 },
        ],
      },
    });
    const finished = events.find((e) => e.event === "node_finished" && e.data.component_id === "Retrieval:Docs");
    expect(finished?.event === "node_finished" && finished.data.inputs).toMatchObject({ query: "express delivery cost" });
  });

  it("resolves a template query and dataset references from the canvas", async () => {
    const dsl = retrievalCanvas(
      { query: "Question: {begin@topic}", kb_ids: ["begin@kb"] },
      { inputs: { topic: { name: "Topic", type: "line", optional: false }, kb: { name: "KB", type: "line", optional: false } } },
    );
    const canvas = await loadCanvas(dsl, { services: services({ shop: { type: "local", dir: KB_DIR } }) });
    const events = await canvas.runToEnd({ query: "", inputs: { topic: { value: "two-factor authentication" }, kb: { value: "shop" } } });
    expect(lastEvent(events).data).not.toHaveProperty("error");
    expect((canvas.outputs("Retrieval:Docs")!.json as Chunk[])[0].section).toBe("Accounts > Two-factor authentication");
  });

  it("an unconfigured knowledge base is recorded as unavailable and the run goes on", async () => {
    const canvas = await loadCanvas(retrievalCanvas({ kb_ids: ["kb-1"] }), { services: services({}) });
    const events = await canvas.runToEnd({ query: "what is RAG?" });
    const message = 'knowledge base "kb-1" is not configured: add it with --kb kb-1=DIR or under knowledgeBases in canvasflow.config.json';
    expect(lastEvent(events).data).not.toHaveProperty("error");
    const finished = events.find((e) => e.event === "node_finished" && e.data.component_id === "Retrieval:Docs");
    expect(finished?.event === "node_finished" && finished.data.error).toBe(message);
    expect(messageText(events)).toBe(`Found:${message}`);
  });

  it("shows empty_response when nothing is found, and sends no reference", async () => {
    const canvas = await loadCanvas(retrievalCanvas({ kb_ids: ["shop"], empty_response: "(nothing)" }), { services: services({ shop: { type: "local", dir: KB_DIR } }) });
    const events = await canvas.runToEnd({ query: "zeppelin" });
    expect(messageText(events)).toBe("Found:(nothing)");
    expect(messageEnd(events)).toEqual({});
  });
});
