/**
 * The graph model diagrams are drawn from: nodes with their container, and edges with their
 * kind and label, made from the loaded canvas (its compiled graph).
 */
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { canvasGraphModel, checkGraphModel, type GraphModel } from "../../src/render/index.js";
import { routedCanvas } from "../helpers/render.js";

const edge = (model: GraphModel, from: string, to: string) => model.edges.filter((e) => e.from === from && e.to === to);

describe("the graph model of a RAGFlow canvas", () => {
  it("places children in their containers and marks the containers", async () => {
    const model = canvasGraphModel(await loadCanvas("fixtures/loop-iteration-switch.json"));
    checkGraphModel(model);
    expect(model.nodes).toHaveLength(16);
    const byId = new Map(model.nodes.map((n) => [n.id, n]));
    expect(byId.get("Iteration:Classify")).toMatchObject({ type: "Iteration", family: "container", isContainer: true, name: "Classify each number" });
    expect(byId.get("Loop:Retry")).toMatchObject({ isContainer: true, family: "container" });
    expect(byId.get("Switch:Size")).toMatchObject({ container: "Iteration:Classify", family: "router", isContainer: false });
    expect(byId.get("ExitLoop:Stop")).toMatchObject({ container: "Loop:Retry", family: "exit" });
    expect(byId.get("begin")).toMatchObject({ family: "entry" });
    expect(byId.get("begin")!.container).toBeUndefined();
    expect(byId.get("IterationItem:Each")).toMatchObject({ family: "container-start" });
    expect(byId.get("Message:Summary")).toMatchObject({ family: "message" });
  });

  it("labels a Switch's branches with their conditions, and the else branch", async () => {
    const model = canvasGraphModel(await loadCanvas("fixtures/loop-iteration-switch.json"));
    expect(edge(model, "Switch:Size", "StringTransform:Big")).toEqual([{ from: "Switch:Size", to: "StringTransform:Big", kind: "branch", label: 'IterationItem:Each@item > "5"' }]);
    expect(edge(model, "Switch:Size", "StringTransform:Small")).toEqual([{ from: "Switch:Size", to: "StringTransform:Small", kind: "branch", label: "else" }]);
    expect(edge(model, "begin", "StringTransform:Split")).toEqual([{ from: "begin", to: "StringTransform:Split", kind: "normal" }]);
    expect(edge(model, "Iteration:Classify", "StringTransform:Labels")).toEqual([{ from: "Iteration:Classify", to: "StringTransform:Labels", kind: "normal" }]);
  });

  it("labels Categorize branches with their categories, joining the labels of a target reached twice", async () => {
    const model = canvasGraphModel(await loadCanvas(routedCanvas()));
    checkGraphModel(model);
    expect(edge(model, "Categorize:Kind", "Invoke:Api")).toEqual([expect.objectContaining({ kind: "branch", label: "Refund [urgent]" })]);
    expect(edge(model, "Categorize:Kind", "Message:Hi")).toEqual([expect.objectContaining({ kind: "branch", label: 'Say "hello" / Other' })]);
    expect(edge(model, "Categorize:Kind", "Message:Also")).toEqual([expect.objectContaining({ kind: "branch", label: 'Say "hello"' })]);
    expect(model.nodes.find((n) => n.id === "Categorize:Kind")).toMatchObject({ family: "router" });
  });

  it("marks exception_goto edges as exception edges, once, and keeps the others normal", async () => {
    const model = canvasGraphModel(await loadCanvas(routedCanvas()));
    expect(edge(model, "Invoke:Api", "Message:Failed")).toEqual([{ from: "Invoke:Api", to: "Message:Failed", kind: "exception", label: "on error" }]);
    expect(edge(model, "Invoke:Api", "Message:Done")).toEqual([{ from: "Invoke:Api", to: "Message:Done", kind: "normal" }]);
  });

  it("keeps each node's params as loaded (defaults merged) for the HTML views", async () => {
    const model = canvasGraphModel(await loadCanvas("fixtures/loop-iteration-switch.json"));
    expect(model.nodes.find((n) => n.id === "StringTransform:Split")!.params).toMatchObject({ method: "split", split_ref: "begin@numbers" });
  });

  it("checkGraphModel names a duplicate id and an edge to nowhere", () => {
    const a = { id: "a", name: "a", type: "T", family: "other", isContainer: false, params: {} } as const;
    expect(() => checkGraphModel({ nodes: [a, a], edges: [] })).toThrow('node id "a" appears twice');
    expect(() => checkGraphModel({ nodes: [a], edges: [{ from: "a", to: "b", kind: "normal" }] })).toThrow('an edge enters "b", which is not a node');
  });
});
