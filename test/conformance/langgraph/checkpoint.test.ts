/**
 * LangGraph.js conformance: recovery after a failed run on a checkpointer.
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports.
 */
import { describe, expect, it } from "vitest";
import { InProcessSnapshotStore } from "../../../src/backends/process/session-store.js";
import { reducer, START, state, StateGraph } from "../../../src/graph/index.js";
import { DurableThread } from "./durable-thread.js";

describe("tests/python_port/checkpoint.test.ts › Checkpoint Recovery Tests (Python port)", () => {
  // #47, lines 2072–2151
  it("should recover from checkpoints after failures with async nodes", async () => {
    // Create state with steps and attempt
    const State = state({
      steps: state.key({ reducer: reducer<string[]>("steps_concat", (a, b) => [...(a || []), ...(b || [])]), default: [] }),
      attempt: state.number(),
    });

    // Helper function for controlled delays
    const delay = (ms: number) =>
      new Promise((resolve) => {
        setTimeout(resolve, ms);
      });

    // Node that fails on first attempt, succeeds on retry
    const failingNode = async (s: { attempt: number }) => {
      if (s.attempt === 1) throw new Error("Simulated failure");
      await delay(100); // Simulate async work
      return { steps: ["node1"] };
    };

    // Second node for the pipeline
    const secondNode = async () => {
      await delay(100); // Simulate async work
      return { steps: ["node2"] };
    };

    const builder = new StateGraph(State).addNode("node1", failingNode).addNode("node2", secondNode).addEdge(START, "node1").addEdge("node1", "node2");

    // The checkpointer is a CheckpointStore in memory; thread "1" a durable session in it.
    const saver = new InProcessSnapshotStore();
    const graph = builder.compile();
    const config = new DurableThread(graph, saver, "1");

    // First attempt should fail
    expect((await config.invoke({ steps: ["start"], attempt: 1 })).error).toContain("Simulated failure");

    // Adapted: LangGraph saves the failed run's input and retries the failed node (values
    // { steps: ["start"], attempt: 1 }, next ["node1"]). canvasflow restarts a failed turn from
    // the last stable point before it (docs/durable.md): here the new thread, so neither the
    // failed turn's input nor a pending node is kept.
    const s = await config.state();
    expect(s).not.toBeNull();
    expect(s.values).toEqual({ steps: [], attempt: 0 });
    expect(s.next).toEqual([]);

    // Retry with updated attempt count: the whole turn runs, without the failed turn's "start".
    const result = await config.invoke({ steps: [], attempt: 2 });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({ steps: ["node1", "node2"], attempt: 2 });

    // LangGraph's checkpoint history (6 entries) has no port. The error it records is in the
    // thread's event log: the failed turn's events stay there, after it the successful turn's.
    const logged = await config.loggedEvents();
    const failedTask = logged.find((e) => e.event === "node_finished" && e.data.error);
    expect(failedTask).toMatchObject({ data: { component_id: "node1", error: expect.stringContaining("Simulated failure") } });
    expect(logged.filter((e) => e.event === "workflow_finished").map((e) => e.event === "workflow_finished" && e.data.error)).toEqual([expect.stringContaining("Simulated failure"), undefined]);
  });
});
