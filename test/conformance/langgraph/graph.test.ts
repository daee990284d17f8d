/**
 * LangGraph.js conformance: building a graph.
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports.
 */
import { describe, expect, it } from "vitest";
import { END, reducer, START, state, StateGraph } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

describe("tests/graph.test.ts › State", () => {
  // #27, lines 106–130
  it("should add multiple nodes in parallel using array syntax", async () => {
    const stateGraph = new StateGraph(
      state({
        messages: state.key({ reducer: reducer("concat", (left: string[], right: string[]) => [...left, ...right]), default: [] }),
      }),
    );

    // LangGraph's addNode([[name, fn], …]) adds the nodes and no edges; canvasflow has no array
    // form of addNode, so the nodes are added one addNode call each (addSequence would add the
    // edges as well, which the test adds itself).
    const graph = stateGraph
      .addNode("node1", () => ({ messages: ["from node1"] }))
      .addNode("node2", () => ({ messages: ["from node2"] }))
      .addNode("node3", () => ({ messages: ["from node3"] }))
      .addEdge(START, "node1")
      .addEdge("node1", "node2")
      .addEdge("node2", "node3")
      .addEdge("node3", END)
      .compile();

    const result = await thread(graph).invoke({ messages: [] });
    expect(result.error).toBeUndefined();
    expect(result.values.messages).toEqual(["from node1", "from node2", "from node3"]);
  });
});
