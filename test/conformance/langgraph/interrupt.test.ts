/**
 * LangGraph.js conformance: interrupts next to other nodes.
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports.
 */
import { describe, expect, it } from "vitest";
import { Command, interrupt, START, state, StateGraph } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

describe("tests/python_port/interrupt.test.ts › Async Pregel Interrupt Tests (Python port)", () => {
  // #53, lines 572–651
  it("should not cancel node task when another node is interrupted", async () => {
    // Define our state schema
    const State = state({ hello: state.text({ reducer: "add" }) });

    let awhileCount = 0;
    let innerTaskCancelled = false;

    // Create a node that runs for a while
    async function awhile() {
      awhileCount += 1;
      try {
        await new Promise<void>((resolve) => {
          setTimeout(resolve, 100);
        });
        return { hello: " again" };
      } catch (error) {
        if (error instanceof Error && error.message === "AbortError") innerTaskCancelled = true;
        throw error;
      }
    }

    // Create a node that interrupts
    function iambad() {
      return { hello: interrupt<string>("I am bad") };
    }

    // Create the graph
    const builder = new StateGraph(State)
      .addNode("agent", awhile)
      .addNode("bad", iambad)
      .addConditionalEdges(START, () => ["agent", "bad"]);

    const graph = builder.compile();
    const config = thread(graph);

    // First invocation - writes from "awhile" are applied to last chunk
    const result1 = await config.invoke({ hello: "world" });
    expect(result1.values).toEqual({ hello: "world again" });
    expect(result1.interrupts).toEqual([{ id: expect.any(String), value: "I am bad" }]);
    expect(innerTaskCancelled).toBe(false);
    expect(awhileCount).toBe(1);

    // Second invocation, with no input: the interrupted node asks again, agent does not run again
    const result2 = await config.invoke(null);
    expect(result2.values).toEqual({ hello: "world again" });
    expect(result2.interrupts).toEqual([{ id: expect.any(String), value: "I am bad" }]);
    expect(innerTaskCancelled).toBe(false);
    expect(awhileCount).toBe(1);

    // Resume with answer
    const result3 = await config.invoke(new Command({ resume: " okay" }));
    expect(result3.error).toBeUndefined();
    expect(result3.values).toEqual({ hello: "world again okay" });
    expect(result3.interrupts).toBeUndefined();
    expect(innerTaskCancelled).toBe(false);
    expect(awhileCount).toBe(1);
  });
});
