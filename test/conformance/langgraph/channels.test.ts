/**
 * LangGraph.js conformance: channels (a state key's reducer, Overwrite, last value), driven
 * through a StateGraph. A channel's `update([...])` is one step's writes: here one batch, the
 * writes of nodes that run in parallel after the same node; `get()` is the state after it.
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports. LangGraph's
 * `new Overwrite(v)` is `overwrite(v)`.
 */
import { describe, expect, it, vi } from "vitest";
import { END, overwrite, reducer, START, state, StateGraph } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

describe("tests/channels.test.ts › BinaryOperatorAggregate › with Overwrite", () => {
  // #8, lines 315–327
  it("should bypass the reducer when Overwrite is used", async () => {
    const concat = vi.fn((a: string[], b: string[]) => a.concat(b));
    const State = state({ items: state.key({ reducer: reducer("concat", concat), default: [] }) });
    const seen: { items?: string[]; calls?: number } = {};
    const app = new StateGraph(State)
      .addNode("first", () => ({ items: ["a", "b"] }))
      .addNode("second", (data) => {
        seen.items = data.items;
        seen.calls = concat.mock.calls.length;
        concat.mockClear();
        return { items: overwrite(["replaced"]) };
      })
      .addEdge(START, "first")
      .addEdge("first", "second")
      .addEdge("second", END)
      .compile();

    const result = await thread(app).invoke({});
    expect(result.error).toBeUndefined();
    // After the first step.
    expect(seen.items).toEqual(["a", "b"]);
    expect(seen.calls).toBe(1);
    // After the second.
    expect(result.values.items).toEqual(["replaced"]);
    expect(concat).not.toHaveBeenCalled();
  });

  // #9, lines 342–351
  it("should throw on multiple Overwrite values in the same step", async () => {
    const State = state({ total: state.key({ reducer: reducer("sum", (a: number, b: number) => a + b), default: 0 }) });
    const app = new StateGraph(State)
      .addNode("ten", () => ({ total: overwrite(10) }))
      .addNode("twenty", () => ({ total: overwrite(20) }))
      .addEdge(START, "ten")
      .addEdge(START, "twenty")
      .compile();

    const result = await thread(app).invoke({});
    expect(result.error).toContain("INVALID_UPDATE");
    expect(result.error).toContain('"total"');
    // Nothing of the step is applied.
    expect(result.values.total).toBe(0);
  });

  // #10, lines 366–374
  it("should apply normal values before an Overwrite, then overwrite wins", async () => {
    const State = state({ total: state.key({ reducer: reducer("sum", (a: number, b: number) => a + b), default: 0 }) });
    const app = new StateGraph(State)
      .addNode("ten", () => ({ total: 10 }))
      .addNode("forty_two", () => ({ total: overwrite(42) }))
      .addEdge(START, "ten")
      .addEdge(START, "forty_two")
      .compile();

    const result = await thread(app).invoke({});
    expect(result.error).toBeUndefined();
    expect(result.values.total).toBe(42);
  });
});

describe("tests/channels.test.ts › LastValue", () => {
  // #11, lines 41–51
  it.each([0, "", false, null])("should handle '%s'", async (value) => {
    // A default that is not falsy, so that the value is seen to replace it.
    const State = state({ write: state.value<boolean>({ default: false }), value: state.value<unknown>({ default: "unset", type: "any" }) });
    const app = new StateGraph(State)
      .addNode("write_value", (data) => (data.write ? { value } : {}))
      .addEdge(START, "write_value")
      .addEdge("write_value", END)
      .compile();
    const t = thread(app);

    const first = await t.invoke({ write: true });
    expect(first.error).toBeUndefined();
    expect(first.values.value).toBe(value);

    // The harness saved the canvas and loads it again for the next run (the checkpoint and its restore).
    const second = await t.invoke({ write: false });
    expect(second.error).toBeUndefined();
    expect(second.updates).toEqual([{ write_value: {} }]);
    expect(second.values.value).toBe(value);
  });
});
