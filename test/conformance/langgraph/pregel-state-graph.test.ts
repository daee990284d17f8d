/**
 * LangGraph.js conformance: StateGraph runs from tests/pregel.test.ts — routing (conditional
 * edges with and without a path map, Sends), waiting edges in a loop, streams, breakpoints,
 * addSequence, writes and the state's keys.
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports.
 */
import { describe, expect, it } from "vitest";
import { Command, END, reducer, Send, START, state, StateGraph } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

const concat = reducer<string[]>("concat", (a, b) => a.concat(b));

describe("tests/pregel.test.ts › StateGraph", () => {
  // #13, lines 2783–2829
  it("Conditional edges is optional", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    type Keys = Record<string, any>;
    const setValue = (value: number) => (s: { keys: Keys }) => {
      const { keys } = s;
      keys.value = value;
      return { keys };
    };
    const app = new StateGraph(state({ keys: state.value<Keys>() }))
      .addNode("one", setValue(1))
      .addNode("two", setValue(2))
      .addNode("three", setValue(3))
      .addEdge(START, "one")
      .addConditionalEdges("one", () => "two")
      .addEdge("two", "three")
      .addEdge("three", END)
      .compile();

    // This will always return two, and two will always go to three, so keys.value is 3.
    const result = await thread(app).invoke({ keys: { value: 0 } });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({ keys: { value: 3 } });
    expect(result.updates).toEqual([{ one: { keys: { value: 1 } } }, { two: { keys: { value: 2 } } }, { three: { keys: { value: 3 } } }]);
  });

  // #15, lines 3118–3251 (the cachePolicy: false row; caches are not ported)
  it("in one fan out state graph waiting edge multiple ({ cachePolicy: false, slowCache: false })", async () => {
    const sortedAdd = reducer<string[]>("sorted_add", (x, y) => [...x, ...y].sort());
    let rewriteQueryCount = 0;
    const app = new StateGraph(
      state({
        query: state.value<string>(),
        answer: state.value<string>(),
        docs: state.key({ reducer: sortedAdd, default: [] }),
      }),
    )
      .addNode("rewrite_query", (s) => {
        rewriteQueryCount += 1;
        return { query: `query: ${s.query}` };
      })
      .addNode("analyzer_one", (s) => ({ query: `analyzed: ${s.query}` }))
      .addNode("retriever_one", () => ({ docs: ["doc1", "doc2"] }))
      .addNode("retriever_two", async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return { docs: ["doc3", "doc4"] };
      })
      .addNode("qa", (s) => ({ answer: s.docs.join(",") }))
      .addNode("decider", () => ({}))
      .addEdge(START, "rewrite_query")
      .addEdge("rewrite_query", "analyzer_one")
      .addEdge("analyzer_one", "retriever_one")
      .addEdge("rewrite_query", "retriever_two")
      .addEdge(["retriever_one", "retriever_two"], "decider")
      .addConditionalEdges("decider", (s) => (s.query.split("analyzed").length - 1 > 1 ? "qa" : "rewrite_query"), ["qa", "rewrite_query"])
      .compile();

    const expected = {
      query: "analyzed: query: analyzed: query: what is weather in sf",
      answer: "doc1,doc1,doc2,doc2,doc3,doc3,doc4,doc4",
      docs: ["doc1", "doc1", "doc2", "doc2", "doc3", "doc3", "doc4", "doc4"],
    };
    // LangGraph's invoke and stream have no checkpointer: two independent runs, two threads here.
    const invoked = await thread(app).invoke({ query: "what is weather in sf" });
    expect(invoked.error).toBeUndefined();
    expect(invoked.values).toEqual(expected);

    const streamed = await thread(app).invoke({ query: "what is weather in sf" });
    expect(streamed.error).toBeUndefined();
    expect(streamed.values).toEqual(expected);
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
    expect(rewriteQueryCount).toBe(4);
  });

  // #17, lines 3781–3806
  it("Allow map reduce flows", async () => {
    const OverallState = state({
      subjects: state.value<string[]>(),
      jokes: state.key({ reducer: concat, default: [] }),
    });
    const app = new StateGraph(OverallState)
      .addNode("generate_joke", (s) => ({ jokes: [`Joke about ${s.subjects}`] }))
      .addConditionalEdges(START, async (s) => s.subjects.map((subject) => new Send("generate_joke", { subjects: [subject] })))
      .addEdge("generate_joke", END)
      .compile();

    // Invoking with two subjects results in a generated joke for each.
    const result = await thread(app).invoke({ subjects: ["cats", "dogs"] });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({ subjects: ["cats", "dogs"], jokes: ["Joke about cats", "Joke about dogs"] });
  });

  // #20, lines 4256–4333
  it("multiple stream mode", async () => {
    const sum = reducer<number>("sum", (a, b) => a + b);
    const app = new StateGraph(state({ value: state.key({ reducer: sum, default: 0 }) }))
      .addNode("add_one", () => ({ value: 1 }))
      .addEdge(START, "add_one")
      .addConditionalEdges("add_one", (s) => (s.value < 6 ? "add_one" : END))
      .compile();

    // LangGraph's `values` stream: the state after the input, then after each step, here folded
    // from the updates through the key's reducer (every step has one node).
    const valuesOf = (input: { value: number }, updates: Array<Record<string, Record<string, unknown>>>) => {
      const values = [{ value: sum.reduce(0, input.value) }];
      for (const update of updates) values.push({ value: sum.reduce(values.at(-1)!.value, update.add_one!.value as number) });
      return values;
    };
    const interleaved = (input: { value: number }, updates: Array<Record<string, Record<string, unknown>>>) => {
      const values = valuesOf(input, updates);
      return values.flatMap((v, i) => (i < updates.length ? [["values", v], ["updates", updates[i]]] : [["values", v]]));
    };

    // Default is updates.
    const first = await thread(app).invoke({ value: 1 });
    expect(first.error).toBeUndefined();
    expect(first.updates).toEqual([{ add_one: { value: 1 } }, { add_one: { value: 1 } }, { add_one: { value: 1 } }, { add_one: { value: 1 } }, { add_one: { value: 1 } }]);
    expect(first.values).toEqual({ value: 6 });

    const second = await thread(app).invoke({ value: 1 });
    expect(valuesOf({ value: 1 }, second.updates)).toEqual([{ value: 1 }, { value: 2 }, { value: 3 }, { value: 4 }, { value: 5 }, { value: 6 }]);
    expect(second.values).toEqual({ value: 6 });

    const third = await thread(app).invoke({ value: 1 });
    expect(interleaved({ value: 1 }, third.updates)).toEqual([
      ["values", { value: 1 }],
      ["updates", { add_one: { value: 1 } }],
      ["values", { value: 2 }],
      ["updates", { add_one: { value: 1 } }],
      ["values", { value: 3 }],
      ["updates", { add_one: { value: 1 } }],
      ["values", { value: 4 }],
      ["updates", { add_one: { value: 1 } }],
      ["values", { value: 5 }],
      ["updates", { add_one: { value: 1 } }],
      ["values", { value: 6 }],
    ]);
    expect(third.values).toEqual({ value: 6 });
  });

  // #30, lines 4611–4794
  it("should allow undefined values returned in a node update", async () => {
    const keepUnlessGiven = reducer<string, string | null | undefined>("keep_unless_given", (x, y) => y ?? x);
    const app = new StateGraph(
      state({
        test: state.value<string | null>(),
        reducerField: state.key({ reducer: keepUnlessGiven, default: "" }),
      }),
    )
      .addNode("updateTest", async () => ({ test: "test", reducerField: "should not be wiped" }))
      .addNode("wipeFields", async () => ({ test: undefined, reducerField: undefined }))
      .addEdge(START, "updateTest")
      .addEdge("updateTest", "wipeFields")
      .addEdge("wipeFields", END)
      .compile();

    const result = await thread(app).invoke({});
    expect(result.error).toBeUndefined();
    // Adapted: JSON has no undefined, so a key written as undefined is cleared to null (LangGraph
    // leaves it out of the result); the reducer's `y ?? x` keeps the other key, as in LangGraph.
    expect(result.values).toEqual({ test: null, reducerField: "should not be wiped" });
    // LangGraph's history: updateTest's result, then wipeFields' (its undefineds as null here).
    expect(result.updates).toEqual([{ updateTest: { test: "test", reducerField: "should not be wiped" } }, { wipeFields: { test: null, reducerField: null } }]);
  });

  // #32, lines 4835–4869
  it("should allow private state passing between nodes", async () => {
    // LangGraph's private channel (node b's input schema adds privateProp) is a key of the state
    // left out of the graph's output.
    const PrivateState = state({ hello: state.value<string>(), privateProp: state.value<string>() });
    let seenByB: unknown;
    const build = (b: () => Record<string, unknown>) =>
      new StateGraph(PrivateState, { output: ["hello"] })
        .addNode("a", () => ({ privateProp: "secret" }))
        .addNode("b", (s) => {
          seenByB = { ...s };
          return b() as never;
        })
        .addEdge(START, "a")
        .addEdge("a", "b")
        .compile();

    // Adapted: LangGraph's b also returns `now: 123`, a key no schema has, and LangGraph drops it;
    // canvasflow refuses a write to a key the state does not have (INVALID_UPDATE), so b leaves it out.
    const result = await thread(build(() => ({ hello: "again" }))).invoke({ hello: "there" });
    expect(result.error).toBeUndefined();
    expect(seenByB).toEqual({ privateProp: "secret", hello: "there" });
    expect(result.values).toEqual({ hello: "again" });

    const withUnknownKey = await thread(build(() => ({ hello: "again", now: 123 }))).invoke({ hello: "there" });
    expect(withUnknownKey.error).toContain("INVALID_UPDATE");
  });
});

describe("tests/pregel.test.ts", () => {
  // #18, lines 1988–2009
  it("should allow a conditional edge after a send", async () => {
    const app = new StateGraph(state({ items: state.key({ reducer: concat, default: [] }) }))
      .addNode("1", () => ({ items: ["1"] }))
      .addNode("2", () => ({ items: ["2"] }))
      .addNode("3", () => ({ items: ["3"] }))
      .addEdge(START, "1")
      .addConditionalEdges("1", (s) => [new Send("2", s), new Send("2", s)])
      .addConditionalEdges("2", () => "3")
      .addEdge("3", END)
      .compile();

    const result = await thread(app).invoke({ items: ["0"] });
    expect(result.error).toBeUndefined();
    // Node 3 runs once, though both Sends route to it.
    expect(result.values).toEqual({ items: ["0", "1", "2", "2", "3"] });
    expect(result.updates.filter((u) => "3" in u)).toHaveLength(1);
  });

  // #21, lines 5674–5930
  it("StateGraph start branch then end", async () => {
    const build = () =>
      new StateGraph(state({ my_key: state.text({ reducer: "add" }), market: state.value<string>() }))
        .addNode("tool_two_slow", () => ({ my_key: " slow" }))
        .addNode("tool_two_fast", () => ({ my_key: " fast" }))
        .addConditionalEdges(START, (s) => (s.market === "DE" ? "tool_two_slow" : "tool_two_fast"));

    const toolTwo = build().compile();
    expect((await thread(toolTwo).invoke({ my_key: "value", market: "DE" })).values).toEqual({ my_key: "value slow", market: "DE" });
    expect((await thread(toolTwo).invoke({ my_key: "value", market: "US" })).values).toEqual({ my_key: "value fast", market: "US" });

    // LangGraph's invoke without a thread_id is refused; here a run is always a thread's.
    const toolTwoWithBreakpoints = build().compile({ interruptBefore: ["tool_two_fast", "tool_two_slow"] });

    const thread1 = thread(toolTwoWithBreakpoints);
    const paused1 = await thread1.invoke({ my_key: "value ⛰️", market: "DE" });
    expect(paused1.error).toBeUndefined();
    expect(paused1.values).toEqual({ my_key: "value ⛰️", market: "DE" });
    // Paused at the breakpoint, with no interrupt() values: LangGraph's `__interrupt__: []`.
    expect(paused1.events.at(-1)?.event).toBe("user_inputs");
    expect(paused1.interrupts ?? []).toEqual([]);
    expect(paused1.next).toEqual(["tool_two_slow"]);
    const resumed1 = await thread1.invoke(null);
    expect(resumed1.error).toBeUndefined();
    expect(resumed1.values).toEqual({ my_key: "value ⛰️ slow", market: "DE" });
    expect(resumed1.next).toEqual([]);

    // Stop when about to enter the node, then resume for the same result as without breakpoints.
    const thread2 = thread(toolTwoWithBreakpoints);
    const paused2 = await thread2.invoke({ my_key: "value", market: "US" });
    expect(paused2.values).toEqual({ my_key: "value", market: "US" });
    expect(paused2.events.at(-1)?.event).toBe("user_inputs");
    expect(paused2.interrupts ?? []).toEqual([]);
    expect(paused2.next).toEqual(["tool_two_fast"]);
    const resumed2 = await thread2.invoke(null);
    expect(resumed2.error).toBeUndefined();
    expect(resumed2.values).toEqual({ my_key: "value fast", market: "US" });
    expect(resumed2.next).toEqual([]);
    // Thread 3 of the LangGraph test changes the paused state with updateState, which is not
    // ported (§2.4: updateState is out of scope); the checkpoint metadata checks neither.
  });

  // #22, lines 5932–6038
  it("StateGraph branch then node", async () => {
    const State = state({ my_key: state.text({ reducer: "add" }), market: state.value<string>() });
    const invalidBuilder = new StateGraph(State)
      .addNode("prepare", () => ({ my_key: " prepared" }))
      .addNode("tool_two_slow", () => ({ my_key: " slow" }))
      .addNode("tool_two_fast", () => ({ my_key: " fast" }))
      .addNode("finish", () => ({ my_key: " finished" }))
      .addEdge(START, "prepare")
      .addConditionalEdges("prepare", (s) => (s.market === "DE" ? "tool_two_slow" : "tool_two_fast"), ["tool_two_slow", "tool_two_fast"])
      .addEdge("finish", END);
    // finish is not reachable: prepare's path map names only the two tools, which have no edges.
    expect(() => invalidBuilder.compile()).toThrowError(/finish/);

    const tool = new StateGraph(State)
      .addNode("prepare", () => ({ my_key: " prepared" }))
      .addNode("tool_two_slow", () => ({ my_key: " slow" }))
      .addNode("tool_two_fast", () => ({ my_key: " fast" }))
      .addNode("finish", () => ({ my_key: " finished" }))
      .addEdge(START, "prepare")
      .addConditionalEdges("prepare", (s) => (s.market === "DE" ? "tool_two_slow" : "tool_two_fast"))
      .addEdge("tool_two_fast", "finish")
      .addEdge("tool_two_slow", "finish")
      .addEdge("finish", END)
      .compile();
    // LangGraph's getGraph().toJSON() (the drawing) is not ported.

    const de = await thread(tool).invoke({ my_key: "value", market: "DE" });
    expect(de.error).toBeUndefined();
    expect(de.values).toEqual({ my_key: "value prepared slow finished", market: "DE" });
    const fr = await thread(tool).invoke({ my_key: "value", market: "FR" });
    expect(fr.error).toBeUndefined();
    expect(fr.values).toEqual({ my_key: "value prepared fast finished", market: "FR" });
  });

  // #29, lines 12554–12626
  it("multiple writes to the same channel from same node", async () => {
    const joinNonEmpty = reducer<string>("join_non_empty", (a, b) => [a, b].filter(Boolean).join(", "));
    const inputs: unknown[] = [];
    const app = new StateGraph(state({ foo: state.key({ reducer: joinNonEmpty, default: "" }) }))
      .addSequence({
        one: (s) => {
          inputs.push({ one: { ...s } });
          return new Command<{ foo?: string }>({
            update: [
              ["foo", "one.0"],
              ["foo", "one.1"],
            ],
          });
        },
        two: (s) => {
          inputs.push({ two: { ...s } });
          return { foo: "two" };
        },
      })
      .addEdge(START, "one")
      .compile();

    const result = await thread(app).invoke({ foo: "input" });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({ foo: "input, one.0, one.1, two" });
    // LangGraph's tasks stream: each node's input, the state after the step before it.
    expect(inputs).toEqual([{ one: { foo: "input" } }, { two: { foo: "input, one.0, one.1" } }]);
    // Adapted: LangGraph's updates stream shows one's two writes as `{ one: [{ foo: "one.0" }, { foo:
    // "one.1" }] }`; a canvasflow node's outputs hold one value per key, its last write (both
    // writes reached the reducer, in order, as the values show).
    expect(result.updates).toEqual([{ one: { foo: "one.1" } }, { two: { foo: "two" } }]);
  });

  // #31, lines 11755–11779
  it("persist a falsy value", async () => {
    const app = new StateGraph(
      state({
        messages: state.messages(),
        number: state.value<number>(),
        boolean: state.value<boolean>(),
        string: state.value<string>(),
      }),
    )
      .addNode("node", (s) => s)
      .addEdge(START, "node")
      .compile();

    const t = thread(app);
    const result = await t.invoke({ number: 0, boolean: false, string: "" });
    expect(result.error).toBeUndefined();
    expect(result.values).toMatchObject({ number: 0, boolean: false, string: "" });
    // getState() after the run: the thread's saved state, read by a run with no input.
    const again = await t.invoke(null);
    expect(again.values).toMatchObject({ number: 0, boolean: false, string: "" });
  });
});

describe("tests/pregel.test.ts › add sequence", () => {
  const State = state({
    foo: state.key({ reducer: reducer<string[]>("concat_spread", (a, b) => [...a, ...b]), default: [] }),
    bar: state.value<string>(),
  });
  const step1 = () => ({ foo: ["step1"], bar: "baz" });

  // #25, lines 11799–11802
  it("should raise error if less than 1 step", () => {
    expect(() => new StateGraph(State).addSequence([])).toThrow();
  });

  // #25, lines 11804–11810
  it("should raise error if duplicate step names", () => {
    expect(() =>
      new StateGraph(State).addSequence([
        ["foo", step1],
        ["foo", step1],
      ]),
    ).toThrow();
  });

  // #26, lines 11868–11906
  it("should work with mixed nodes and sequences", async () => {
    const a = () => ({ foo: ["a"] });
    const b = () => ({ foo: ["b"] });
    const c = () => ({ foo: ["c"] });
    const d = () => ({ foo: ["d"] });
    const e = () => ({ foo: ["e"] });
    const foo = (s: { foo: string[] }) => (s.foo[0] === "a" ? "d" : "c");

    const app = new StateGraph(State)
      .addSequence({ a, b })
      .addConditionalEdges("b", foo as never)
      .addNode("c", c)
      .addSequence([
        ["d", d],
        ["e", e],
      ])
      .addEdge(START, "a")
      .compile();

    // Adapted: bar, never written, is JSON null here; LangGraph leaves it out of the result.
    const result1 = await thread(app).invoke({ foo: [] });
    expect(result1.error).toBeUndefined();
    expect(result1.values).toEqual({ foo: ["a", "b", "d", "e"], bar: null });

    const result2 = await thread(app).invoke({ foo: ["start"] });
    expect(result2.error).toBeUndefined();
    expect(result2.values).toEqual({ foo: ["start", "a", "b", "c"], bar: null });

    const streamed = await thread(app).invoke({ foo: [] });
    expect(streamed.updates).toEqual([{ a: { foo: ["a"] } }, { b: { foo: ["b"] } }, { d: { foo: ["d"] } }, { e: { foo: ["e"] } }]);
  });
});
