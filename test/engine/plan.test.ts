import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileGraph, type CanvasGraph } from "../../src/engine/graph.js";
import { appendUnique, nextAfter, planExtension, selectBatch, withoutDescendants, type Extension } from "../../src/engine/plan.js";
import { builtinRegistry } from "../../src/components/builtins.js";
import type { CanvasDsl, ComponentEntry } from "../../src/dsl/types.js";
import { capabilityRegistry } from "../helpers/registry.js";
import { FRONTIER_POLICY } from "../../src/engine/frontier.js";

interface Spec {
  type: string;
  down?: string[];
  parent?: string;
  params?: Record<string, unknown>;
}

/** Build and compile a canvas from `{id: {type, down, parent, params}}`; "begin" is added when absent. */
function graphOf(specs: Record<string, Spec>, registry = capabilityRegistry()): CanvasGraph {
  const all: Record<string, Spec> = { begin: { type: registry.has("Start") ? "Start" : "Begin" }, ...specs };
  const components: Record<string, ComponentEntry> = {};
  for (const [id, spec] of Object.entries(all)) {
    components[id] = {
      obj: { component_name: spec.type, params: spec.params ?? {} },
      downstream: spec.down ?? [],
      upstream: [],
      ...(spec.parent ? { parent_id: spec.parent } : {}),
    };
  }
  const dsl: CanvasDsl = { components };
  return compileGraph(dsl, registry, FRONTIER_POLICY);
}

const node = (graph: CanvasGraph, id: string) => {
  const found = graph.nodes.get(id);
  if (!found) throw new Error(`test setup: no node ${id}`);
  return found;
};

const plan = (graph: CanvasGraph, id: string, outcome: Parameters<typeof planExtension>[1] = {}): Extension =>
  planExtension(node(graph, id), outcome, graph);

// ---- selectBatch ----

describe("selectBatch", () => {
  it("runs a single component or an empty frontier as is", () => {
    const graph = graphOf({ a: { type: "Plain" } });
    expect(selectBatch([], graph)).toEqual({ ready: [], deferred: [] });
    expect(selectBatch(["a"], graph)).toEqual({ ready: ["a"], deferred: [] });
  });

  it("runs independent components together, in frontier order", () => {
    const graph = graphOf({ a: { type: "Plain" }, b: { type: "Plain" }, c: { type: "Plain" } });
    expect(selectBatch(["c", "a", "b"], graph)).toEqual({ ready: ["c", "a", "b"], deferred: [] });
  });

  it("defers a component while a component it references is in the frontier", () => {
    const graph = graphOf({
      a: { type: "Plain" },
      b: { type: "Plain", params: { text: "uses {a@out}" } },
    });
    expect(node(graph, "b").dependencies).toEqual(["a"]);
    expect(selectBatch(["b", "a"], graph)).toEqual({ ready: ["a"], deferred: ["b"] });
    expect(selectBatch(["a", "b"], graph)).toEqual({ ready: ["a"], deferred: ["b"] });
  });

  it("does not defer for references to components outside the frontier, to itself, or to globals", () => {
    const graph = graphOf({
      a: { type: "Plain" },
      b: { type: "Plain", params: { text: "{a@x} {b@own} {sys.query} {env.n}" } },
      c: { type: "Plain" },
    });
    expect(node(graph, "b").dependencies).toEqual(["a"]);
    expect(selectBatch(["b", "c"], graph)).toEqual({ ready: ["b", "c"], deferred: [] });
  });

  it("defers along a chain of references: only the head runs", () => {
    const graph = graphOf({
      a: { type: "Plain" },
      b: { type: "Plain", params: { text: "{a@x}" } },
      c: { type: "Plain", params: { text: "{b@x}" } },
      d: { type: "Plain" },
    });
    expect(selectBatch(["c", "b", "a", "d"], graph)).toEqual({ ready: ["a", "d"], deferred: ["c", "b"] });
  });

  it("finds references in nested params but not in form definitions", () => {
    const graph = graphOf({
      a: { type: "Plain" },
      b: { type: "Plain", params: { deep: { list: [{ prompt: "{{a@x}}" }] } } },
      c: { type: "Plain", params: { inputs: { f: { value: "{a@x}" } }, outputs: { o: { value: "{a@x}" } } } },
    });
    expect(selectBatch(["a", "b", "c"], graph)).toEqual({ ready: ["a", "c"], deferred: ["b"] });
  });

  it("runs the first in path order when every component waits (a reference cycle must not stall the run)", () => {
    const graph = graphOf({
      a: { type: "Plain", params: { text: "{b@x}" } },
      b: { type: "Plain", params: { text: "{a@x}" } },
    });
    expect(selectBatch(["a", "b"], graph)).toEqual({ ready: ["a"], deferred: ["b"] });
    expect(selectBatch(["b", "a"], graph)).toEqual({ ready: ["b"], deferred: ["a"] });
  });

  it("lets the rest run when only part of the frontier is in a cycle", () => {
    const graph = graphOf({
      a: { type: "Plain", params: { text: "{b@x}" } },
      b: { type: "Plain", params: { text: "{a@x}" } },
      c: { type: "Plain" },
    });
    expect(selectBatch(["a", "b", "c"], graph)).toEqual({ ready: ["c"], deferred: ["a", "b"] });
  });

  it("treats ids missing from the graph as ready", () => {
    const graph = graphOf({ a: { type: "Plain" } });
    expect(selectBatch(["ghost", "a"], graph)).toEqual({ ready: ["ghost", "a"], deferred: [] });
  });

  describe("container start nodes", () => {
    const graph = graphOf({
      box: { type: "Box", down: ["after"] },
      start: { type: "BoxStart", parent: "box", down: ["x", "y"] },
      x: { type: "Plain", parent: "box" },
      y: { type: "Plain", parent: "box", down: ["inner"] },
      inner: { type: "Bag", parent: "box" },
      innerStart: { type: "BagStart", parent: "inner", down: ["deep"] },
      deep: { type: "Plain", parent: "inner" },
      after: { type: "Plain" },
      other: { type: "Plain" },
    });

    it("waits while another body node of its container is pending", () => {
      expect(selectBatch(["start", "x"], graph)).toEqual({ ready: ["x"], deferred: ["start"] });
    });

    it("waits for body nodes of nested containers too", () => {
      expect(selectBatch(["start", "deep"], graph)).toEqual({ ready: ["deep"], deferred: ["start"] });
    });

    it("does not wait for components outside its container", () => {
      expect(selectBatch(["start", "other", "after"], graph)).toEqual({ ready: ["start", "other", "after"], deferred: [] });
    });

    it("a body node does not wait for the start of a container it sits in (that start is the next round)", () => {
      const reading = graphOf({
        box: { type: "Box" },
        start: { type: "BoxStart", parent: "box", down: ["x"] },
        x: { type: "Plain", parent: "box", params: { text: "{start@item}" } },
        inner: { type: "Bag", parent: "box" },
        innerStart: { type: "BagStart", parent: "inner", down: ["deep"] },
        deep: { type: "Plain", parent: "inner", params: { text: "{start@item} {innerStart@item}" } },
        other: { type: "Bag" },
        otherStart: { type: "BagStart", parent: "other" },
        outside: { type: "Plain", params: { text: "{start@item}" } },
        sibling: { type: "Plain", parent: "other", params: { text: "{start@item}" } },
      });
      expect(node(reading, "x").dependencies).toEqual(["start"]);
      expect(node(reading, "x").waitsFor).toEqual([]);
      expect(node(reading, "deep").waitsFor).toEqual([]);
      expect(selectBatch(["x", "start"], reading)).toEqual({ ready: ["x"], deferred: ["start"] });
      expect(selectBatch(["deep", "start"], reading)).toEqual({ ready: ["deep"], deferred: ["start"] });
      // Outside the container, the start node is an ordinary dependency.
      expect(node(reading, "outside").waitsFor).toEqual(["start"]);
      expect(selectBatch(["outside", "start"], reading)).toEqual({ ready: ["start"], deferred: ["outside"] });
      expect(selectBatch(["sibling", "start"], reading)).toEqual({ ready: ["start"], deferred: ["sibling"] });
    });

    it("an inner start waits only for its own container's body", () => {
      expect(selectBatch(["innerStart", "x"], graph)).toEqual({ ready: ["innerStart", "x"], deferred: [] });
      expect(selectBatch(["innerStart", "deep"], graph)).toEqual({ ready: ["deep"], deferred: ["innerStart"] });
    });
  });
});

// ---- planExtension ----

describe("planExtension", () => {
  const graph = graphOf({
    a: { type: "Plain", down: ["b", "c", "b", "ghost"] },
    b: { type: "Plain" },
    c: { type: "Plain" },
    router: { type: "Pick", down: ["b", "c"] },
    box: { type: "Box", down: ["after"] },
    start: { type: "BoxStart", parent: "box", down: ["body"] },
    body: { type: "Plain", parent: "box", down: ["exit"] },
    last: { type: "Plain", parent: "box" },
    exit: { type: "Leave", parent: "box" },
    after: { type: "Plain" },
    emptyBox: { type: "Box", down: ["after"] },
    outer: { type: "Bag" },
    outerStart: { type: "BagStart", parent: "outer", down: ["nested"] },
    nested: { type: "Box", parent: "outer" },
    nestedStart: { type: "BoxStart", parent: "nested", down: ["nestedExit"] },
    nestedExit: { type: "Leave", parent: "nested" },
    bag: { type: "Bag" },
    bagStart: { type: "BagStart", parent: "bag", down: ["bagLeave"] },
    bagLeave: { type: "Leave", parent: "bag", down: ["b"] },
    looseLeave: { type: "Leave", down: ["c"] },
  });

  it("rule 6: continues downstream (duplicates and unknown ids dropped)", () => {
    // Unknown ids are dropped once, when the graph is compiled, not at every step.
    expect(node(graph, "a").downstream).toEqual(["b", "c"]);
    expect(plan(graph, "a")).toEqual({ append: ["b", "c"], finished: [] });
    expect(plan(graph, "b")).toEqual({ append: [], finished: [] });
  });

  it("rule 6: a body node without downstream loops back to its container's start", () => {
    expect(plan(graph, "last")).toEqual({ append: ["start"], finished: [] });
    expect(plan(graph, "body")).toEqual({ append: ["exit"], finished: [] });
  });

  it("rule 1: a handled error with goto continues at the known targets, before any other rule", () => {
    expect(plan(graph, "a", { goto: ["c", "ghost"] })).toEqual({ append: ["c"], finished: [] });
    expect(plan(graph, "router", { goto: ["b"], control: { next: ["c"] } })).toEqual({ append: ["b"], finished: [] });
    expect(plan(graph, "start", { goto: ["after"], control: { done: true } })).toEqual({ append: ["after"], finished: [] });
    expect(plan(graph, "box", { goto: ["c"] })).toEqual({ append: ["c"], finished: [] });
  });

  it("rule 1: an empty goto list falls through to the other rules", () => {
    expect(plan(graph, "a", { goto: [] })).toEqual({ append: ["b", "c"], finished: [] });
  });

  it("rule 2: a container start reporting done finishes its container and continues after it", () => {
    expect(plan(graph, "start", { control: { done: true } })).toEqual({ append: ["after"], finished: ["box"] });
  });

  it("rule 2: a finished inner container without downstream loops back to the outer start", () => {
    expect(plan(graph, "nestedStart", { control: { done: true } })).toEqual({ append: ["outerStart"], finished: ["nested"] });
  });

  it("a container start that is not done continues into the body and begins a round", () => {
    expect(plan(graph, "start", { control: { done: false } })).toEqual({ append: ["body"], finished: [], round: "box" });
    expect(plan(graph, "start", {})).toEqual({ append: ["body"], finished: [], round: "box" });
  });

  it("rule 3: a router continues at the ids it chose, unknown ids dropped", () => {
    expect(plan(graph, "router", { control: { next: ["c", "ghost", "b"] } })).toEqual({ append: ["c", "b"], finished: [] });
  });

  it("rule 3: a router that chose nothing ends its branch (no fallback to downstream)", () => {
    expect(plan(graph, "router", { control: {} })).toEqual({ append: [], finished: [] });
    expect(plan(graph, "router", {})).toEqual({ append: [], finished: [] });
  });

  it("rule 4: a container continues at its start node and reports that it started", () => {
    expect(plan(graph, "box")).toEqual({ append: ["start"], finished: [], started: "box" });
  });

  it("rule 4: a container without a start child still reports that it started", () => {
    expect(plan(graph, "emptyBox")).toEqual({ append: [], finished: [], started: "emptyBox" });
  });

  it("rule 5: an exit node finishes the nearest exitable container and continues after it", () => {
    expect(plan(graph, "exit")).toEqual({ append: ["after"], finished: ["box"], exited: "box" });
  });

  it("rule 5: an exit node in a nested container exits the innermost exitable one", () => {
    expect(plan(graph, "nestedExit")).toEqual({ append: ["outerStart"], finished: ["nested"], exited: "nested" });
  });

  it("rule 5: an exit node reports every container it leaves, innermost first", () => {
    const deep = graphOf({
      box: { type: "Box", down: ["after"] },
      boxStart: { type: "BoxStart", parent: "box", down: ["bag"] },
      bag: { type: "Bag", parent: "box" },
      bagStart: { type: "BagStart", parent: "bag", down: ["inner"] },
      inner: { type: "Bag", parent: "bag" },
      innerStart: { type: "BagStart", parent: "inner", down: ["leave"] },
      leave: { type: "Leave", parent: "inner" },
      after: { type: "Plain" },
    });
    expect(plan(deep, "leave")).toEqual({ append: ["after"], finished: ["inner", "bag", "box"], exited: "box" });
  });

  it("rule 5: an exit node without an exitable container behaves like any component", () => {
    expect(plan(graph, "bagLeave")).toEqual({ append: ["b"], finished: [] });
    expect(plan(graph, "looseLeave")).toEqual({ append: ["c"], finished: [] });
  });

  it("nextAfter: downstream first, then the container start, else nothing", () => {
    expect(nextAfter(node(graph, "a"), graph)).toEqual(["b", "c"]);
    expect(nextAfter(node(graph, "last"), graph)).toEqual(["start"]);
    expect(nextAfter(node(graph, "c"), graph)).toEqual([]);
  });
});

describe("planExtension with the built-in Iteration and Loop", () => {
  const graph = graphOf(
    {
      iter: { type: "Iteration", down: ["msg"], params: { items_ref: "begin@list" } },
      item: { type: "IterationItem", parent: "iter", down: ["child"] },
      child: { type: "Message", parent: "iter", params: { content: ["{item}"] } },
      loop: { type: "Loop", down: ["msg"] },
      loopItem: { type: "LoopItem", parent: "loop", down: ["exitLoop"] },
      exitLoop: { type: "ExitLoop", parent: "loop" },
      msg: { type: "Message", params: { content: ["done"] } },
    },
    builtinRegistry(),
  );

  it("enters and leaves an Iteration", () => {
    expect(plan(graph, "iter")).toEqual({ append: ["item"], finished: [], started: "iter" });
    expect(plan(graph, "item", { control: { done: false } })).toEqual({ append: ["child"], finished: [], round: "iter" });
    expect(plan(graph, "child")).toEqual({ append: ["item"], finished: [] });
    expect(plan(graph, "item", { control: { done: true } })).toEqual({ append: ["msg"], finished: ["iter"] });
  });

  it("gives direct children of an Iteration the IterationItem as alias target", () => {
    expect(node(graph, "child").aliasTarget).toBe("item");
    expect(node(graph, "child").dependencies).toEqual([]);
    expect(node(graph, "exitLoop").aliasTarget).toBeUndefined();
  });

  it("leaves a Loop through ExitLoop", () => {
    expect(plan(graph, "loop")).toEqual({ append: ["loopItem"], finished: [], started: "loop" });
    expect(plan(graph, "exitLoop")).toEqual({ append: ["msg"], finished: ["loop"], exited: "loop" });
  });

  it("an IterationItem waits while its Iteration's body is pending", () => {
    expect(selectBatch(["item", "child"], graph)).toEqual({ ready: ["child"], deferred: ["item"] });
  });
});

// ---- appendUnique and withoutDescendants ----

describe("appendUnique", () => {
  it("appends new ids in order and skips ids already present", () => {
    const frontier = ["a"];
    const members = new Set(frontier);
    appendUnique(frontier, members, ["b", "a", "c", "b"]);
    expect(frontier).toEqual(["a", "b", "c"]);
    expect([...members]).toEqual(["a", "b", "c"]);
  });

  it("property: the result has no duplicates and keeps first occurrences in order", () => {
    const id = fc.constantFrom("a", "b", "c", "d", "e", "f");
    fc.assert(
      fc.property(fc.uniqueArray(id), fc.array(fc.array(id, { maxLength: 6 }), { maxLength: 5 }), (start, batches) => {
        const frontier = [...start];
        const members = new Set(frontier);
        for (const ids of batches) appendUnique(frontier, members, ids);
        const all = [...start, ...batches.flat()];
        const firstOccurrences = all.filter((x, i) => all.indexOf(x) === i);
        expect(frontier).toEqual(firstOccurrences);
        expect(new Set(frontier).size).toBe(frontier.length);
        expect(members).toEqual(new Set(frontier));
      }),
    );
  });
});

describe("withoutDescendants", () => {
  const graph = graphOf({
    box: { type: "Box", down: ["after"] },
    start: { type: "BoxStart", parent: "box", down: ["x"] },
    x: { type: "Plain", parent: "box" },
    inner: { type: "Bag", parent: "box" },
    innerStart: { type: "BagStart", parent: "inner", down: ["deep"] },
    deep: { type: "Plain", parent: "inner" },
    after: { type: "Plain" },
  });

  it("drops every node inside the container, at any depth, and keeps the rest in order", () => {
    expect(withoutDescendants(["after", "x", "deep", "start", "box", "ghost"], "box", graph)).toEqual(["after", "box", "ghost"]);
  });

  it("drops only the inner container's body when the inner one is exited", () => {
    expect(withoutDescendants(["x", "deep", "innerStart", "inner"], "inner", graph)).toEqual(["x", "inner"]);
  });

  it("does not modify its input", () => {
    const frontier = ["x", "after"];
    withoutDescendants(frontier, "box", graph);
    expect(frontier).toEqual(["x", "after"]);
  });
});
