/** `canvasflow graph`: formats, output files, and the errors a user can make. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { corpusPath } from "../helpers/corpus.js";
import { scratchDir } from "../helpers/scratch.js";

const { dir, write } = scratchDir("canvasflow-graph-");

describe("canvasflow graph", () => {
  it("prints mermaid by default and writes SVG and HTML files with -o", async () => {
    const mermaid = await cli(["graph", "fixtures/switch.json"]);
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout.startsWith("flowchart LR\n")).toBe(true);
    const svgFile = join(dir, "switch.svg");
    const svg = await cli(["graph", "fixtures/switch.json", "--format", "svg", "-o", svgFile]);
    expect(svg.code).toBe(0);
    expect(svg.stderr).toMatch(/^canvasflow: wrote .*switch\.svg \(svg, \d+ components, \d+ edges\)\n$/);
    expect(readFileSync(svgFile, "utf8")).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const html = await cli(["graph", "fixtures/switch.json", "-f", "html"]);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
  });

  it("rejects an unknown format, naming the flag (exit 2)", async () => {
    const run = await cli(["graph", "fixtures/switch.json", "--format", "png"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--format must be mermaid, svg or html, got "png"');
  });

  it("needs exactly one FILE", async () => {
    const run = await cli(["graph"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("graph expects exactly one FILE, got 0");
  });

  it("draws an ingestion pipeline as its chain from File", async () => {
    const pipeline = await cli(["graph", corpusPath("ragflow/head", "title_chunker.json")]);
    expect(pipeline.code).toBe(0);
    const flow = pipeline.stdout;
    for (const id of ["File", "Parser:HipSignsRhyme", "TitleChunker:WideResultsTeach", "Extractor:DryRatsGive", "Tokenizer:WackyOnionsFly"]) expect(flow).toContain(id);
  });

  it("reports a file that is not a canvas with its validation report (exit 2)", async () => {
    const missing = await cli(["graph", join(dir, "nope.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file");
    const noBegin = await cli(["graph", write("no-begin.json", { components: { "Message:A": { obj: { component_name: "Message", params: { content: ["x"] } }, downstream: [], upstream: [] } } })]);
    expect(noBegin.code).toBe(2);
  });

  it("reports a component without obj with the validation report, naming it (exit 2), not an internal error", async () => {
    const file = write("no-obj.json", {
      components: {
        begin: { obj: { component_name: "Begin", params: {} }, downstream: ["Message:A"], upstream: [] },
        "Message:A": { downstream: [], upstream: ["begin"] },
      },
    });
    const run = await cli(["graph", file]);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).toContain("Message:A");
    expect(run.stderr).toContain("obj");
    expect(run.stdout).toBe("");
  });

  it("draws a 30 000-component chain as mermaid and as SVG (the layered layout for large graphs recurses nowhere)", async () => {
    const components: Record<string, unknown> = { begin: { obj: { component_name: "Begin", params: {} }, downstream: ["Message:0"], upstream: [] } };
    const count = 30_000;
    for (let i = 0; i < count; i++) {
      components[`Message:${i}`] = {
        obj: { component_name: "Message", params: { content: [`step ${i}`] } },
        downstream: i + 1 < count ? [`Message:${i + 1}`] : [],
        upstream: [i === 0 ? "begin" : `Message:${i - 1}`],
      };
    }
    const file = write("chain.json", { components });
    const mermaid = await cli(["graph", file]);
    expect(mermaid.stderr).not.toContain("internal error");
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout.split("\n").filter((line) => line.includes("-->")).length).toBe(count);
    const out = join(dir, "chain.svg");
    const svg = await cli(["graph", file, "--format", "svg", "-o", out]);
    expect(svg.stderr).toBe(`canvasflow: wrote ${out} (svg, ${count + 1} components, ${count} edges)\n`);
    expect(svg.code).toBe(0);
    const drawn = readFileSync(out, "utf8");
    expect(drawn).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(drawn).toContain("Message:29999");
  }, 120_000);

  it("draws a canvas whose params do not validate, with a warning", async () => {
    const run = await cli(["graph", corpusPath("ragflow/head", "web_search_assistant.json")]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("drawn although it does not validate (1 error;");
    expect(run.stdout).toContain("flowchart LR");
  });

  it("says why OUT cannot be written (exit 1)", async () => {
    const out = join(dir, "no-such-folder", "g.svg");
    const run = await cli(["graph", "fixtures/switch.json", "-o", out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`canvasflow: cannot write ${out}: its folder does not exist\n`);
  });
});
