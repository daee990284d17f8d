/**
 * LangGraph.js conformance: node-level error handlers (after the retry policy).
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports. LangGraph's
 * `retryPolicy` is the node option `retry`; its zod StateSchema `{ foo: z.string() }` is
 * `state({ foo: state.text() })`. LangGraph drives the backoff with fake timers; the waits here
 * are 1 ms, run on real timers (the engine keeps timers of its own).
 */
import { describe, expect, it } from "vitest";
import { Command, START, state, StateGraph, type NodeError } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

describe("tests/node_error_handler.test.ts › Node-level error handlers", () => {
  // #42, lines 36–81
  it("runs the error handler only after the retry policy is exhausted", async () => {
    const State = state({ foo: state.text() });

    let attempts = 0;
    const captured: { node?: string; error?: unknown } = {};

    const graph = new StateGraph(State)
      .addNode(
        "alwaysFailing",
        () => {
          attempts += 1;
          throw new Error("Always fails");
        },
        {
          retry: {
            maxAttempts: 2,
            initialInterval: 1,
            jitter: false,
            retryOn: () => true,
          },
          errorHandler: (_state, error: NodeError) => {
            captured.node = error.node;
            captured.error = error.error;
            return new Command({
              update: { foo: "handled" },
              goto: "afterHandler",
            });
          },
        },
      )
      .addNode("afterHandler", (data) => ({
        foo: `${data.foo}_after`,
      }))
      .addEdge(START, "alwaysFailing")
      .compile();

    const result = await thread(graph).invoke({ foo: "" });

    expect(result.error).toBeUndefined();
    expect(attempts).toBe(2);
    expect(result.values.foo).toBe("handled_after");
    expect(captured.node).toBe("alwaysFailing");
    expect(captured.error).toBeInstanceOf(Error);
    expect((captured.error as Error | undefined)?.message).toBe("Always fails");
  });

  // #43, lines 83–109
  it("lets the handler route to a recovery branch via Command(goto)", async () => {
    const State = state({ foo: state.text() });

    let attempts = 0;
    const graph = new StateGraph(State)
      .addNode(
        "alwaysFailing",
        () => {
          attempts += 1;
          throw new Error("Always fails");
        },
        {
          retry: { maxAttempts: 1, initialInterval: 1, jitter: false },
          errorHandler: () => new Command({ update: { foo: "handled" }, goto: "nextNode" }),
        },
      )
      .addNode("nextNode", (data) => ({
        foo: `${data.foo}_next`,
      }))
      .addEdge(START, "alwaysFailing")
      .compile();

    const result = await thread(graph).invoke({ foo: "" });
    expect(result.error).toBeUndefined();
    expect(attempts).toBe(1);
    expect(result.values.foo).toBe("handled_next");
  });

  // #44, lines 274–285
  it("still fails the run for a node without an error handler", async () => {
    const State = state({ foo: state.text() });

    const graph = new StateGraph(State)
      .addNode("failWithoutHandler", () => {
        throw new Error("no handler");
      })
      .addEdge(START, "failWithoutHandler")
      .compile();

    const result = await thread(graph).invoke({ foo: "" });
    expect(result.error).toContain("no handler");
  });
});
