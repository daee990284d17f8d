/**
 * Acceptance of `canvasflow graph` over the shared corpus: every RAGFlow HEAD agent canvas, every
 * legacy (v0.19, graph-only) template and every Dify fixture (community apps with node types
 * canvasflow cannot run included: they are drawn, marked) gives mermaid that mermaid's own parser accepts (in
 * Chromium: its parse() needs a DOM), and an SVG that is well-formed XML with no overlapping boxes.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGraphModel } from "../../src/cli/graph-command.js";
import { layoutGraph, renderGraphSvg, toMermaid, type GraphModel } from "../../src/render/index.js";
import { renderSvg } from "../../src/render/svg.js";
import { cli, liveIO } from "../helpers/cli.js";
import { launchTestBrowser, MERMAID_BUNDLE } from "../helpers/chromium.js";
import { missing } from "../helpers/system-tools.js";
import { corpusFiles, corpusPath } from "../helpers/corpus.js";
import { layoutProblems } from "../helpers/render.js";

const PIPELINES = new Set(["advanced_ingestion_pipeline.json", "chunk_summary.json", "compiler.json", "title_chunker.json", "fixtures/rag-flow-tests-dsl_examples/general_pdf_all.json", "fixtures/rag-flow-tests-dsl_examples/title_chunker.json"]);
const files = [
  ...corpusFiles("ragflow/head").filter((f) => !PIPELINES.has(f)).map((f) => corpusPath("ragflow/head", f)),
  ...corpusFiles("ragflow/legacy-v0.19.1").map((f) => corpusPath("ragflow/legacy-v0.19.1", f)),
  ...corpusFiles("dify", ".yml").map((f) => corpusPath("dify", f)),
  ...["fixtures/loop-iteration-switch.json", "fixtures/switch.json", "fixtures/user-fill-up.json", "fixtures/iteration.json", "fixtures/loop.json"],
];

let browser: Browser;
let page: Page;
const models = new Map<string, GraphModel>();

/** mermaid.parse in the page: "ok", or the parser's message. */
async function parseMermaid(texts: string[]): Promise<string[]> {
  return page.evaluate(async (list) => {
    const m = (globalThis as unknown as { mermaid: { parse(t: string): Promise<unknown> } }).mermaid;
    const out: string[] = [];
    for (const text of list) {
      try {
        await m.parse(text);
        out.push("ok");
      } catch (error) {
        out.push(String((error as Error).message ?? error));
      }
    }
    return out;
  }, texts);
}

/** DOMParser's XML verdict on each SVG: "ok", or the parser error's text. */
async function parseXml(texts: string[]): Promise<string[]> {
  return page.evaluate((list) => list.map((text) => {
    // Runs in the page, where DOMParser exists (the test's tsconfig has no DOM types).
    const Parser = (globalThis as unknown as { DOMParser: new () => { parseFromString(t: string, type: string): { getElementsByTagName(n: string): Array<{ textContent: string | null }>; documentElement: { localName: string } } } }).DOMParser;
    const doc = new Parser().parseFromString(text, "image/svg+xml");
    const error = doc.getElementsByTagName("parsererror")[0];
    if (error) return error.textContent ?? "parsererror";
    return doc.documentElement.localName === "svg" ? "ok" : `root is <${doc.documentElement.localName}>`;
  }), texts);
}

const noChromium = missing("chromium", "the corpus diagrams' browser tests");

beforeAll(async () => {
  if (noChromium) return;
  browser = await launchTestBrowser();
  page = await browser.newPage();
  await page.setContent("<!doctype html><html><body></body></html>");
  await page.addScriptTag({ content: readFileSync(MERMAID_BUNDLE, "utf8") });
  const silent = liveIO().io;
  for (const file of files) {
    const loaded = await loadGraphModel(file, silent);
    if (!loaded) throw new Error(`${file} could not be drawn`);
    models.set(file, loaded.model);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(noChromium)("diagrams of the corpus", () => {
  it("covers every RAGFlow HEAD agent canvas, every legacy template and every Dify fixture", () => {
    expect(files.filter((f) => f.includes("/head/"))).toHaveLength(28);
    expect(files.filter((f) => f.includes("/legacy-v0.19.1/"))).toHaveLength(25);
    expect(files.filter((f) => f.includes("/dify/"))).toHaveLength(40);
  });

  it("draws Dify's iterations and loops as subgraphs, labels their handles and marks what cannot run", () => {
    const dify = files.filter((f) => f.includes("/dify/")).map((f) => models.get(f)!);
    const edges = dify.flatMap((m) => m.edges);
    expect(dify.some((m) => m.nodes.some((n) => n.type === "iteration" && n.isContainer) && m.nodes.some((n) => n.container !== undefined))).toBe(true);
    expect(dify.some((m) => m.nodes.some((n) => n.type === "loop" && n.isContainer))).toBe(true);
    expect(edges.some((e) => e.kind === "handle" && e.label === "else")).toBe(true);
    // No raw handle id leaks where a condition or class name was to be shown.
    expect(edges.filter((e) => e.kind === "handle" && /^(true|false|[0-9a-f-]{36})$/.test(e.label ?? ""))).toEqual([]);
    const marked = dify.flatMap((m) => m.nodes.filter((n) => n.unsupported !== undefined));
    expect(marked.length).toBeGreaterThan(0);
    expect(toMermaid(dify.find((m) => m.nodes.some((n) => n.unsupported !== undefined))!)).toContain("stroke-dasharray");
  });

  it("mermaid's parser rejects a broken flowchart (the check can fail)", async () => {
    const [verdict] = await parseMermaid(['flowchart LR\n  n0["a"b"] --> n1']);
    expect(verdict).not.toBe("ok");
  });

  it("gives mermaid that mermaid's own parser accepts, for every file", async () => {
    const texts = files.map((f) => toMermaid(models.get(f)!));
    const verdicts = await parseMermaid(texts);
    const failed = files.map((f, i) => [f, verdicts[i]]).filter(([, v]) => v !== "ok");
    expect(failed).toEqual([]);
  }, 120_000);

  it("the CLI prints the same mermaid (a legacy file is migrated in memory, with a warning)", async () => {
    const legacy = corpusPath("ragflow/legacy-v0.19.1", "customer_service.json");
    const run = await cli(["graph", legacy]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(toMermaid(models.get(legacy)!));
    expect(run.stderr).toContain("migrated in memory");
  });

  it("lays out every file with no overlapping boxes and every child inside its container", async () => {
    const problems: string[] = [];
    for (const file of files) {
      const layout = await layoutGraph(models.get(file)!);
      expect(layout.nodes).toHaveLength(models.get(file)!.nodes.length);
      for (const p of layoutProblems(layout)) problems.push(`${file}: ${p}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("draws SVG that is well-formed XML, for every file and for hostile names", async () => {
    const svgs = await Promise.all(files.map((f) => renderGraphSvg(models.get(f)!)));
    const hostile: GraphModel = {
      nodes: [
        { id: "a&b<c>", name: `</text><script>alert("x")</script> & \u0001 ]]> '`, type: "Begin", family: "entry", isContainer: false, params: {} },
        { id: "z", name: "分类", type: "Message", family: "message", isContainer: false, params: {} },
      ],
      edges: [{ from: "a&b<c>", to: "z", kind: "branch", label: `"<&>"` }],
    };
    svgs.push(renderSvg(await layoutGraph(hostile)));
    const verdicts = await parseXml(svgs);
    expect(verdicts.filter((v) => v !== "ok")).toEqual([]);
    expect(svgs.at(-1)).not.toContain("<script>");
    // The verdict can fail: an unescaped ampersand is not XML.
    expect(await parseXml(['<svg xmlns="http://www.w3.org/2000/svg"><text>a & b</text></svg>'])).not.toEqual(["ok"]);
  }, 120_000);
});
