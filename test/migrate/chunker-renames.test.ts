/**
 * 001-chunker-renames: Splitter/HierarchicalMerger/PDFGenerator and their ids, everywhere.
 */
import { describe, expect, it } from "vitest";
import { chunkerRenames } from "../../migrations-dsl/001-chunker-renames.js";
import { migrateDsl } from "../../src/migrate/runner.js";
import { validateDsl } from "../../src/api.js";

function dsl() {
  return {
    components: {
      begin: { obj: { component_name: "Begin", params: {} }, downstream: ["PDFGenerator:Doc"], upstream: [] },
      "PDFGenerator:Doc": {
        obj: { component_name: "PDFGenerator", params: { content: "{begin@x}", output_format: "pdf" } },
        downstream: ["Message:Out"],
        upstream: ["begin"],
      },
      "Message:Out": {
        obj: { component_name: "Message", params: { content: ["Saved: {PDFGenerator:Doc@download} and {{ PDFGenerator:Doc@filename }}"] } },
        downstream: [],
        upstream: ["PDFGenerator:Doc"],
      },
      "VariableAssigner:V": {
        obj: { component_name: "VariableAssigner", params: { variables: [{ variable: "env.f", operator: "overwrite", parameter: "PDFGenerator:Doc@filename" }] } },
        downstream: [],
        upstream: [],
      },
    },
    path: ["begin", "PDFGenerator:Doc"],
    history: [["assistant", "see {PDFGenerator:Doc@download}"]],
    globals: { "env.f": "" },
    variables: { f: { name: "f", type: "string", value: "" } },
    graph: {
      nodes: [
        { id: "begin", type: "beginNode", data: { label: "Begin", name: "begin" } },
        { id: "PDFGenerator:Doc", type: "ragNode", data: { label: "PDFGenerator", name: "PDFGenerator", form: { content: "{begin@x}" } } },
        { id: "Splitter:S", type: "splitterNode", data: { label: "Splitter", name: "My splitter" } },
        "not a node",
      ],
      edges: [{ id: "xy-edge__beginstart-PDFGenerator:Docend", source: "begin", sourceHandle: "start", target: "PDFGenerator:Doc", targetHandle: "end" }],
    },
  };
}

describe("001-chunker-renames", () => {
  it("detects old names in components or graph nodes only", () => {
    expect(chunkerRenames.detect(dsl())).toBe(true);
    expect(chunkerRenames.detect({ graph: { nodes: [{ id: "x", type: "splitterNode", data: { label: "TokenChunker" } }] } })).toBe(true);
    expect(chunkerRenames.detect({ components: { begin: { obj: { component_name: "Begin", params: {} } } } })).toBe(false);
  });

  it("renames component_name, the id and every place naming it", () => {
    const { dsl: out, notes, applied } = migrateDsl(dsl());
    expect(applied).toEqual(["001-chunker-renames"]);
    const components = out.components as Record<string, { obj: { component_name: string; params: Record<string, unknown> }; downstream: string[]; upstream: string[] }>;
    expect(Object.keys(components)).toEqual(["begin", "DocGenerator:Doc", "Message:Out", "VariableAssigner:V"]);
    expect(components["DocGenerator:Doc"].obj.component_name).toBe("DocGenerator");
    expect(components.begin.downstream).toEqual(["DocGenerator:Doc"]);
    expect(components["Message:Out"].upstream).toEqual(["DocGenerator:Doc"]);
    expect(components["Message:Out"].obj.params.content).toEqual(["Saved: {DocGenerator:Doc@download} and {{ DocGenerator:Doc@filename }}"]);
    expect(components["VariableAssigner:V"].obj.params.variables).toEqual([{ variable: "env.f", operator: "overwrite", parameter: "DocGenerator:Doc@filename" }]);
    expect(out.path).toEqual(["begin", "DocGenerator:Doc"]);
    expect(out.history).toEqual([["assistant", "see {DocGenerator:Doc@download}"]]);
    expect(notes).toEqual([
      expect.objectContaining({ component: "DocGenerator:Doc", componentType: "PDFGenerator", change: expect.stringContaining("component_name PDFGenerator → DocGenerator, id PDFGenerator:Doc → DocGenerator:Doc") }),
    ]);
  });

  it("renames graph nodes (id, type, label, the default name) and edges, and keeps what it does not understand", () => {
    const graph = migrateDsl(dsl()).dsl.graph as { nodes: unknown[]; edges: Array<Record<string, unknown>> };
    expect(graph.nodes[1]).toMatchObject({ id: "DocGenerator:Doc", data: { label: "DocGenerator", name: "DocGenerator" } });
    expect(graph.nodes[2]).toMatchObject({ id: "TokenChunker:S", type: "chunkerNode", data: { label: "TokenChunker", name: "My splitter" } });
    expect(graph.nodes[3]).toBe("not a node");
    expect(graph.edges[0]).toMatchObject({ id: "xy-edge__beginstart-DocGenerator:Docend", target: "DocGenerator:Doc" });
  });

  it("gives a renamed id a suffix when the new id is taken", () => {
    const input = {
      components: {
        "Splitter:A": { obj: { component_name: "Splitter", params: {} } },
        "TokenChunker:A": { obj: { component_name: "TokenChunker", params: {} } },
      },
    };
    expect(Object.keys(migrateDsl(input).dsl.components as object)).toEqual(["TokenChunker:A_2", "TokenChunker:A"]);
  });

  it("leaves a DSL that validates", () => {
    const { dsl: out } = migrateDsl(dsl());
    expect(validateDsl(out).issues.filter((i) => i.severity === "error" && i.code === "unknown-reference")).toEqual([]);
  });
});
