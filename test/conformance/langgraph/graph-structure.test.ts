/**
 * LangGraph.js conformance: graph structure (the Python port's fan-outs, waiting edges,
 * conditional entry points, several updates from one node, a subgraph's Command.PARENT).
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports. LangGraph's
 * `invoke` and `stream` without a thread are each one run on a fresh thread here.
 */
import { describe, expect, it } from "vitest";
import { Command, END, reducer, START, state, StateGraph, type Message } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The Python port's sorted_add: a list adds its items and sorts; a list of [remove, add] pairs
 * removes the first of each pair, then adds the second. LangGraph's splices `x` in place; a
 * canvasflow reducer must not change the value it is given, so this one copies it first.
 */
const sortedAdd = reducer("sorted_add", (x: string[], y: string[] | Array<[string, string]>): string[] => {
  let current = [...x];
  let added = y as string[];
  if (y.length > 0 && Array.isArray(y[0])) {
    const tupleArray = y as Array<[string, string]>;
    for (const [rem] of tupleArray) {
      const index = current.indexOf(rem);
      if (index !== -1) current = [...current.slice(0, index), ...current.slice(index + 1)];
    }
    added = tupleArray.map(([, second]) => second);
  }
  return [...current, ...added].sort();
});

describe("tests/python_port/graph_structure.test.ts › Graph Structure Tests (Python port)", () => {
  // #23, lines 1158–1213
  it("should handle conditional entrypoint graphs", async () => {
    const StateAnnotation = state({
      value: state.value<string>({ default: "" }),
    });

    const left = async (data: { value: string }) => ({ value: `${data.value}->left` });
    const right = async (data: { value: string }) => ({ value: `${data.value}->right` });

    // Function to decide which path to take
    const shouldStart = (data: { value: string }) => (data.value.length > 10 ? "go-right" : "go-left");

    const workflow = new StateGraph(StateAnnotation)
      .addNode("left", left)
      .addNode("right", right)
      .addConditionalEdges(START, shouldStart, {
        "go-left": "left",
        "go-right": "right",
      })
      .addConditionalEdges("left", () => END)
      .addEdge("right", END);

    const app = workflow.compile();

    // Test invoke
    const result = await thread(app).invoke({ value: "what is weather in sf" });
    expect(result.error).toBeUndefined();
    expect(result.values.value).toBe("what is weather in sf->right");

    // Test stream
    const streamed = await thread(app).invoke({ value: "what is weather in sf" });
    expect(streamed.updates).toEqual([{ right: { value: "what is weather in sf->right" } }]);
  });

  // #24, lines 1218–1306
  it("should handle conditional entrypoint graphs with state", async () => {
    const StateAnnotation = state({
      input: state.value<string>({ default: "" }),
      output: state.value<string>({ default: "" }),
      steps: state.key({ reducer: reducer("concat", (a: string[], b: string[]) => a.concat(b)), default: [] as string[] }),
    });
    type State = { input: string; output: string; steps: string[] };

    const left = async (data: State) => ({ output: `${data.input}->left` });
    const right = async (data: State) => ({ output: `${data.input}->right` });

    // What the router saw: LangGraph's router asserts inside itself that steps is [].
    const seen: State[] = [];
    const shouldStart = (data: State): "go-left" | "go-right" => {
      seen.push(data);
      expect(data.steps).toEqual([]);
      return data.input.length > 10 ? "go-right" : "go-left";
    };

    const workflow = new StateGraph(StateAnnotation).addNode("left", left).addNode("right", right);
    workflow
      .addConditionalEdges(START, shouldStart, {
        "go-left": "left",
        "go-right": "right",
      })
      .addConditionalEdges("left", () => END)
      .addEdge("right", END);

    const app = workflow.compile();

    // Test invoke
    const result = await thread(app).invoke({ input: "what is weather in sf", output: "", steps: [] });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({
      input: "what is weather in sf",
      output: "what is weather in sf->right",
      steps: [],
    });
    // The router read the state with the input applied.
    expect(seen).toEqual([{ input: "what is weather in sf", output: "", steps: [] }]);

    // Test stream
    const streamed = await thread(app).invoke({ input: "what is weather in sf", output: "", steps: [] });
    expect(streamed.error).toBeUndefined();
    expect(streamed.updates).toEqual([{ right: { output: "what is weather in sf->right" } }]);
  });

  // #54, lines 1460–1611
  it("should test in-one-fan-out with waiting edge plus regular edge", async () => {
    const StateAnnotation = state({
      query: state.value<string>({ default: "" }),
      answer: state.value<string>({ default: "" }),
      docs: state.key({ reducer: sortedAdd, default: [] }),
    });
    type State = { query: string; answer: string; docs: string[] };

    const rewriteQuery = async (data: State) => ({ query: `query: ${data.query}` });
    const analyzerOne = async (data: State) => {
      await sleep(100);
      return { query: `analyzed: ${data.query}` };
    };
    const retrieverOne = async () => ({ docs: ["doc1", "doc2"] });
    const retrieverTwo = async () => {
      await sleep(200);
      return { docs: ["doc3", "doc4"] };
    };
    const qa = async (data: State) => ({ answer: data.docs.join(",") });

    const build = () => {
      const workflow = new StateGraph(StateAnnotation)
        .addNode("rewrite_query", rewriteQuery)
        .addNode("analyzer_one", analyzerOne)
        .addNode("retriever_one", retrieverOne)
        .addNode("retriever_two", retrieverTwo)
        .addNode("qa", qa);
      workflow.addEdge(START, "rewrite_query");
      workflow.addEdge("rewrite_query", "analyzer_one");
      workflow.addEdge("analyzer_one", "retriever_one");
      workflow.addEdge("rewrite_query", "retriever_two");
      workflow.addEdge(["retriever_one", "retriever_two"], "qa");
      workflow.addEdge("qa", END);
      // silly edge, to make sure having been triggered before doesn't break
      // semantics of named barrier (== waiting edges)
      workflow.addEdge("rewrite_query", "qa");
      return workflow;
    };

    const app = build().compile();

    // Test invoke
    const result = await thread(app).invoke({ query: "what is weather in sf" });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({
      query: "analyzed: query: what is weather in sf",
      docs: ["doc1", "doc2", "doc3", "doc4"],
      answer: "doc1,doc2,doc3,doc4",
    });

    // Test stream. Adapted: LangGraph streams a step's updates as its nodes finish, so the second
    // step's are qa (at once), analyzer_one (100 ms), retriever_two (200 ms); canvasflow reports a
    // batch's node_finished events when the batch has settled, in the batch's order (the order of
    // rewrite_query's edges: analyzer_one, retriever_two, qa), the order its writes merge in. The
    // steps and each update are LangGraph's.
    const streamed = await thread(app).invoke({ query: "what is weather in sf" });
    expect(streamed.updates).toEqual([
      { rewrite_query: { query: "query: what is weather in sf" } },
      { analyzer_one: { query: "analyzed: query: what is weather in sf" } },
      { retriever_two: { docs: ["doc3", "doc4"] } },
      { qa: { answer: "" } },
      { retriever_one: { docs: ["doc1", "doc2"] } },
      { qa: { answer: "doc1,doc2,doc3,doc4" } },
    ]);

    // Test with checkpointer and interrupt (the harness's thread: a session saved between runs).
    const appWithInterrupt = build().compile({ interruptAfter: ["retriever_one"] });
    const t = thread(appWithInterrupt);

    // Test stream with interrupt
    const interrupted = await t.invoke({ query: "what is weather in sf" });
    expect(interrupted.error).toBeUndefined();
    expect(interrupted.updates).toEqual([
      { rewrite_query: { query: "query: what is weather in sf" } },
      { analyzer_one: { query: "analyzed: query: what is weather in sf" } },
      { retriever_two: { docs: ["doc3", "doc4"] } },
      { qa: { answer: "" } },
      { retriever_one: { docs: ["doc1", "doc2"] } },
    ]);
    // LangGraph's `{ __interrupt__: [] }`: the run paused at a static breakpoint, with no interrupt() values.
    expect(interrupted.events.at(-1)?.event).toBe("user_inputs");
    expect(interrupted.interrupts ?? []).toEqual([]);

    // Resume from interrupt
    const resumed = await t.invoke(null);
    expect(resumed.error).toBeUndefined();
    expect(resumed.updates).toEqual([{ qa: { answer: "doc1,doc2,doc3,doc4" } }]);
    expect(resumed.values).toEqual({
      query: "analyzed: query: what is weather in sf",
      docs: ["doc1", "doc2", "doc3", "doc4"],
      answer: "doc1,doc2,doc3,doc4",
    });
  });

  // #16, lines 1767–1916
  it("should test in-one-fan-out with waiting edge and multiple conditional edges", async () => {
    const StateAnnotation = state({
      query: state.value<string>({ default: "" }),
      answer: state.value<string>({ default: "" }),
      docs: state.key({ reducer: sortedAdd, default: [] }),
    });
    type State = { query: string; answer: string; docs: string[] };

    const rewriteQuery = async (data: State) => ({ query: `query: ${data.query}` });
    const retrieverPicker = async (): Promise<Array<"analyzer_one" | "retriever_two">> => ["analyzer_one", "retriever_two"];
    const analyzerOne = async (data: State) => ({ query: `analyzed: ${data.query}` });
    const retrieverOne = async () => ({ docs: ["doc1", "doc2"] });
    const retrieverTwo = async () => {
      await sleep(100);
      return { docs: ["doc3", "doc4"] };
    };
    const qa = async (data: State) => ({ answer: data.docs.join(",") });
    // In Python this returns None which doesn't exist in TypeScript
    const decider = async () => ({});
    const deciderCond = (data: State): "qa" | "rewrite_query" => ((data.query.match(/analyzed/g) || []).length > 1 ? "qa" : "rewrite_query");

    const workflow = new StateGraph(StateAnnotation)
      .addNode("rewrite_query", rewriteQuery)
      .addNode("analyzer_one", analyzerOne)
      .addNode("retriever_one", retrieverOne)
      .addNode("retriever_two", retrieverTwo)
      .addNode("decider", decider)
      .addNode("qa", qa);

    workflow.addEdge(START, "rewrite_query");
    workflow.addConditionalEdges("rewrite_query", retrieverPicker);
    workflow.addEdge("analyzer_one", "retriever_one");
    workflow.addEdge(["retriever_one", "retriever_two"], "decider");
    workflow.addConditionalEdges("decider", deciderCond);
    workflow.addEdge("qa", END);

    const app = workflow.compile();

    // Test invoke
    const result = await thread(app).invoke({ query: "what is weather in sf" });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({
      query: "analyzed: query: analyzed: query: what is weather in sf",
      docs: ["doc1", "doc1", "doc2", "doc2", "doc3", "doc3", "doc4", "doc4"],
      answer: "doc1,doc1,doc2,doc2,doc3,doc3,doc4,doc4",
    });

    // Test stream
    const streamed = await thread(app).invoke({ query: "what is weather in sf" });
    expect(streamed.updates).toEqual([
      { rewrite_query: { query: "query: what is weather in sf" } },
      { analyzer_one: { query: "analyzed: query: what is weather in sf" } },
      { retriever_two: { docs: ["doc3", "doc4"] } },
      { retriever_one: { docs: ["doc1", "doc2"] } },
      { decider: {} },
      { rewrite_query: { query: "query: analyzed: query: what is weather in sf" } },
      { analyzer_one: { query: "analyzed: query: analyzed: query: what is weather in sf" } },
      { retriever_two: { docs: ["doc3", "doc4"] } },
      { retriever_one: { docs: ["doc1", "doc2"] } },
      { decider: {} },
      { qa: { answer: "doc1,doc1,doc2,doc2,doc3,doc3,doc4,doc4" } },
    ]);
  });

  // #28, lines 2538–2580
  it("should handle multiple updates from root node", async () => {
    const StateAnnotation = state({
      value: state.key({ reducer: reducer("concat_text", (a: string, b: string) => a + b), default: "" }),
    });

    const nodeA = () => [new Command({ update: { value: "a1" } }), new Command({ update: { value: "a2" } })];
    const nodeB = () => ({ value: "b" });

    const graph = new StateGraph(StateAnnotation).addNode("node_a", nodeA).addNode("node_b", nodeB).addEdge("node_a", "node_b").addEdge(START, "node_a").compile();

    // Test the invoke method
    const result = await thread(graph).invoke({ value: "" });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({ value: "a1a2b" });

    // Test the stream method with updates mode. Adapted: LangGraph streams node_a's two updates as
    // `{ node_a: [{ value: "a1" }, { value: "a2" }] }`; a canvasflow node's outputs hold one value
    // per key, its last write (both writes reached the reducer, in order, as the values show).
    const streamed = await thread(graph).invoke({ value: "" });
    expect(streamed.error).toBeUndefined();
    expect(streamed.updates).toEqual([{ node_a: { value: "a2" } }, { node_b: { value: "b" } }]);
  });

  // #36, lines 2457–2533
  it("should handle parent commands", async () => {
    // Create a tool that returns a parent command
    const getUserName = (): Command =>
      new Command({
        update: { user_name: "Meow" },
        graph: Command.PARENT,
      });

    // Create the subgraph that uses the tool (LangGraph's MessagesAnnotation)
    const subgraph = new StateGraph(state({ messages: state.messages() })).addNode("tool", getUserName).addEdge(START, "tool").compile();

    // Create a custom parent state annotation
    const CustomParentStateAnnotation = state({
      messages: state.messages(),
      user_name: state.value<string>({ default: "" }),
    });

    const builder = new StateGraph(CustomParentStateAnnotation).addNode("alice", subgraph).addEdge(START, "alice");
    const graph = builder.compile();

    // Test invoke (one thread, LangGraph's thread_id "1")
    const humanMessage: Message = { type: "human", content: "get user name" };
    const result = await thread(graph).invoke({ messages: [humanMessage] });

    // Check the result (the messages reducer gave the message an id)
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({
      messages: [{ ...humanMessage, id: expect.any(String) }],
      user_name: "Meow",
    });
    // Check the state: nothing left to run. (LangGraph's checkpoint metadata and config are not ported.)
    expect(result.next).toEqual([]);
  });
});
