/**
 * The graph model of a Dify document: containers hold their children, source handles are
 * labelled (if-else conditions and else, classifier class names, fail-branch as a dashed "on
 * error"), and nodes canvasflow cannot run are kept and marked, in mermaid, SVG and HTML.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/api.js";
import { readDifyGraph } from "../../src/dify/index.js";
import { checkGraphModel, difyGraphModel, layoutGraph, renderGraphHtml, toMermaid, type GraphModel } from "../../src/render/index.js";
import { renderSvg } from "../../src/render/svg.js";
import { cli } from "../helpers/cli.js";
import { corpusPath } from "../helpers/corpus.js";

const node = (id: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ id, data: { title: id.toUpperCase(), ...data }, ...extra });
const link = (source: string, target: string, sourceHandle = "source") => ({ source, target, sourceHandle });

const document = {
  nodes: [
    node("start", { type: "start", title: "Start", variables: [] }),
    node("branch", {
      type: "if-else",
      title: "Is it long?",
      cases: [
        { case_id: "long", logical_operator: "and", conditions: [{ variable_selector: ["start", "text"], comparison_operator: "contains", value: "x" }, { variable_selector: ["sys", "query"], comparison_operator: "not empty" }] },
        { case_id: "c2", logical_operator: "or", conditions: [] },
      ],
    }),
    node("sort", { type: "question-classifier", classes: [{ id: "1", name: "Refund" }, { id: "2", name: "Other" }], query_variable_selector: ["sys", "query"], model: { provider: "openai", name: "m", mode: "chat" } }),
    node("fetch", { type: "http-request", method: "get", url: "http://127.0.0.1:9/", error_strategy: "fail-branch" }),
    node("each", { type: "iteration", iterator_selector: ["start", "items"], output_selector: ["inner", "output"], start_node_id: "eachstart" }),
    node("eachstart", { type: "iteration-start" }, { parentId: "each" }),
    node("inner", { type: "template-transform", template: "{{ x }}", variables: [] }, { parentId: "each" }),
    node("ask", { type: "human-input" }),
    node("done", { type: "end", outputs: [] }),
  ],
  edges: [
    link("start", "branch"),
    link("branch", "sort", "long"),
    link("branch", "fetch", "c2"),
    link("branch", "done", "false"),
    link("sort", "each", "1"),
    link("sort", "done", "2"),
    link("fetch", "done"),
    link("fetch", "ask", "fail-branch"),
    link("eachstart", "inner"),
    link("each", "done"),
  ],
};

function model(): GraphModel {
  const graph = readDifyGraph(document);
  expect(graph.issues.filter((i) => i.severity === "error")).toEqual([]);
  return difyGraphModel(graph, defaultRegistry);
}
const edges = (m: GraphModel, from: string, to: string) => m.edges.filter((e) => e.from === from && e.to === to);

describe("the graph model of a Dify document", () => {
  it("places children in their iteration and gives nodes their titles and families", () => {
    const m = model();
    checkGraphModel(m);
    const byId = new Map(m.nodes.map((n) => [n.id, n]));
    expect(byId.get("start")).toMatchObject({ name: "Start", type: "start", family: "entry", isContainer: false });
    expect(byId.get("each")).toMatchObject({ family: "container", isContainer: true });
    expect(byId.get("inner")).toMatchObject({ container: "each", family: "code" });
    expect(byId.get("eachstart")).toMatchObject({ container: "each", family: "container-start" });
    expect(byId.get("branch")).toMatchObject({ family: "router", name: "Is it long?" });
  });

  it("labels if-else cases with their conditions (node titles for ids), an empty case with its id, and false as else", () => {
    const m = model();
    expect(edges(m, "branch", "sort")).toEqual([{ from: "branch", to: "sort", kind: "handle", label: "Start.text contains x and sys.query not empty" }]);
    expect(edges(m, "branch", "fetch")).toEqual([{ from: "branch", to: "fetch", kind: "handle", label: "c2" }]);
    expect(edges(m, "branch", "done")).toEqual([{ from: "branch", to: "done", kind: "handle", label: "else" }]);
    expect(edges(m, "start", "branch")).toEqual([{ from: "start", to: "branch", kind: "normal" }]);
  });

  it("labels classifier handles with class names, and a fail-branch as a dashed on-error edge", () => {
    const m = model();
    expect(edges(m, "sort", "each")).toEqual([{ from: "sort", to: "each", kind: "handle", label: "Refund" }]);
    expect(edges(m, "sort", "done")).toEqual([{ from: "sort", to: "done", kind: "handle", label: "Other" }]);
    expect(edges(m, "fetch", "ask")).toEqual([{ from: "fetch", to: "ask", kind: "exception", label: "on error" }]);
    expect(toMermaid(m)).toMatch(/n\d+ -\.->\|"on error"\| n\d+/);
  });

  it("keeps a node canvasflow cannot run, marked in mermaid, SVG and HTML with the reason", async () => {
    const m = model();
    const ask = m.nodes.find((n) => n.id === "ask")!;
    expect(ask.unsupported).toMatch(/human-input/);
    expect(m.nodes.filter((n) => n.unsupported !== undefined).map((n) => n.id)).toEqual(["ask"]);
    const index = m.nodes.indexOf(ask);
    const mermaid = toMermaid(m);
    expect(mermaid).toContain(`style n${index} stroke:#dc2626`);
    expect(mermaid).toContain("not supported by canvasflow");
    const svg = renderSvg(await layoutGraph(m));
    expect(svg).toMatch(/<g class="node f-input unsupported" data-id="ask"><title>[^<]*not supported by canvasflow: the node type human-input/);
    expect(svg).not.toMatch(/class="node [^"]*unsupported[^"]*" data-id="(?!ask)/);
    expect(await renderGraphHtml(m)).toContain('"unsupported":"the node type human-input');
  });

  it("the CLI draws a Dify YAML file", async () => {
    const run = await cli(["graph", corpusPath("dify", "conditional_hello_branching_workflow.yml")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^flowchart LR\n/);
    expect(run.stdout).toContain('-->|"else"|');
  });
});
