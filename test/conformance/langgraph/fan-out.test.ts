/**
 * LangGraph.js conformance: fan-out and waiting edges.
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports.
 */
import { describe, expect, it } from "vitest";
import { END, reducer, START, state, StateGraph } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

describe("tests/pregel.test.ts › StateGraph", () => {
  // #14, lines 2831–2888
  it("In one fan out state graph waiting edge", async () => {
    let sortedAddCalls = 0;
    const sortedAdd = reducer<string[]>("sorted_add", (x, y) => {
      sortedAddCalls++;
      return [...x, ...y].sort();
    });
    const State = state({
      query: state.value<string>(),
      answer: state.value<string>(),
      docs: state.key({ reducer: sortedAdd, default: [] }),
    });
    const app = new StateGraph(State)
      .addNode("rewrite_query", (data) => ({ query: `query: ${data.query}` }))
      .addNode("analyzer_one", (data) => ({ query: `analyzed: ${data.query}` }))
      .addNode("retriever_one", () => ({ docs: ["doc1", "doc2"] }))
      .addNode("retriever_two", () => ({ docs: ["doc3", "doc4"] }))
      .addNode("qa", (data) => ({ answer: data.docs.join(",") }))
      .addEdge(START, "rewrite_query")
      .addEdge("rewrite_query", "analyzer_one")
      .addEdge("analyzer_one", "retriever_one")
      .addEdge("rewrite_query", "retriever_two")
      .addEdge(["retriever_one", "retriever_two"], "qa")
      .addEdge("qa", END)
      .compile();

    const result = await thread(app).invoke({ query: "what is weather in sf" });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({
      query: "analyzed: query: what is weather in sf",
      docs: ["doc1", "doc2", "doc3", "doc4"],
      answer: "doc1,doc2,doc3,doc4",
    });
    expect(sortedAddCalls).toBe(2);
    // qa ran once, after both branches, though they finished in different steps.
    expect(result.updates.filter((u) => "qa" in u)).toEqual([{ qa: { answer: "doc1,doc2,doc3,doc4" } }]);
  });
});
