/**
 * Every file under dsl-corpus/ragflow/head: agent canvases and ingestion pipelines validate and
 * load, legacy and graph-only fixtures are reported for migration.
 */
import { describe, expect, it } from "vitest";
import { loadCanvas, validateCanvas } from "../../src/api.js";
import { corpusFiles, corpusPath } from "../helpers/corpus.js";
import { errors } from "../helpers/dsl.js";

const HEAD = "ragflow/head";

const PIPELINES = [
  "advanced_ingestion_pipeline.json",
  "chunk_summary.json",
  "compiler.json",
  "title_chunker.json",
  "fixtures/rag-flow-tests-dsl_examples/general_pdf_all.json",
  "fixtures/rag-flow-tests-dsl_examples/title_chunker.json",
];
const LEGACY = ["fixtures/agent-test-dsl_examples/exesql.json", "fixtures/agent-test-dsl_examples/headhunter_zh.json"];
const GRAPH_ONLY = [
  "fixtures/internal-agent-dsl-testdata/dfx_picture_parser.json",
  "fixtures/internal-agent-dsl-testdata/questions_category.json",
  "fixtures/internal-agent-dsl-testdata/subaget.json",
  "fixtures/internal-agent-dsl-testdata/switch.json",
];
const BING = "web_search_assistant.json";

const files = corpusFiles(HEAD);
const agents = files.filter((f) => ![...PIPELINES, ...LEGACY, ...GRAPH_ONLY].includes(f));

describe("the RAGFlow HEAD corpus", () => {
  it("holds the files this test expects", () => {
    expect(files.length).toBe(34);
    for (const f of [...PIPELINES, ...LEGACY, ...GRAPH_ONLY, BING]) expect(files).toContain(f);
    expect(agents).toHaveLength(22);
  });

  it.each(PIPELINES.slice(0, 4))("validates and loads the pipeline %s, warning where RAGFlow's Python runtime would refuse it", async (file) => {
    const report = await validateCanvas(corpusPath(HEAD, file));
    expect(report.kind).toBe("pipeline");
    expect(errors(report.issues)).toEqual([]);
    // Every Extractor and the Compiler ship with an empty model or group, which RAGFlow refuses.
    expect(report.issues.length).toBeGreaterThan(0);
    const canvas = await loadCanvas(corpusPath(HEAD, file));
    expect(canvas.entryLabel).toBe("File");
  });

  it("reports RAGFlow's own messages for its two stale pipeline examples", async () => {
    const general = await validateCanvas(corpusPath(HEAD, PIPELINES[4]));
    expect(errors(general.issues).map((i) => i.message)).toEqual(["Audio VLM does not support empty value."]);
    const title = await validateCanvas(corpusPath(HEAD, PIPELINES[5]));
    expect(errors(title.issues).map((i) => i.message)).toContain('TitleChunker needs a method: "hierarchy" or "group"');
  });

  it.each(LEGACY)("reports the legacy fixture %s for migration", async (file) => {
    const report = await validateCanvas(corpusPath(HEAD, file));
    expect(report.kind).toBe("legacy");
    expect(errors(report.issues)).toEqual([expect.objectContaining({ code: "legacy-format", message: expect.stringContaining("canvasflow migrate") })]);
  });

  it.each(GRAPH_ONLY)("reports the graph-only fixture %s for migration", async (file) => {
    const report = await validateCanvas(corpusPath(HEAD, file));
    expect(report.kind).toBe("graph-only");
    expect(errors(report.issues)).toEqual([expect.objectContaining({ code: "graph-only", message: expect.stringContaining("canvasflow migrate") })]);
  });

  it.each(agents.filter((f) => f !== BING))("validates and loads the agent canvas %s", async (file) => {
    const report = await validateCanvas(corpusPath(HEAD, file));
    expect(report.kind).toBe("agent");
    expect(errors(report.issues)).toEqual([]);
    const canvas = await loadCanvas(corpusPath(HEAD, file));
    expect(canvas.status).toBe("idle");
  });

  it("rejects web_search_assistant.json only for its Bing tool, which has no class", async () => {
    const report = await validateCanvas(corpusPath(HEAD, BING));
    expect(errors(report.issues)).toEqual([
      expect.objectContaining({
        code: "param",
        componentType: "Agent",
        pointer: expect.stringMatching(/^\/dsl\/components\/Agent:[^/]+\/obj\/params\/tools\/\d+\/component_name$/),
        message: expect.stringContaining("Bing"),
      }),
    ]);
  });
});
