/** RAGFlow ingestion pipelines load as a second canvas kind: recognized, validated as chains, and kept apart from agent canvases. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinRegistry } from "../../src/components/builtins.js";
import { validateSource } from "../../src/dsl/validate.js";
import { localDocuments } from "../../src/pipelines/documents.js";
import { registerPipelines } from "../../src/pipelines/register.js";
import { Canvas } from "../../src/engine/canvas.js";
import type { CanvasEvent } from "../../src/engine/events.js";

const registry = registerPipelines(builtinRegistry());

function step(name: string, downstream: string[], params: Record<string, unknown> = {}) {
  return { obj: { component_name: name, params }, downstream, upstream: [] };
}

const PARSER_PARAMS = { setups: { doc: { suffix: ["doc"], output_format: "json" } } };

function pipeline(components: Record<string, unknown>) {
  return { components, path: [], globals: {} };
}

function problems(dsl: object, envelope?: Record<string, unknown>) {
  const report = validateSource(envelope ? { dsl: dsl as never, envelope } : { dsl: dsl as never }, { registry });
  return { kind: report.kind, valid: report.valid, issues: report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.pointer}: ${issue.message}`) };
}

describe("the pipeline front end", () => {
  it("recognizes a pipeline by its steps or its category, even inside a template envelope", () => {
    const dsl = pipeline({ File: step("File", ["Parser:P"]), "Parser:P": step("Parser", [], PARSER_PARAMS) });
    expect(problems(dsl)).toEqual({ kind: "pipeline", valid: true, issues: [] });
    expect(problems(dsl, { canvas_category: "dataflow_canvas", title: "t" })).toEqual({ kind: "pipeline", valid: true, issues: [] });
  });

  it("refuses an agent component in a pipeline and a pipeline step in an agent canvas, saying which is which", () => {
    const mixed = pipeline({ File: step("File", ["Message:M"]), "Message:M": step("Message", [], { content: ["hi"] }) });
    expect(problems(mixed).issues).toEqual([
      'error agent-component /components/Message:M/obj/component_name: Message is an agent component, which an ingestion pipeline cannot run: a pipeline holds only File, Parser, TokenChunker, TitleChunker, Extractor, Tokenizer and Compiler',
    ]);
    const agent = { components: { begin: step("Begin", ["Parser:P"], { mode: "task" }), "Parser:P": step("Parser", [], PARSER_PARAMS) }, path: [], globals: {} };
    const report = problems(agent);
    expect(report.kind).toBe("agent");
    expect(report.issues).toContain(
      'error pipeline-component /components/Parser:P/obj/component_name: Parser is a step of an ingestion pipeline (a dataflow canvas), which an agent canvas cannot run: put it in a pipeline whose entry is a File with the id "File"',
    );
  });

  it("requires a chain from File: a fork, a join and a loop are errors, a step off the chain a warning", () => {
    const fork = pipeline({ File: step("File", ["Parser:A", "Parser:B"]), "Parser:A": step("Parser", [], PARSER_PARAMS), "Parser:B": step("Parser", [], PARSER_PARAMS) });
    expect(problems(fork).issues).toEqual([
      "error pipeline-fork /components/File/downstream: a pipeline is a chain, and File leads to 2 steps (Parser:A, Parser:B): give it one next step",
    ]);
    const join = pipeline({ File: step("File", ["Parser:A"]), "Parser:A": step("Parser", ["Parser:C"], PARSER_PARAMS), "Parser:B": step("Parser", ["Parser:C"], PARSER_PARAMS), "Parser:C": step("Parser", [], PARSER_PARAMS) });
    expect(problems(join).issues).toEqual([
      "error pipeline-join /components/Parser:C: a pipeline is a chain, and 2 steps (Parser:A, Parser:B) lead to Parser:C: each step reads the output of the one step before it",
      "warning unreachable /components/Parser:B: Parser:B is not on the chain that starts at File: it never runs",
    ]);
    const loop = pipeline({ File: step("File", ["Parser:A"]), "Parser:A": step("Parser", ["File"], PARSER_PARAMS) });
    expect(problems(loop).issues).toEqual(["error pipeline-loop /components/Parser:A/downstream: Parser:A leads back to File: a pipeline runs once through, from File to its last step"]);
    const stray = pipeline({ File: step("File", []), "Parser:A": step("Parser", [], PARSER_PARAMS) });
    expect(problems(stray).issues).toEqual(["warning unreachable /components/Parser:A: Parser:A is not on the chain that starts at File: it never runs"]);
  });

  it("needs its File entry, and reports a Parser's setups with RAGFlow's messages", () => {
    expect(problems(pipeline({ "Parser:A": step("Parser", [], PARSER_PARAMS) })).issues).toContain(
      'error missing-begin /components: the pipeline has no start step (a File with the id "File")',
    );
    const bad = pipeline({ File: step("File", ["Parser:A"]), "Parser:A": step("Parser", [], { setups: { pdf: { suffix: ["pdf"], output_format: "html", parse_method: "plain_text" } } }) });
    expect(problems(bad).issues).toEqual([
      "error param /components/Parser:A/obj/params/setups/pdf/output_format: PDF output format abnormal. html is not supported, it should be in ['json', 'markdown']",
    ]);
  });
});

describe("a pipeline run", () => {
  it("runs the chain from File for the one document it is given, each step's trace in its outputs, a refusal failing the document clearly", async () => {
    const folder = mkdtempSync(join(tmpdir(), "canvasflow-pipeline-"));
    writeFileSync(join(folder, "old.doc"), "binary");
    const dsl = pipeline({ File: step("File", ["Parser:P"]), "Parser:P": step("Parser", [], PARSER_PARAMS) });
    const canvas = Canvas.fromValidatedDsl(dsl as never, registry, { services: { documents: localDocuments() } });
    const events: CanvasEvent[] = [];
    for await (const event of canvas.run({ files: [{ name: "old.doc", path: join(folder, "old.doc") }] })) events.push(event);
    const finished = events.filter((event) => event.event === "node_finished").map((event) => event.data as { component_id: string; error: string | null; outputs: Record<string, unknown> });
    expect(finished.map((data) => data.component_id)).toEqual(["File", "Parser:P"]);
    expect(finished[0].outputs).toMatchObject({ name: "old.doc", file: { name: "old.doc" } });
    expect((finished[0].outputs._trace as Array<{ message: string }>).map((note) => note.message)).toEqual(["File fetched.", "Done"]);
    expect(finished[1].error).toMatch(/^`\.doc` files \(Word 97–2003\) are read by Apache Tika/);
    expect((finished[1].outputs._trace as Array<{ progress: number; message: string }>).map((note) => [note.progress, note.message])).toEqual([
      [expect.any(Number), "Start to work on a DOC document"],
      [-1, expect.stringMatching(/^`\.doc` files/)],
    ]);
    const last = events.at(-1)!;
    expect(last.event).toBe("workflow_finished");
    expect((last.data as { error: string }).error).toMatch(/Parser:P.*Apache Tika/);
  });

  it("fails File with a clear message when no document is given, and runs once per document when several are", async () => {
    const dsl = pipeline({ File: step("File", []) });
    const canvas = Canvas.fromValidatedDsl(dsl as never, registry, { services: { documents: localDocuments() } });
    expect(((await canvas.runToEnd({})).at(-1)!.data as { error: string }).error).toMatch(/was given no document/);
    const events = await canvas.runToEnd({ files: [{ name: "a.md", path: "/x/a.md" }, { name: "b.md", path: "/x/b.md" }] });
    const finished = events.filter((event) => event.event === "workflow_finished").map((event) => event.data as unknown as { error?: string; outputs: { name: string } });
    expect(finished.map((data) => [data.outputs.name, data.error])).toEqual([
      ["a.md", undefined],
      ["b.md", undefined],
    ]);
  });
});
