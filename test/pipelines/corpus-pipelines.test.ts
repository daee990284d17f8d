/**
 * RAGFlow's four pipeline templates, as shipped, run on a folder of real documents made here (a
 * text-layer PDF, a DOCX with headings and a table, an XLSX, Markdown with a table, an HTML page,
 * an e-mail, a text file) under the mock LLM: every document the templates' Parser can read here
 * ends in chunks; the PDF, which the templates parse with DeepDOC, fails alone with a message
 * naming what runs instead, and parses once its setup says plain_text.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { localDocuments } from "../../src/pipelines/documents.js";
import { corpusPath } from "../helpers/corpus.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { READABLE_DOCUMENTS, writePipelineDocuments } from "../helpers/pipeline-documents.js";

const folder = mkdtempSync(join(tmpdir(), "canvasflow-corpus-pipelines-"));

beforeAll(() => writePipelineDocuments(folder));

async function runDocument(dsl: string | object, name: string): Promise<{ error: string | undefined; chunks: Array<Record<string, unknown>> }> {
  // The mock LLM is closed after the test that starts it.
  const mock = await startMockLlm();
  const canvas = await loadCanvas(dsl, { services: { llm: mock.provider, documents: localDocuments() } });
  const events: CanvasEvent[] = [];
  for await (const event of canvas.run({ files: [{ name, path: join(folder, name) }] })) events.push(event);
  const last = events.at(-1)!;
  expect(last.event).toBe("workflow_finished");
  const data = last.data as { error?: string | null; outputs: { chunks?: Array<Record<string, unknown>> } };
  return { error: data.error ?? undefined, chunks: data.outputs.chunks ?? [] };
}

describe.each(["advanced_ingestion_pipeline.json", "chunk_summary.json", "compiler.json", "title_chunker.json"])("the corpus pipeline %s", (file) => {
  it.each(READABLE_DOCUMENTS)("turns %s into chunks", async (name) => {
    const { error, chunks } = await runDocument(corpusPath("ragflow/head", file), name);
    expect(error, error).toBeUndefined();
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(typeof chunk.text).toBe("string");
    if (file !== "compiler.json") {
      // A Tokenizer made each chunk searchable, and an Extractor summarized it.
      expect(chunks[0]).toMatchObject({ title_tks: expect.any(String), summary: expect.stringContaining("[mock reply]") });
    }
  });

  it("fails the PDF alone, naming DeepDOC and what runs instead", async () => {
    const { error } = await runDocument(corpusPath("ragflow/head", file), "report.pdf");
    expect(error).toMatch(/parse_method "DeepDOC" of the pdf setup needs RAGFlow's DeepDOC models .* what runs here for pdf: "plain_text"/);
  });
});

it("parses the PDF's text layer once the template's setup says plain_text", async () => {
  const template = JSON.parse(readFileSync(corpusPath("ragflow/head", "title_chunker.json"), "utf8"));
  template.dsl.components["Parser:HipSignsRhyme"].obj.params.pdf.parse_method = "plain_text";
  const { error, chunks } = await runDocument(template, "report.pdf");
  expect(error).toBeUndefined();
  expect(chunks.map((chunk) => chunk.text).join("\n")).toContain("The pipeline parsed this text layer.");
});

it("runs once per document when one run() is given several, each run with its own events; a failed one does not stop the next", async () => {
  const mock = await startMockLlm();
  const canvas = await loadCanvas(corpusPath("ragflow/head", "title_chunker.json"), { services: { llm: mock.provider, documents: localDocuments() } });
  const names = ["guide.md", "report.pdf", "mail.eml"];
  const events: CanvasEvent[] = [];
  for await (const event of canvas.run({ files: names.map((name) => ({ name, path: join(folder, name) })) })) events.push(event);
  const runs = events.filter((event) => event.event === "workflow_started" || event.event === "workflow_finished").map((event) => event.event);
  expect(runs).toEqual(["workflow_started", "workflow_finished", "workflow_started", "workflow_finished", "workflow_started", "workflow_finished"]);
  const finished = events.filter((event) => event.event === "workflow_finished").map((event) => event.data as { error?: string; outputs: { name?: string; chunks?: unknown[] } });
  expect(finished.map((data) => [data.outputs.name, data.error === undefined ? "ok" : "failed"])).toEqual([
    ["guide.md", "ok"],
    ["report.pdf", "failed"],
    ["mail.eml", "ok"],
  ]);
  expect(finished[1].error).toContain('parse_method "DeepDOC"');
});

it("streams each step's trace as node_progress events while it runs, between its node_started and node_finished", async () => {
  const mock = await startMockLlm();
  const canvas = await loadCanvas(corpusPath("ragflow/head", "title_chunker.json"), { services: { llm: mock.provider, documents: localDocuments() } });
  const events = await canvas.runToEnd({ files: [{ name: "guide.md", path: join(folder, "guide.md") }] });
  const steps = events
    .filter((event) => event.event.startsWith("node_"))
    .map((event) => {
      const data = event.data as { component_id: string; message?: string };
      return event.event === "node_progress" ? `${data.component_id}: ${data.message}` : `${event.event} ${data.component_id}`;
    });
  expect(steps).toEqual([
    "node_started File",
    "File: File fetched.",
    "File: Done",
    "node_finished File",
    "node_started Parser:HipSignsRhyme",
    "Parser:HipSignsRhyme: Start to work on a markdown.",
    "Parser:HipSignsRhyme: Done",
    "node_finished Parser:HipSignsRhyme",
    "node_started TitleChunker:WideResultsTeach",
    "TitleChunker:WideResultsTeach: Start to merge hierarchically.",
    "TitleChunker:WideResultsTeach: Done.",
    "TitleChunker:WideResultsTeach: Done",
    "node_finished TitleChunker:WideResultsTeach",
    "node_started Extractor:DryRatsGive",
    "Extractor:DryRatsGive: Start to generate.",
    "Extractor:DryRatsGive: 1 / 1",
    "Extractor:DryRatsGive: Done",
    "node_finished Extractor:DryRatsGive",
    "node_started Tokenizer:WackyOnionsFly",
    "Tokenizer:WackyOnionsFly: Start to tokenize.",
    "Tokenizer:WackyOnionsFly: Finish tokenizing.",
    "Tokenizer:WackyOnionsFly: The knowledge base embeds the chunks when it indexes the document.",
    "Tokenizer:WackyOnionsFly: Done",
    "node_finished Tokenizer:WackyOnionsFly",
  ]);
  // The same notes, with their times, in each step's _trace.
  const parser = events.find((event) => event.event === "node_finished" && event.data.component_id === "Parser:HipSignsRhyme")!.data as { outputs: { _trace: Array<{ message: string }> } };
  expect(parser.outputs._trace.map((note) => note.message)).toEqual(["Start to work on a markdown.", "Done"]);
});

describe("audio", () => {
  function withAudioModel(llmId: string): object {
    const template = JSON.parse(readFileSync(corpusPath("ragflow/head", "title_chunker.json"), "utf8"));
    const parser = template.dsl.components["Parser:HipSignsRhyme"].obj.params;
    // The Go-dialect template's flat audio key: its setup names a speech model.
    parser.audio = { ...(parser.audio ?? {}), suffix: ["mp3", "wav"], output_format: "text", vlm: { llm_id: llmId } };
    return template;
  }

  it("is transcribed by the setup's speech model through the provider routing (the mock's /v1/audio/transcriptions)", async () => {
    writeFileSync(join(folder, "talk.mp3"), Buffer.alloc(3000, 7));
    const mock = await startMockLlm();
    const canvas = await loadCanvas(withAudioModel("whisper-1"), { services: { llm: mock.provider, documents: localDocuments() } });
    const events = await canvas.runToEnd({ files: [{ name: "talk.mp3", path: join(folder, "talk.mp3") }] });
    const data = events.at(-1)!.data as { error?: string; outputs: { chunks: Array<{ text: string }> } };
    expect(data.error).toBeUndefined();
    expect(data.outputs.chunks.map((chunk) => chunk.text).join("")).toContain("[mock transcription] talk.mp3, 3000 bytes");
    // The real openai client sent the recording as a multipart form, to the model the llm_id
    // routes to (this test's provider routes every llm_id to its model "mock").
    expect(mock.server.requests.filter((r) => r.path === "/v1/audio/transcriptions").map((r) => r.body)).toEqual([{ model: "mock", file: { name: "talk.mp3", size: 3000 } }]);
  });

  it("without a speech model, fails the recording alone with RAGFlow's message and what to set", async () => {
    writeFileSync(join(folder, "talk.wav"), Buffer.alloc(100, 1));
    const { error } = await runDocument(withAudioModel(""), "talk.wav");
    expect(error).toContain("Audio VLM does not support empty value. (the audio setup's vlm.llm_id): name a speech-to-text model");
  });
});

it("parses a PDF with a vision model named as its parse_method: each page rendered (@napi-rs/canvas) and described by the model", async () => {
  const template = JSON.parse(readFileSync(corpusPath("ragflow/head", "title_chunker.json"), "utf8"));
  template.dsl.components["Parser:HipSignsRhyme"].obj.params.pdf.parse_method = "gpt-4o";
  const mock = await startMockLlm();
  const canvas = await loadCanvas(template, { services: { llm: mock.provider, documents: localDocuments() } });
  const events = await canvas.runToEnd({ files: [{ name: "report.pdf", path: join(folder, "report.pdf") }] });
  const data = events.at(-1)!.data as { error?: string; outputs: { chunks: Array<{ text: string }> } };
  expect(data.error).toBeUndefined();
  // One page, sent to the model as a PNG image part, and its answer became the page's text.
  const pages = mock.chatRequests().filter((request) => JSON.stringify(request.messages).includes("data:image/png;base64,"));
  expect(pages).toHaveLength(1);
  expect(data.outputs.chunks.map((chunk) => chunk.text).join("\n")).toContain("[mock reply]");
  const progress = events.filter((event) => event.event === "node_progress" && event.data.component_id === "Parser:HipSignsRhyme").map((event) => (event.data as { message: string }).message);
  expect(progress).toContain("Processed: 1/1");
});
