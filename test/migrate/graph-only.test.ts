/**
 * 002-graph-only-components: components derived from the editor graph, with the editor's rules.
 */
import { describe, expect, it } from "vitest";
import { graphOnlyComponents } from "../../migrations-dsl/002-graph-only-components.js";
import { migrateDsl } from "../../src/migrate/runner.js";
import { validateDsl } from "../../src/api.js";

const edge = (source: string, sourceHandle: string, target: string, targetHandle = "end") => ({ source, sourceHandle, target, targetHandle });
const node = (id: string, label: string, form: unknown = {}, extra: Record<string, unknown> = {}) => ({ id, data: { label, name: `${label} node`, form }, ...extra });

function agentGraph() {
  return {
    globals: { "sys.query": "" },
    graph: {
      nodes: [
        node("begin", "Begin", null),
        node("Agent:Main", "Agent", { llm_id: "m", prompts: [{ role: "user", content: "{sys.query}" }], tools: [{ component_name: "TavilySearch", name: "t", params: {} }] }),
        node("Agent:Sub", "Agent", { llm_id: "m", description: "helper", tools: [] }),
        node("Agent:SubSub", "Agent", { llm_id: "m", tools: [] }),
        node("Tool:Box", "Tool", { description: "x" }),
        node("Message:Out", "Message", { content: ["{Agent:Main@content}"] }),
        node("Message:Oops", "Message", { content: ["failed"] }),
        node("Note:N", "Note", { text: "hi" }),
      ],
      edges: [
        edge("begin", "start", "Agent:Main"),
        edge("Agent:Main", "agentBottom", "Agent:Sub", "agentTop"),
        edge("Agent:Sub", "agentBottom", "Agent:SubSub", "agentTop"),
        edge("Agent:Sub", "tool", "Tool:Box"),
        edge("Agent:Main", "start", "Message:Out"),
        edge("Agent:Main", "agentException", "Message:Oops"),
      ],
    },
  };
}

describe("002-graph-only-components", () => {
  it("detects a DSL with graph nodes and no components", () => {
    expect(graphOnlyComponents.detect(agentGraph())).toBe(true);
    expect(graphOnlyComponents.detect({ components: {}, graph: agentGraph().graph })).toBe(false);
    expect(graphOnlyComponents.detect({ graph: { nodes: [] } })).toBe(false);
  });

  it("folds sub-agents into tools (recursively), turns exception edges into exception_goto, and skips Tool and Note nodes", () => {
    const { dsl, notes } = migrateDsl(agentGraph());
    const components = dsl.components as Record<string, { obj: { component_name: string; params: Record<string, unknown> }; downstream: string[]; upstream: string[] }>;
    expect(Object.keys(components)).toEqual(["begin", "Agent:Main", "Message:Out", "Message:Oops"]);
    expect(components.begin).toEqual({ obj: { component_name: "Begin", params: {} }, downstream: ["Agent:Main"], upstream: [] });
    const main = components["Agent:Main"];
    expect(main.downstream).toEqual(["Message:Out"]);
    expect(main.obj.params.exception_goto).toEqual(["Message:Oops"]);
    expect(main.obj.params.tools).toEqual([
      { component_name: "TavilySearch", name: "t", params: {} },
      {
        component_name: "Agent",
        id: "Agent:Sub",
        name: "Agent node",
        params: { llm_id: "m", description: "helper", tools: [{ component_name: "Agent", id: "Agent:SubSub", name: "Agent node", params: { llm_id: "m", tools: [] } }] },
      },
    ]);
    expect(components["Message:Oops"].upstream).toEqual(["Agent:Main"]);
    expect(dsl).toMatchObject({ path: [], history: [], retrieval: [], memory: [], globals: { "sys.query": "" } });
    expect(notes.find((n) => n.component === "Agent:Main")?.change).toContain("sub-agents Agent:Sub, Agent:SubSub folded into its tools; exception_goto Message:Oops");
    expect(notes.at(-1)?.change).toBe("added the missing top-level keys path, history, retrieval, memory (empty)");
  });

  it("turns Categorize items into category_description with `to` from each item's edges", () => {
    const input = {
      graph: {
        nodes: [
          node("begin", "Begin"),
          node("Categorize:C", "Categorize", {
            llm_id: "m",
            items: [
              { name: "a", uuid: "u1", description: "about a", examples: [{ value: "x" }, { value: "y" }] },
              { name: "b", uuid: "u2", description: "about b" },
            ],
          }),
          node("Message:A", "Message", { content: ["A"] }),
          node("Message:B", "Message", { content: ["B"] }),
        ],
        edges: [edge("begin", "start", "Categorize:C"), edge("Categorize:C", "u1", "Message:A"), edge("Categorize:C", "u2", "Message:B")],
      },
    };
    const components = migrateDsl(input).dsl.components as Record<string, { obj: { params: Record<string, unknown> }; downstream: string[] }>;
    expect(components["Categorize:C"].obj.params).toEqual({
      llm_id: "m",
      category_description: { a: { description: "about a", examples: ["x", "y"], to: ["Message:A"] }, b: { description: "about b", examples: [], to: ["Message:B"] } },
    });
    expect(components["Categorize:C"].downstream).toEqual(["Message:A", "Message:B"]);
  });

  it("takes Switch case targets from the Case N and end_cpn_ids edges", () => {
    const input = {
      graph: {
        nodes: [
          node("begin", "Begin"),
          node("Switch:S", "Switch", { conditions: [{ logical_operator: "and", items: [{ cpn_id: "sys.query", operator: "=", value: "x" }], to: [] }], end_cpn_ids: [] }),
          node("Message:X", "Message", { content: ["X"] }),
          node("Message:Y", "Message", { content: ["Y"] }),
        ],
        edges: [edge("begin", "start", "Switch:S"), edge("Switch:S", "Case 1", "Message:X"), edge("Switch:S", "end_cpn_ids", "Message:Y")],
      },
    };
    const { dsl, notes } = migrateDsl(input);
    const params = (dsl.components as Record<string, { obj: { params: Record<string, unknown> } }>)["Switch:S"].obj.params;
    expect(params).toMatchObject({ conditions: [{ to: ["Message:X"] }], end_cpn_ids: ["Message:Y"] });
    expect(notes.find((n) => n.component === "Switch:S")?.change).toContain("case 1 → Message:X (from its edges); else → Message:Y (from its edges)");
    expect(validateDsl(dsl).valid).toBe(true);
  });

  it("keeps parent ids of container children", () => {
    const input = {
      graph: {
        nodes: [node("begin", "Begin"), node("Iteration:I", "Iteration", { items_ref: "sys.files" }), node("IterationItem:S", "IterationItem", {}, { parentId: "Iteration:I" })],
        edges: [edge("begin", "start", "Iteration:I")],
      },
    };
    const components = migrateDsl(input).dsl.components as Record<string, { parent_id?: string }>;
    expect(components["IterationItem:S"].parent_id).toBe("Iteration:I");
    expect(components["Iteration:I"].parent_id).toBeUndefined();
  });
});
