/**
 * LangGraph.js conformance: errors a run fails with.
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports. LangGraph's
 * invoke throws; a canvasflow run ends with its error in workflow_finished (`error`), which
 * carries LangGraph's error code.
 */
import { describe, expect, it } from "vitest";
import { END, reducer, START, state, StateGraph } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

describe("tests/errors.test.ts", () => {
  // #37, lines 12–37
  it("StateGraph concurrent state value update fails", async () => {
    const StateAnnotation = state({
      my_key: state.key({ reducer: reducer("concat_text", (x: string, y: string) => x + y), default: "" }),
      market: state.value<string>(),
    });

    const graph = new StateGraph(StateAnnotation)
      .addNode("foo", () => ({ market: ` slow` }))
      .addNode("bar", () => ({ market: ` fast` }))
      .addEdge(START, "bar")
      .addEdge(START, "foo");

    const app = graph.compile();
    const result = await thread(app).invoke({ my_key: "value", market: "DE" });
    expect(result.error).toContain("INVALID_CONCURRENT_GRAPH_UPDATE");
    expect(result.error).toContain('"market"');
  });

  // #38, lines 39–60
  it("StateGraph bad return type", async () => {
    const StateAnnotation = state({
      my_key: state.value<string>(),
    });

    const graph = new StateGraph(StateAnnotation)
      // @ts-expect-error Test invalid return value
      .addNode("foo", () => 123)
      .addEdge(START, "foo");

    // LangGraph first calls updateState(config, { invalid: "foo" }, "foo") on the thread, which
    // does nothing the test checks (updateState is not ported, research §2.4), then invokes.
    const app = graph.compile();
    const result = await thread(app).invoke({ my_key: "value" });
    expect(result.error).toContain("INVALID_GRAPH_NODE_RETURN_VALUE");
    expect(result.error).toContain("123");
  });

  // #39, lines 62–83
  it("Should throw errors in conditional edges", async () => {
    class TestError extends Error {}

    const StateAnnotation = state({
      myKey: state.value<string>(),
    });

    const graph = new StateGraph(StateAnnotation)
      .addNode("init", (data) => data)
      .addNode("x", (data) => data)
      .addEdge(START, "init")
      .addConditionalEdges("init", () => {
        // A message of its own: the run's error is text, so the test finds the error by it
        // (LangGraph checks the class, which a stored run does not keep).
        throw new TestError("the router failed");
      })
      .addEdge("x", END);

    const app = graph.compile();

    const result = await thread(app).invoke({});
    expect(result.error).toContain("the router failed");
    // The route was never taken.
    expect(result.updates.map((u) => Object.keys(u)[0])).not.toContain("x");
  });
});
