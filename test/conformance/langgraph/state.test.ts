/**
 * LangGraph.js conformance: StateGraph state (Overwrite end to end).
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports. LangGraph's
 * `new Overwrite(v)` is `overwrite(v)`.
 */
import { describe, expect, it } from "vitest";
import { END, overwrite, reducer, START, state, StateGraph } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

describe("graph/state.test.ts › StateGraph › Overwrite end-to-end › Annotation.Root", () => {
  // #12, lines 1107–1127
  it("should continue accumulating after overwrite", async () => {
    const StateAnnotation = state({
      items: state.key({ reducer: reducer("concat", (a: string[], b: string[]) => a.concat(b)), default: [] }),
    });

    const graph = new StateGraph(StateAnnotation)
      .addNode("add", () => ({ items: ["a"] }))
      .addNode("replace", () => ({ items: overwrite(["x"]) }))
      .addNode("addMore", () => ({ items: ["y"] }))
      .addEdge(START, "add")
      .addEdge("add", "replace")
      .addEdge("replace", "addMore")
      .addEdge("addMore", END)
      .compile();

    const result = await thread(graph).invoke({});
    expect(result.error).toBeUndefined();
    expect(result.values.items).toEqual(["x", "y"]);
  });
});
