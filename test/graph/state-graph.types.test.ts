/**
 * StateGraph's types: a state key that does not exist, a value of the wrong type for a key, a
 * reducer that does not fit its key's type, and a node name that was never added are TypeScript
 * errors. `tsc --noEmit -p .` checks every `@ts-expect-error` line (an unused one is an error
 * too); vitest checks the expectTypeOf assertions and that the refused calls also fail at run
 * time or at compile().
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { builtin, Command, END, env, reducer, Send, START, state, StateGraph, type StateOf, type UpdateOf } from "../../src/graph/index.js";

const State = state({
  question: state.text(),
  docs: state.list<string>(),
  tries: state.number({ reducer: "add" }),
  verdict: state.value<{ ok: boolean }>(),
});
type S = (typeof State)["keys"];

describe("StateGraph's types", () => {
  it("a node reads the state's keys with their types and returns only its keys", () => {
    expectTypeOf<StateOf<S>>().toEqualTypeOf<{ question: string; docs: string[]; tries: number; verdict: { ok: boolean } }>();
    // An extend key takes a list or one item; an add key a number.
    expectTypeOf<UpdateOf<S>["docs"]>().toEqualTypeOf<string[] | string | import("../../src/graph/state.js").Overwrite | undefined>();
    new StateGraph(State).addNode("ok", (s) => ({ question: s.question.trim(), docs: "one", tries: 1 }));
    // @ts-expect-error a key the state does not have
    new StateGraph(State).addNode("bad", () => ({ answer: "x" }));
    // @ts-expect-error a number where the key holds text
    new StateGraph(State).addNode("bad", () => ({ question: 42 }));
    // @ts-expect-error a key the state does not have, read
    new StateGraph(State).addNode("bad", (s) => ({ question: s.answer }));
    expect(() => new StateGraph(State).addNode("bad", () => ({ answer: "x" }) as never)).not.toThrow();
  });

  it("a reducer must fit its key's type", () => {
    state.key<string[]>({ reducer: "extend" });
    state.key<number>({ reducer: "add" });
    state.key<Record<string, number>>({ reducer: "merge" });
    // @ts-expect-error extend is for lists, not numbers
    expect(() => state.key<number>({ reducer: "extend" })).not.toThrow();
    // @ts-expect-error merge is for objects, not lists
    state.key<string[]>({ reducer: "merge" });
    // @ts-expect-error a reducer that does not exist
    expect(() => state.key<string>({ reducer: "concat" })).toThrow('unknown reducer "concat"');
    // @ts-expect-error state.number takes last or add only
    state.number({ reducer: "extend" });
    const sortedAdd = reducer<string[], string[]>("sorted_add", (a, b) => [...a, ...b].sort());
    expectTypeOf(state.key({ reducer: sortedAdd, default: [] })).toEqualTypeOf<import("../../src/graph/state.js").StateKeySpec<string[], string[]>>();
    // @ts-expect-error a custom reducer of lists for a number key
    state.key<number>({ reducer: sortedAdd });
  });

  it("edges, conditional edges and Commands name nodes that were added", () => {
    const graph = () =>
      new StateGraph(State)
        .addNode("a", () => ({ tries: 1 }))
        .addNode("b", () => new Command({ goto: "a" }))
        .addEdge(START, "a")
        .addEdge("a", "b")
        .addConditionalEdges("b", (s) => (s.tries > 2 ? END : "a"), ["a", END]);
    expect(graph().compile().dsl.components.b.downstream).toEqual(["a", "a__send"]);
    // @ts-expect-error no node "c"
    expect(() => graph().addEdge("a", "c").compile()).toThrow('ends at "c", which is not a node');
    const g = graph();
    // @ts-expect-error no node "c" as a source
    g.addEdge("c", "a");
    // @ts-expect-error a path map naming a node that does not exist
    g.addConditionalEdges("a", () => "x", { x: "missing" });
    // @ts-expect-error a router returning a key its path map does not have
    g.addConditionalEdges("a", () => "y", { x: "b" });
    // @ts-expect-error interruptBefore a node that does not exist
    expect(() => graph().compile({ interruptBefore: ["nope"] })).toThrow('names "nope", which is not a node');
  });

  it("a built-in node takes its component's typed params; a Send names a node of the graph", () => {
    const g = new StateGraph(State)
      .addNode("kb", builtin("Retrieval", { query: env("question"), kb_ids: ["handbook"], top_n: 4 }, { docs: "formalized_content" }))
      .addNode("a", () => new Command({ goto: "kb" }), { ends: ["kb"] })
      .addEdge(START, "a");
    expect(g.compile().dsl.components.kb.obj.component_name).toBe("Retrieval");
    // @ts-expect-error a param Retrieval does not have
    builtin("Retrieval", { top_m: 4 });
    // A Command may go to a node added later (LangGraph's error handlers do): checked when the graph runs.
    // @ts-expect-error a Send to a node the graph lacks
    new StateGraph(State).addNode("a", () => ({})).addConditionalEdges(START, () => [new Send("nowhere", 1)], ["a"]);
  });
});
