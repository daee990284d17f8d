/**
 * StateGraph's own rules beyond the LangGraph conformance suite: subgraphs that end without an
 * edge to END, Command.PARENT, stored canvases made with other code, a process that lacks a
 * function, and the DSL a graph compiles to.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry, loadCanvas, validateDsl } from "../../src/api.js";
import { builtin, Command, END, interrupt, reducer, Send, START, state, StateGraph, when } from "../../src/graph/index.js";
import { thread } from "../conformance/langgraph/harness.js";

const Log = state({ log: state.list<string>() });

describe("StateGraph", () => {
  it("goes on after a subgraph whose last node has no edge to END, once", async () => {
    const child = new StateGraph(Log, { id: "child" })
      .addNode("one", () => ({ log: "child.one" }))
      .addNode("two", () => ({ log: "child.two" }))
      .addEdge(START, "one")
      .addEdge("one", "two")
      .compile();
    const parent = new StateGraph(Log, { id: "parent" })
      .addNode("sub", child)
      .addNode("after", () => ({ log: "after" }))
      .addEdge(START, "sub")
      .addEdge("sub", "after")
      .compile();
    // The parent holds the child's nodes as its own types; the child compiled alone has its own.
    const registry = child.registry();
    parent.register(registry);
    const result = await thread(parent, { registry }).invoke({});
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({ log: ["child.one", "child.two", "after"] });
  });

  it("leaves a subgraph at a Command.PARENT: the child node's own edges are not taken", async () => {
    const child = new StateGraph(Log, { id: "child" })
      .addNode("jump", () => new Command({ update: { log: "jump" }, goto: "landing", graph: Command.PARENT }))
      .addNode("skipped", () => ({ log: "skipped" }))
      .addEdge(START, "jump")
      .addEdge("jump", "skipped")
      .compile();
    const parent = new StateGraph(Log, { id: "parent" })
      .addNode("landing", () => ({ log: "landing" }))
      .addNode("sub", child, { ends: ["landing"] })
      .addEdge(START, "sub")
      .addEdge("landing", END)
      .compile();
    // The parent holds the child's nodes as its own types; the child compiled alone has its own.
    const registry = child.registry();
    parent.register(registry);
    const result = await thread(parent, { registry }).invoke({});
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({ log: ["jump", "landing"] });
  });

  it("compiles to a canvas that validates, each state key a variable with its reducer", () => {
    const g = new StateGraph(state({ question: state.text(), docs: state.list<string>(), tries: state.number({ reducer: "add" }) }), { id: "support" })
      .addNode("search", () => ({ docs: "d", tries: 1 }), { version: 2 })
      .addEdge(START, "search")
      .addEdge("search", END)
      .compile();
    expect(validateDsl(g.dsl, { registry: g.registry() }).valid).toBe(true);
    expect(g.dsl.variables).toEqual({
      question: { name: "question", type: "string", value: "" },
      docs: { name: "docs", type: "array<any>", value: [], reducer: "extend" },
      tries: { name: "tries", type: "number", value: 0, reducer: "add" },
    });
    expect(g.dsl.components.search.obj).toEqual({ component_name: "support_search", params: { version: 2, source_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(Object.keys(g.dsl.components)).toEqual(["begin", "__start__", "search"]);
  });

  it("refuses, before anything runs, a canvas whose function this process has not registered, naming it", async () => {
    const g = new StateGraph(Log, { id: "support" }).addNode("search", () => ({ log: "x" })).addEdge(START, "search").compile();
    const report = validateDsl(g.dsl, { registry: defaultRegistry });
    expect(report.valid).toBe(false);
    expect(report.issues.map((i) => i.message)).toContain('unknown component_name "support_search": no component of that type is registered');
    await expect(loadCanvas(g.dsl)).rejects.toThrow(/support_search/);
  });

  it("warns about a stored canvas made with another version or source of a function, and refuses it when strict", async () => {
    const made = new StateGraph(Log, { id: "support" }).addNode("search", () => ({ log: "v1" }), { version: 1 }).addEdge(START, "search").compile();
    const now = new StateGraph(Log, { id: "support" }).addNode("search", () => ({ log: "v2 changed" }), { version: 2 }).addEdge(START, "search").compile();
    const canvas = await loadCanvas(made.dsl, { registry: now.registry() });
    expect(canvas.warnings.map((w) => w.message)).toEqual([
      'the canvas was made with version 1 of "support_search"; this process registered version 2',
      'the function of "support_search" (node "search") changed since the canvas was made: a paused or stored session runs the new code',
    ]);
    const strict = new StateGraph(Log, { id: "support" }).addNode("search", () => ({ log: "v2 changed" }), { version: 2 }).addEdge(START, "search").compile({ strictVersions: true });
    await expect(loadCanvas(made.dsl, { registry: strict.registry() })).rejects.toThrow(/version 1 of "support_search"/);
  });

  it("sends what a node emits while the node runs (a node_progress event before its node_finished)", async () => {
    let seen!: () => void;
    const reader = new Promise<void>((done) => (seen = done));
    let waitedOut = false;
    const g = new StateGraph(Log)
      .addNode("talk", async (_s, rt) => {
        rt.emit({ step: 1 });
        // Goes on once the reader has the event; were events held back to the batch's end, it would wait out.
        await Promise.race([reader, new Promise((done) => setTimeout(done, 2000)).then(() => (waitedOut = true))]);
        return { log: "done" };
      })
      .addEdge(START, "talk")
      .compile();
    const canvas = await loadCanvas(g.dsl, { registry: g.registry() });
    const names: string[] = [];
    for await (const event of canvas.run({})) {
      names.push(event.event === "node_progress" ? `progress ${event.data.message}` : `${event.event} ${(event.data as { component_id?: string }).component_id ?? ""}`.trim());
      if (event.event === "node_progress") seen();
    }
    expect(waitedOut).toBe(false);
    expect(names.slice(names.indexOf("node_started talk"))).toEqual(["node_started talk", 'progress {"step":1}', "node_finished talk", "workflow_finished"]);
  });

  it("refuses a second graph's types under the same names in one registry", () => {
    const a = new StateGraph(Log).addNode("n", () => ({ log: "a" })).addEdge(START, "n").compile();
    const b = new StateGraph(Log).addNode("n", () => ({ log: "b" })).addEdge(START, "n").compile();
    const registry = a.registry();
    a.register(registry);
    expect(() => b.register(registry)).toThrow(/component "graph__start" is already registered by another graph or an earlier compile: give this graph its own id/);
  });
});

describe("StateGraph: a condition that is data", () => {
  it("compiles when(key, operator, value) to RAGFlow's Switch, which routes on the state after the source's step", async () => {
    const State = state({ score: state.number(), verdict: state.value<{ ok: boolean }>(), log: state.list<string>() });
    const g = new StateGraph(State, { id: "grade" })
      .addNode("grade", (s) => ({ score: s.score + 5, verdict: { ok: s.score + 5 >= 10 } }))
      .addNode("pass", () => ({ log: "pass" }))
      .addNode("retry", () => ({ log: "retry" }))
      .addEdge(START, "grade")
      .addConditionalEdges("grade", when("verdict.ok", "=", true), { true: "pass", false: "retry" })
      .addEdge("retry", "grade")
      .addEdge("pass", END)
      .compile();
    expect(g.dsl.components.grade__switch).toEqual({
      obj: { component_name: "Switch", params: { conditions: [{ logical_operator: "and", items: [{ cpn_id: "env.verdict.ok", operator: "=", value: true }], to: ["pass"] }], end_cpn_ids: ["retry"] } },
      downstream: ["pass", "retry"],
      upstream: ["grade"],
    });
    expect(g.dsl.components.grade.downstream).toEqual(["grade__switch"]);
    const result = await thread(g).invoke({ score: 1 });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual({ score: 11, verdict: { ok: true }, log: ["retry", "pass"] });
    // A Switch is a built-in: the same route is taken without the graph's code (the RAGFlow part of the canvas).
    expect(result.events.filter((e) => e.event === "node_finished" && e.data.component_type === "Switch")).toHaveLength(2);
    // @ts-expect-error a key the state does not have
    expect(() => new StateGraph(State).addConditionalEdges(START, when("nope", "=", 1), { true: END, false: END })).toThrow('"nope" is not a key of the state');
    // @ts-expect-error an operator Switch does not have
    expect(() => when("score", "==", 1)).toThrow('unknown operator "=="');
  });
});

describe("StateGraph: Sends, pauses and joins together (found by review)", () => {
  const Log = state({ log: state.list<string>() });

  it("keeps a payload sent while the target's send map runs: another sender's, and a payload's own Send", async () => {
    const twoSenders = new StateGraph(Log, { id: "two" })
      .addNode("a", () => ({ log: "a" }))
      // A Sent run has the whole runtime (its signal, its key, its model).
      .addNode("x", (p, rt) => ({ log: `x:${String(p as unknown)}${rt.signal.aborted || typeof rt.idempotencyKey !== "string" || typeof rt.chat !== "function" ? "!" : ""}` }))
      .addConditionalEdges(START, () => [new Send("x", "p1"), "a"], ["x", "a"])
      .addConditionalEdges("a", () => [new Send("x", "p2")], ["x"])
      .addEdge("x", END)
      .compile();
    expect((await thread(twoSenders).invoke({})).values).toEqual({ log: ["x:p1", "a", "x:p2"] });
    const recursive = new StateGraph(Log, { id: "rec" })
      .addNode("x", (p) => {
        const n = p as unknown as number;
        return n > 0 ? new Command({ update: { log: `x:${n}` }, goto: new Send("x", n - 1) }) : { log: `x:${n}` };
      }, { ends: ["x"] })
      .addConditionalEdges(START, () => [new Send("x", 2)], ["x"])
      .compile();
    expect((await thread(recursive).invoke({})).values).toEqual({ log: ["x:2", "x:1", "x:0"] });
  });

  it("a waiting edge does not count a source that paused from inside as arrived", async () => {
    const g = new StateGraph(Log, { id: "join" })
      .addNode("a", () => ({ log: "a" }))
      .addNode("b", () => ({ log: `b:${interrupt<string>("approve?")}` }))
      .addNode("c", (s) => ({ log: `c saw ${s.log.join(",")}` }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge(["a", "b"], "c")
      .addEdge("c", END)
      .compile();
    const t = thread(g);
    expect((await t.invoke({})).next).toEqual(["b"]);
    // A run without an answer asks again; then the answer.
    expect((await t.invoke(null)).next).toEqual(["b"]);
    const done = await t.invoke(new Command({ resume: "yes" }));
    expect(done.values).toEqual({ log: ["a", "b:yes", "c saw a,b:yes"] });
  });

  it("refuses interrupt() in a run started by Send, naming the node", async () => {
    const g = new StateGraph(Log, { id: "sendint" })
      .addNode("x", (p) => ({ log: `${String(p as unknown)}:${interrupt<string>("ok?")}` }))
      .addConditionalEdges(START, () => [new Send("x", "alice"), new Send("x", "bob")], ["x"])
      .compile();
    expect((await thread(g).invoke({})).error).toContain('node "x": interrupt() cannot pause a run of a node started by Send');
  });

  it("pauses before and after a node started by Send", async () => {
    const build = (options: { interruptBefore?: ["x"]; interruptAfter?: ["x"] }) =>
      new StateGraph(Log, { id: "bp" })
        .addNode("x", (p) => ({ log: `x:${String(p as unknown)}` }))
        .addNode("y", () => ({ log: "y" }))
        .addConditionalEdges(START, () => [new Send("x", "p1")], ["x"])
        .addEdge("x", "y")
        .compile(options);
    const before = thread(build({ interruptBefore: ["x"] }));
    const paused = await before.invoke({});
    expect(paused.next).toEqual(["x"]);
    expect(paused.values).toEqual({ log: [] });
    expect((await before.invoke(new Command({ resume: undefined }))).values).toEqual({ log: ["x:p1", "y"] });
    const after = thread(build({ interruptAfter: ["x"] }));
    expect((await after.invoke({})).values).toEqual({ log: ["x:p1"] });
    expect((await after.invoke(new Command({ resume: undefined }))).values).toEqual({ log: ["x:p1", "y"] });
  });

  it("gives a text input as the text it is, and takes a resume value in RAGFlow's { value, type } form", async () => {
    const Q = state({ question: state.text(), answer: state.text() });
    const g = new StateGraph(Q, { id: "texts" })
      .addNode("ask", (s) => ({ answer: `${typeof s.question}:${s.question}:${interrupt<string>("?")}` }))
      .addEdge(START, "ask")
      .compile();
    const t = thread(g);
    await t.invoke({ question: "42" });
    const done = await t.invoke(new Command({ resume: { value: "yes", type: "line" } }));
    expect(done.values).toEqual({ question: "42", answer: "string:42:yes" });
  });

  it("names a built-in node's missing output, and refuses state keys holding \"__\"", async () => {
    const Out = state({ out: state.text() });
    const g = new StateGraph(Out, { id: "into" })
      .addNode("say", builtin("Message", { content: ["hi"] }, { out: "contnet" }))
      .addEdge(START, "say")
      .compile();
    expect((await thread(g).invoke({})).error).toContain('builtin Message gave no output "contnet" for the state key "out" (its outputs: content');
    expect(() => state({ sub__secret: state.text() })).toThrow('names holding "__" are the graph\'s own');
  });

  it("routes on a preview that does not let a mutating reducer change the state twice", async () => {
    const pushing = reducer<string[], string>("pushing", (list, item) => {
      list.push(item);
      return list;
    });
    const g = new StateGraph(state({ log: state.key({ reducer: pushing, default: [] }) }), { id: "mut" })
      .addNode("a", () => ({ log: "a" }))
      .addNode("b", () => ({ log: "b" }))
      .addEdge(START, "a")
      .addConditionalEdges("a", () => "b", ["b"])
      .compile();
    expect((await thread(g).invoke({})).values).toEqual({ log: ["a", "b"] });
  });
});
