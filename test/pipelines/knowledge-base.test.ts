/**
 * Ingestion pipelines into local knowledge bases (issue 27): a corpus pipeline, as shipped, chunks
 * a folder of real documents under the mock LLM; the chunks land in the index with RAGFlow's
 * fields; an agent canvas's Retrieval answers from a chunk only the pipeline could make (an
 * e-mail and a spreadsheet: the default chunker reads neither); indexing twice with one file
 * changed runs the pipeline on that file alone; a search on an index the pipeline made chunks a
 * changed file with that pipeline, never with the default chunker.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { DocumentChunker } from "../../src/knowledge/chunkers.js";
import { buildIndex, updateIndex } from "../../src/knowledge/indexer.js";
import { chunkerFor, localKnowledgeBase, setIndexNotifier } from "../../src/knowledge/knowledge-base.js";
import { placeDocument } from "../../src/cli/pipeline-kb.js";
import { openPipelineChunker } from "../../src/pipelines/kb-chunker.js";
import { searchKnowledgeBases } from "../../src/tools/retrieval/search.js";
import { cli } from "../helpers/cli.js";
import { corpusPath } from "../helpers/corpus.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";
import { writePipelineDocuments } from "../helpers/pipeline-documents.js";

const TITLE_CHUNKER = corpusPath("ragflow/head", "title_chunker.json");
const documents = mkdtempSync(join(tmpdir(), "canvasflow-pipeline-kb-docs-"));

const notes: string[] = [];
beforeAll(async () => {
  // The notes of searches (a skipped PDF) are checked, not printed.
  const previous = setIndexNotifier((note) => notes.push(note));
  await writePipelineDocuments(documents);
  return () => void setIndexNotifier(previous);
});

/** A fresh knowledge-base folder holding a copy of the documents. */
function knowledgeFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "canvasflow-pipeline-kb-"));
  cpSync(documents, dir, { recursive: true });
  return dir;
}

/** Opens the pipeline as a chunker, counting the documents it runs on. */
function countingOpener(mock: MockLlm, runs: string[]) {
  return (file: string): Promise<DocumentChunker> =>
    openPipelineChunker(file, { llm: mock.provider }, { onEvent: (document: string, event: CanvasEvent) => void (event.event === "workflow_started" && runs.push(document)) });
}

function searchOptions(query: string) {
  return { query, topN: 5, topK: 1024, similarityThreshold: 0.1, keywordsWeight: 1, rerankId: "", useKg: false, tocEnhance: false, crossLanguages: [], signal: new AbortController().signal };
}

describe("a knowledge base chunked by an ingestion pipeline", () => {
  it("runs every document the Parser reads, skips the PDF it refuses, and keeps RAGFlow's fields", async () => {
    const mock = await startMockLlm();
    const dir = knowledgeFolder();
    const runs: string[] = [];
    const chunker = await countingOpener(mock, runs)(TITLE_CHUNKER);
    const report = await updateIndex({ dir, chunker });
    expect(runs.sort()).toEqual(["guide.md", "handbook.docx", "mail.eml", "notes.txt", "page.html", "prices.xlsx", "report.pdf"]);
    expect(report).toMatchObject({ files: 6, chunkedFiles: 6, reusedFiles: 0 });
    expect(report.skipped).toEqual([{ path: "report.pdf", reason: expect.stringContaining("DeepDOC") }]);
    const manifest = JSON.parse(readFileSync(join(dir, ".canvasflow-index", "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ pipeline: TITLE_CHUNKER, chunking: chunker.key });
    expect(chunker.key).toMatch(/^pipeline:[0-9a-f]{64}$/);
    const { index } = await buildIndex({ dir, chunker });
    // The DOCX's table: its own chunk, with RAGFlow's fields (the Extractor's summary, the Tokenizer's order).
    expect(index.chunks.filter((c) => c.documentName === "handbook.docx").map((c) => [c.content, c.fields])).toEqual([
      ["Handbook\nEvery pipeline starts at File.\n\n", { docnm_kwd: "handbook.docx", doc_type_kwd: "text", summary: expect.stringContaining("[mock reply]"), chunk_order_int: 0 }],
      [
        "<table><caption>Table Location: handbook > Handbook</caption><tr><td>step</td><td>job</td></tr><tr><td>Parser</td><td>reads</td></tr></table>",
        { docnm_kwd: "handbook.docx", doc_type_kwd: "table", summary: expect.stringContaining("[mock reply]"), chunk_order_int: 1 },
      ],
    ]);

    const { chunks } = await searchKnowledgeBases([{ id: "docs", config: { type: "local", dir } }], searchOptions("harvest festival"), {}, undefined, countingOpener(mock, []));
    expect(chunks[0]).toMatchObject({ document_name: "mail.eml", content: expect.stringContaining("The harvest festival is on Friday.") });
  });

  it("indexed twice with one file changed, runs the pipeline on that file alone", async () => {
    const mock = await startMockLlm();
    const dir = knowledgeFolder();
    const runs: string[] = [];
    const open = countingOpener(mock, runs);
    await updateIndex({ dir, chunker: await open(TITLE_CHUNKER) });
    runs.length = 0;
    writeFileSync(join(dir, "notes.txt"), "Plain notes about the orchard.\nPears ripen in late summer.\n");
    const again = await updateIndex({ dir, chunker: await open(TITLE_CHUNKER) });
    // The PDF the templates refuse is tried again (a failure may have been passing: a model that
    // did not answer); it is refused before anything is parsed.
    expect(runs.sort()).toEqual(["notes.txt", "report.pdf"]);
    expect(again).toMatchObject({ files: 6, chunkedFiles: 1, reusedFiles: 5 });
    runs.length = 0;
    expect(await updateIndex({ dir, chunker: await open(TITLE_CHUNKER) })).toMatchObject({ chunkedFiles: 0, reusedFiles: 6 });
    expect(runs).toEqual(["report.pdf"]);
  });

  it("a search on an index the pipeline made chunks a changed file with that pipeline, and says when it cannot", async () => {
    const mock = await startMockLlm();
    const dir = knowledgeFolder();
    await updateIndex({ dir, chunker: await countingOpener(mock, [])(TITLE_CHUNKER) });
    writeFileSync(join(dir, "mail.eml"), "From: Ada <ada@example.com>\r\nSubject: Harvest\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe harvest festival moved to Saturday.\r\n");
    utimesSync(join(dir, "mail.eml"), new Date(), new Date(Date.now() + 5000));
    const runs: string[] = [];
    // The knowledge base's config names no pipeline: the manifest's is used.
    expect((await chunkerFor({ indexDir: join(dir, ".canvasflow-index"), openPipeline: countingOpener(mock, runs) })).pipeline).toBe(TITLE_CHUNKER);
    const { chunks } = await searchKnowledgeBases([{ id: "docs2", config: { type: "local", dir, indexDir: join(dir, ".canvasflow-index") } }], searchOptions("harvest festival Saturday"), {}, undefined, countingOpener(mock, runs));
    expect(runs.sort()).toEqual(["mail.eml", "report.pdf"]);
    expect(chunks[0]).toMatchObject({ document_name: "mail.eml", content: expect.stringContaining("moved to Saturday") });
    expect(notes.filter((note) => note.startsWith(`knowledge base ${dir}: skipped report.pdf: `) && note.includes('parse_method "DeepDOC"'))).toHaveLength(1);
    await expect(chunkerFor({ indexDir: join(dir, ".canvasflow-index") })).rejects.toThrow(`the index at ${join(dir, ".canvasflow-index")} was made with the pipeline ${TITLE_CHUNKER} (its manifest.json says so), and this process cannot run ingestion pipelines`);
  });

  it("an agent canvas's Retrieval answers from a chunk only the pipeline made", async () => {
    const mock = await startMockLlm();
    const dir = knowledgeFolder();
    await updateIndex({ dir, chunker: await countingOpener(mock, [])(TITLE_CHUNKER) });
    const agent = canvasDsl({
      begin: node("Begin", {}, ["Retrieval:Docs"]),
      "Retrieval:Docs": node("Retrieval", { query: "sys.query", kb_ids: ["docs"], similarity_threshold: 0.1, keywords_similarity_weight: 1 }, ["Message:Out"]),
      "Message:Out": node("Message", { content: ["Found: {Retrieval:Docs@formalized_content}"] }),
    });
    const canvas = await loadCanvas(agent, { services: { llm: mock.provider, tools: { knowledgeBases: { docs: { type: "local", dir } }, endpoints: {}, env: {}, pipelineChunker: countingOpener(mock, []) } } });
    const events = await canvas.runToEnd({ query: "What does a pear cost?" });
    const said = events.filter((e) => e.event === "message").map((e) => (e.data as { content: string }).content).join("");
    expect(said).toContain("prices.xlsx");
    expect(said).toMatch(/pear/);
  });

  it("refuses a pipeline file that is not one, naming it", async () => {
    const mock = await startMockLlm();
    const agent = join(mkdtempSync(join(tmpdir(), "canvasflow-not-pipeline-")), "agent.json");
    writeFileSync(agent, JSON.stringify(canvasDsl({ begin: node("Begin", {}, ["Message:Out"]), "Message:Out": node("Message", { content: ["hi"] }) })));
    await expect(openPipelineChunker(agent, { llm: mock.provider })).rejects.toThrow(`${agent} is an agent canvas, not an ingestion pipeline`);
    await expect(openPipelineChunker(join(documents, "missing.json"), {})).rejects.toThrow(`cannot read the pipeline ${join(documents, "missing.json")}: no such file`);
  });
});

describe("the CLI", () => {
  it("run PIPELINE --file … --kb ID=DIR copies the documents in and indexes them; kb index reuses them; an agent answers from them", async () => {
    const kb = mkdtempSync(join(tmpdir(), "canvasflow-pipeline-cli-kb-"));
    const ran = await cli(["run", TITLE_CHUNKER, "--file", join(documents, "mail.eml"), "--file", join(documents, "prices.xlsx"), "--kb", `docs=${kb}`, "--mock-llm"]);
    expect(ran.stderr).toContain(`canvasflow: knowledge base docs (${kb}): 2 documents`);
    expect(ran.code, ran.stderr).toBe(0);
    expect(readdirSync(kb).filter((name) => !name.startsWith(".")).sort()).toEqual(["mail.eml", "prices.xlsx"]);
    expect(readFileSync(join(kb, "mail.eml"))).toEqual(readFileSync(join(documents, "mail.eml")));

    const indexed = await cli(["kb", "index", kb, "--mock-llm"]);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toContain(`chunked by: the pipeline ${TITLE_CHUNKER}`);
    expect(indexed.stdout).toContain("files:  2 (0 read, 2 from the cache)");

    const searched = await cli(["kb", "search", kb, "harvest festival", "--json"]);
    expect(searched.code, searched.stderr).toBe(0);
    expect(JSON.parse(searched.stdout)[0]).toMatchObject({ document_name: "mail.eml" });

    // A document of another content under a name the folder holds is refused, naming both.
    const other = join(mkdtempSync(join(tmpdir(), "canvasflow-pipeline-other-")), "mail.eml");
    writeFileSync(other, "From: x@example.com\r\nSubject: Other\r\n\r\nAnother mail.\r\n");
    const clash = await cli(["run", TITLE_CHUNKER, "--file", other, "--kb", `docs=${kb}`, "--mock-llm"]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(`${join(kb, "mail.eml")} already exists and is another file than ${other}`);
    expect(readFileSync(join(kb, "mail.eml"))).toEqual(readFileSync(join(documents, "mail.eml")));
  });

  it("run --trace with several documents writes one trace page per document", async () => {
    const out = mkdtempSync(join(tmpdir(), "canvasflow-pipeline-trace-"));
    const ran = await cli(["run", TITLE_CHUNKER, "--file", join(documents, "guide.md"), "--file", join(documents, "notes.txt"), "--trace", join(out, "run.html"), "--mock-llm"]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["run.1-guide.md.html", "run.2-notes.txt.html"]);
    expect(readFileSync(join(out, "run.1-guide.md.html"), "utf8")).toContain("TitleChunker:WideResultsTeach");
  });

  it("kb index DIR --pipeline twice with one file changed reads only that file", async () => {
    const dir = knowledgeFolder();
    const first = await cli(["kb", "index", dir, "--pipeline", TITLE_CHUNKER, "--mock-llm"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("files:  6 (6 read, 0 from the cache), 1 skipped");
    expect(first.stdout).toContain("skipped report.pdf:");
    writeFileSync(join(dir, "guide.md"), "# Guide\n\n## Install\n\nRun npm ci to get canvasflow.\n");
    const second = await cli(["kb", "index", dir, "--pipeline", TITLE_CHUNKER, "--mock-llm"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("files:  6 (1 read, 5 from the cache), 1 skipped");
    const wrong = await cli(["kb", "search", dir, "x", "--pipeline", TITLE_CHUNKER]);
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringContaining("--pipeline goes with kb index") });
    // Back to the default chunker: the manifest no longer names the pipeline, and the e-mail is left out.
    const back = await cli(["kb", "index", dir, "--default-chunker"]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain("chunked by: the default chunker");
    expect(back.stdout).toContain(`note: the index at ${join(dir, ".canvasflow-index")} was chunked by the pipeline ${TITLE_CHUNKER}, now by the default chunker: chunking every file again`);
    const manifest = JSON.parse(readFileSync(join(dir, ".canvasflow-index", "manifest.json"), "utf8"));
    expect(manifest.pipeline).toBeUndefined();
    expect(manifest.files.map((file: { path: string }) => file.path)).not.toContain("mail.eml");
    const both = await cli(["kb", "index", dir, "--default-chunker", "--pipeline", TITLE_CHUNKER]);
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining("kb index takes --pipeline FILE or --default-chunker, not both") });
  });
});

describe("the config's pipelines.limits", () => {
  it("a document over maxFileBytes fails alone, naming the setting; maxRows stops a spreadsheet with a warning", async () => {
    const config = join(mkdtempSync(join(tmpdir(), "canvasflow-pipeline-limits-")), "canvasflow.config.json");
    writeFileSync(config, JSON.stringify({ pipelines: { limits: { maxFileBytes: 8000, maxRows: 1 } } }));
    const ran = await cli(["run", TITLE_CHUNKER, "--file", join(documents, "notes.txt"), "--file", join(documents, "handbook.docx"), "--file", join(documents, "prices.xlsx"), "--config", config, "--mock-llm"]);
    expect(ran.code).toBe(1);
    const finished = ran.events.filter((event) => event.event === "workflow_finished").map((event) => event.data as { error?: string; outputs: { chunks?: Array<{ text: string }>; _warnings?: string[] } });
    expect(finished).toHaveLength(3);
    expect(finished[0].error).toBeUndefined();
    expect(finished[1].error).toMatch(/handbook\.docx has \d+ bytes, more than the 8000 bytes a document may have \(the config's pipelines\.limits\.maxFileBytes\); it was not read/);
    expect(finished[2].error).toBeUndefined();
    const warnings = ran.events.filter((event) => event.event === "node_finished").flatMap((event) => ((event.data.outputs as { _warnings?: string[] })._warnings ?? []));
    expect(warnings).toContain("prices.xlsx: only the first 1 rows are read (the config's pipelines.limits.maxRows); the rest are left out");
    const bad = join(mkdtempSync(join(tmpdir(), "canvasflow-pipeline-limits-")), "canvasflow.config.json");
    writeFileSync(bad, JSON.stringify({ pipelines: { limits: { maxFileBytes: 0 } } }));
    const refused = await cli(["run", TITLE_CHUNKER, "--file", join(documents, "notes.txt"), "--config", bad, "--mock-llm"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("/pipelines/limits/maxFileBytes");
  });
});

describe("acceptance: the 4 corpus pipelines into a knowledge base, and an agent's Retrieval over it", () => {
  it.each(["advanced_ingestion_pipeline.json", "chunk_summary.json", "compiler.json", "title_chunker.json"])(
    "%s: kb index --pipeline under --mock-llm with mock embeddings; the agent answers from the e-mail's chunk",
    async (file) => {
      const dir = knowledgeFolder();
      const work = mkdtempSync(join(tmpdir(), "canvasflow-pipeline-acceptance-"));
      const config = join(work, "canvasflow.config.json");
      // An embedding model, answered by the mock under --mock-llm: compiler.json has no Tokenizer,
      // so its chunks are found by their vectors only, as in RAGFlow.
      writeFileSync(config, JSON.stringify({ providers: { emb: { baseURL: "http://127.0.0.1:9/v1" } }, embedding: { provider: "emb", model: "mock-embedding" }, knowledgeBases: { docs: { type: "local", dir } } }));
      const indexed = await cli(["kb", "index", dir, "--pipeline", corpusPath("ragflow/head", file), "--config", config, "--mock-llm"]);
      expect(indexed.code, indexed.stderr).toBe(0);
      expect(indexed.stdout).toContain("files:  6 (6 read, 0 from the cache), 1 skipped");
      expect(indexed.stdout).toMatch(/chunks: \d+ \(\d+ embedded\)/);
      const agent = join(work, "agent.json");
      writeFileSync(
        agent,
        JSON.stringify(
          canvasDsl({
            begin: node("Begin", {}, ["Retrieval:Docs"]),
            "Retrieval:Docs": node("Retrieval", { query: "sys.query", kb_ids: ["docs"], similarity_threshold: 0.05, keywords_similarity_weight: 0.3, top_n: 1 }, ["Message:Out"]),
            "Message:Out": node("Message", { content: ["{Retrieval:Docs@formalized_content}"] }),
          }),
        ),
      );
      const ran = await cli(["run", agent, "--config", config, "--mock-llm", "--query", "harvest festival Friday mail"]);
      expect(ran.code, ran.stderr).toBe(0);
      const said = ran.events.filter((event) => event.event === "message").map((event) => (event.data as { content: string }).content).join("");
      // The default chunker does not read .eml files: only the pipeline made this chunk.
      expect(said).toContain("mail.eml");
      expect(said).toContain("The harvest festival is on Friday.");
    },
  );
});

describe("review fixes", () => {
  it("a knowledge base held by a long-running process follows its manifest when another process indexes it with a pipeline", async () => {
    const mock = await startMockLlm();
    const dir = knowledgeFolder();
    let clock = 0;
    const kb = localKnowledgeBase({ dir, openPipeline: countingOpener(mock, []), now: () => clock });
    // First the default chunker: it reads no e-mail.
    expect((await kb.index()).chunks.some((chunk) => chunk.documentName === "mail.eml")).toBe(false);
    // Another process indexes the folder with the pipeline; a file changes, and a search comes past the freshness window.
    await updateIndex({ dir, chunker: await countingOpener(mock, [])(TITLE_CHUNKER) });
    writeFileSync(join(dir, "notes.txt"), "Plain notes, changed.\n");
    clock += 1001;
    const index = await kb.index();
    expect(index.chunks.some((chunk) => chunk.documentName === "mail.eml")).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, ".canvasflow-index", "manifest.json"), "utf8")).pipeline).toBe(TITLE_CHUNKER);
  });

  it("a cancelled index writes nothing: a file cut off is not skipped, and the index stays as it was", async () => {
    const dir = knowledgeFolder();
    await updateIndex({ dir });
    const manifest = join(dir, ".canvasflow-index", "manifest.json");
    const before = readFileSync(manifest, "utf8");
    const controller = new AbortController();
    const cut: DocumentChunker = {
      key: "pipeline:test",
      label: "a chunker cancelled while it runs",
      accepts: (name) => name.endsWith(".md") || name.endsWith(".txt"),
      chunk: async () => {
        controller.abort(new Error("cancelled"));
        throw new Error("the run was cancelled");
      },
    };
    await expect(updateIndex({ dir, chunker: cut, signal: controller.signal })).rejects.toThrow();
    expect(readFileSync(manifest, "utf8")).toBe(before);
  });

  it("refuses to place a document where the knowledge base would not see it (a hidden name or folder)", async () => {
    const dir = knowledgeFolder();
    writeFileSync(join(dir, ".draft.md"), "# Draft\n");
    expect(await placeDocument(dir, join(dir, ".draft.md"))).toEqual({ error: `${join(dir, ".draft.md")} is hidden inside the knowledge base's folder (a name starting with "."), which the knowledge base leaves out: move or rename it` });
    const outside = join(mkdtempSync(join(tmpdir(), "canvasflow-hidden-")), ".notes.md");
    writeFileSync(outside, "# Notes\n");
    expect(await placeDocument(dir, outside)).toEqual({ error: `${outside}: a name starting with "." would be hidden in the knowledge base's folder, which the knowledge base leaves out: rename it` });
  });

  it("a durable (checkpointed) run given several documents is refused: each goes in its own run", async () => {
    const mock = await startMockLlm();
    const canvas = await loadCanvas(TITLE_CHUNKER, { services: { llm: mock.provider } });
    const files = [{ name: "a.md", path: "/x/a.md" }, { name: "b.md", path: "/x/b.md" }];
    await expect(canvas.runToEnd({ files, checkpoint: () => undefined })).rejects.toThrow("this canvas runs 1 file a run, and a durable run was given 2: give each its own run");
  });
});
