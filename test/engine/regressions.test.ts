/**
 * Regression tests for bugs found in the core while its unit tests were written (each one was
 * fixed): a body node reading its container's start node, an ExitLoop sibling re-entering the
 * loop, sparse lists from path writes, prototype lookups in globals, `__proto__` variables,
 * selectors with spaces, exits through nested containers, and path errors naming the reference.
 */
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { compileGraph, type CanvasGraph } from "../../src/engine/graph.js";
import { planExtension, selectBatch } from "../../src/engine/plan.js";
import { builtinRegistry } from "../../src/components/builtins.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import { PathWriteError, UnsafePathError, setByPath } from "../../src/pool/path.js";
import { VariablePool } from "../../src/pool/pool.js";
import { freshSessionGlobals, normalizeDeclarations } from "../../src/pool/variables.js";
import { parseSelector } from "../../src/refs/grammar.js";
import { caught } from "../helpers/caught.js";
import { finished, node } from "../helpers/dsl.js";
import { capabilityRegistry } from "../helpers/registry.js";
import { FRONTIER_POLICY } from "../../src/engine/frontier.js";

const messages = (events: CanvasEvent[]) => events.filter((e) => e.event === "message").map((e) => (e.data as { content: string }).content);

describe("bug 1: a body node that reads its container's start node deadlocks with it", () => {
  // IterationItem → [A, X]; X reads A and the IterationItem. After A loops back, the frontier is
  // [X, item]: X waits for item (a dependency), item waits for X (container start rule), so the
  // cycle fallback ran both at once.
  const dsl: CanvasDsl = {
    components: {
      begin: node("Begin", {}, ["iter"]),
      iter: node("Iteration", { items_ref: "env.items" }),
      item: node("IterationItem", {}, ["A", "X"], { parent_id: "iter" }),
      A: node("Message", { content: ["a"], stream: false }, [], { parent_id: "iter" }),
      X: node("Message", { content: ["{A@content}|{item@item}"], stream: false }, [], { parent_id: "iter" }),
    },
    globals: {},
    variables: { items: { name: "items", type: "array<string>", value: ["p", "q"] } },
  };

  it("selectBatch runs the body node first and keeps the start node waiting", () => {
    const graph = compileGraph(dsl, builtinRegistry(), FRONTIER_POLICY);
    expect(selectBatch(["X", "item"], graph)).toEqual({ ready: ["X"], deferred: ["item"] });
  });

  it("the iteration renders each item once and ends", async () => {
    const canvas = await loadCanvas(dsl, { maxSteps: 100 });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["a", "a|p", "a", "a|q"]);
  });
});

describe("bug 2: a sibling of ExitLoop in the same batch re-enters the exited Loop", () => {
  // LoopItem → [Exit, M]: both run in one batch. Exit's result drops the Loop's body from the
  // frontier, then M's result (processed after it) loops back to LoopItem, whose round counter
  // was just reset: the Loop starts over, forever.
  const dsl: CanvasDsl = {
    components: {
      begin: node("Begin", {}, ["loop"]),
      loop: node("Loop", { maximum_loop_count: 3 }, ["Final"]),
      loopItem: node("LoopItem", {}, ["Exit", "M"], { parent_id: "loop" }),
      Exit: node("ExitLoop", {}, [], { parent_id: "loop" }),
      M: node("Message", { content: ["round {loopItem@index}"], stream: false }, [], { parent_id: "loop" }),
      Final: node("Message", { content: ["final"], stream: false }),
    },
    globals: {},
  };

  it("the loop runs one round and continues after it once", async () => {
    const canvas = await loadCanvas(dsl, { maxSteps: 100 });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["round 0", "final"]);
  });
});

describe("bug 3: setByPath with an index past the end of a list makes a sparse list", () => {
  it("does not create holes", () => {
    let result: unknown[];
    try {
      result = setByPath([], ["3"], "x") as unknown[];
    } catch {
      return; // refusing the write is a fine answer
    }
    // Today it is [ <3 empty items>, "x" ].
    expect(Object.keys(result).length).toBe(result.length);
  });

  it("does not make a list whose JSON cannot be built", () => {
    let result: unknown;
    try {
      result = setByPath({ list: [] }, ["list", "1000000000"], 1);
    } catch {
      return; // refusing the write is a fine answer
    }
    expect(() => JSON.stringify(result)).not.toThrow();
  });
});

describe("bug 4: freshSessionGlobals looks declarations up through the prototype and lets '__proto__' set it", () => {
  it("treats an undeclared env key the same whatever its name", () => {
    const stored = { "env.toString": "v", "env.constructor": "v", "env.other": "v" };
    const globals = freshSessionGlobals(stored, {}, { now: new Date(0) });
    expect(globals["env.toString"]).toEqual(globals["env.other"]);
    expect(globals["env.constructor"]).toEqual(globals["env.other"]);
  });

  it("does not let a stored '__proto__' key change the prototype of the globals", () => {
    const globals = freshSessionGlobals(JSON.parse('{"__proto__": {"injected": 1}}'), {}, { now: new Date(0) });
    expect(Object.getPrototypeOf(globals)).toBe(Object.prototype);
    expect((globals as { injected?: unknown }).injected).toBeUndefined();
  });
});

describe("bug 5: a conversation variable named '__proto__' disappears", () => {
  // The front-end allows ^[a-zA-Z_0-9]+$, which includes "__proto__".
  it("is kept as a declaration and gets its default (or is rejected with a clear error)", () => {
    const declarations = normalizeDeclarations([{ name: "__proto__", type: "number", value: 3 }]);
    expect(Object.getPrototypeOf(declarations)).toBe(Object.prototype);
    expect(freshSessionGlobals(undefined, declarations, { now: new Date(0) })["env.__proto__"]).toBe(3);
  });
});

describe("bug 6: parseSelector accepts global keys holding spaces or braces", () => {
  it("rejects them as it rejects component variables with spaces", () => {
    expect(parseSelector("cpn@var with words")).toBeNull(); // consistent today
    expect(parseSelector("sys.query with words")).toBeNull();
    expect(parseSelector("env.a}b")).toBeNull();
  });
});

describe("bug 7: an exit through an intermediate container does not report it finished", () => {
  const graph: CanvasGraph = compileGraph(
    {
      components: {
        begin: node("Start", {}, ["box"]),
        box: node("Box", {}, ["after"]),
        boxStart: node("BoxStart", {}, ["bag"], { parent_id: "box" }),
        bag: node("Bag", {}, [], { parent_id: "box" }),
        bagStart: node("BagStart", {}, ["leave"], { parent_id: "bag" }),
        leave: node("Leave", {}, [], { parent_id: "bag" }),
        after: node("Start", {}),
      },
    },
    capabilityRegistry(),
    FRONTIER_POLICY,
  );

  it("lists every container it leaves, innermost first", () => {
    const extension = planExtension(graph.nodes.get("leave")!, {}, graph);
    expect(extension).toEqual({ append: ["after"], finished: ["bag", "box"], exited: "box" });
  });
});

describe("bug 8: write errors name only the rest of the path, not the whole path or the reference", () => {
  it("setByPath names the whole path", () => {
    const past = caught(() => setByPath({ l: ["a", "b"] }, ["l", "3"], "x"));
    expect(past).toBeInstanceOf(PathWriteError);
    expect(past.message).toBe('path "l.3": index 3 is outside the list (length 2)');
    const unsafe = caught(() => setByPath({ a: {} }, ["a", "__proto__", "x"], 1));
    expect(unsafe).toBeInstanceOf(UnsafePathError);
    expect(unsafe.message).toBe('path "a.__proto__.x" uses the forbidden key "__proto__"');
  });

  it("a pool write names the reference it wrote through", () => {
    const pool = new VariablePool((id) => id === "cpn", {});
    pool.setOutput("cpn", "v", { l: ["a", "b"] });
    const error = caught(() => pool.set({ kind: "component", expr: "cpn@v.l.3", componentId: "cpn", variable: "v", path: ["l", "3"] }, 1));
    expect(error.message).toContain("cpn@v.l.3");
  });
});

// ---- found in code review ----

describe("review: run() never throws and never stays locked", () => {
  it("an unusable signal ends the run with an error event, and the canvas can run again", async () => {
    const canvas = await loadCanvas({ components: { begin: node("Begin", {}, []) }, globals: {} });
    const events: CanvasEvent[] = [];
    for await (const e of canvas.run({ signal: {} as AbortSignal })) events.push(e);
    expect(events.at(-1)).toMatchObject({ event: "workflow_finished", data: { error: expect.stringMatching(/^internal error: /) } });
    const again: CanvasEvent[] = [];
    for await (const e of canvas.run({})) again.push(e);
    expect(again.at(-1)).toMatchObject({ event: "workflow_finished" });
    expect((again.at(-1)!.data as { error?: string }).error).toBeUndefined();
  });

  it("rejects a concurrency that is not a positive integer at load", async () => {
    await expect(loadCanvas({ components: { begin: node("Begin", {}, []) } }, { concurrency: Number.NaN })).rejects.toThrow(/concurrency/);
  });
});

describe("review: a retry after a timeout gets a fresh signal", () => {
  it("the second attempt is not born aborted", async () => {
    let attempts = 0;
    const registry = builtinRegistry();
    registry.register({
      name: "Flaky",
      invoke(ctx) {
        attempts++;
        const aborted = ctx.signal.aborted;
        if (attempts === 1) return new Promise<void>(() => undefined); // hangs until its timeout
        ctx.setOutput("result", aborted ? "born aborted" : "fresh");
      },
    });
    const canvas = await loadCanvas(
      { components: { begin: node("Begin", {}, ["Flaky:1"]), "Flaky:1": node("Flaky", { exec_timeout: 0.03, max_retries: 1, delay_after_error: 0.001 }) } },
      { registry },
    );
    const events = await canvas.runToEnd({});
    expect(finished(events).error).toBeUndefined();
    expect(canvas.outputs("Flaky:1")).toEqual({ result: "fresh" });
  });
});

describe("review: a pauser waits for what its tips read before it pauses", () => {
  it("tips show the value of a component that was still pending", async () => {
    const registry = builtinRegistry();
    registry.register({
      name: "Later",
      async invoke(ctx) {
        await new Promise((r) => setTimeout(r, 5));
        ctx.setOutput("result", "ready");
      },
    });
    const canvas = await loadCanvas(
      {
        components: {
          begin: node("Begin", {}, ["Later:A", "UserFillUp:Ask"]),
          "Later:A": node("Later", {}),
          "UserFillUp:Ask": node("UserFillUp", { tips: "got {Later:A@result}", inputs: { x: { name: "x", type: "line" } } }),
        },
      },
      { registry },
    );
    const events = await canvas.runToEnd({});
    expect(events.at(-1)).toMatchObject({ event: "user_inputs", data: { tips: "got ready" } });
  });
});

describe("review: text shown before a pause reaches the history", () => {
  it("the assistant entry holds the messages of both halves of the turn, across a snapshot", async () => {
    const canvas = await loadCanvas({
      components: {
        begin: node("Begin", {}, ["Message:Before"]),
        "Message:Before": node("Message", { content: ["Before pause"] }, ["UserFillUp:Ask"]),
        "UserFillUp:Ask": node("UserFillUp", { inputs: { name: { name: "n", type: "line" } } }, ["Message:After"]),
        "Message:After": node("Message", { content: ["Hi {UserFillUp:Ask@name}"] }),
      },
    });
    await canvas.runToEnd({ query: "hello" });
    const resumed = await loadCanvas(JSON.parse(JSON.stringify(canvas)));
    await resumed.runToEnd({ inputs: { name: "Ada" } });
    expect(resumed.history).toEqual([
      ["user", "hello"],
      ["assistant", "Before pause\n\nPlease fill up the form\n\nHi Ada"],
    ]);
  });
});

describe("review: a snapshot with a forbidden output key is a validation error", () => {
  it("reports it instead of throwing from deep inside", async () => {
    const snapshot = {
      components: { begin: node("Begin", {}, []) },
      globals: {},
      canvasflow: JSON.parse('{"version":1,"status":"idle","outputs":{"begin":{"__proto__":{"x":1}}},"component_state":{},"open_containers":{},"steps":0}'),
    };
    await expect(loadCanvas(snapshot)).rejects.toThrow(/invalid canvas/);
  });
});

describe("review: an ExitLoop nested in an Iteration inside a Loop", () => {
  it("validates and leaves both containers", async () => {
    const canvas = await loadCanvas({
      components: {
        begin: node("Begin", {}, ["Loop:L"]),
        "Loop:L": node("Loop", { maximum_loop_count: 5 }, ["Message:Done"]),
        "LoopItem:S": node("LoopItem", {}, ["Iteration:I"], { parent_id: "Loop:L" }),
        "Iteration:I": node("Iteration", { items_ref: "env.items" }, [], { parent_id: "Loop:L" }),
        "IterationItem:S": node("IterationItem", {}, ["ExitLoop:X"], { parent_id: "Iteration:I" }),
        "ExitLoop:X": node("ExitLoop", {}, [], { parent_id: "Iteration:I" }),
        "Message:Done": node("Message", { content: ["out"] }),
      },
      globals: {},
      variables: { items: { name: "items", type: "array<string>", value: ["a", "b"] } },
    });
    const events = await canvas.runToEnd({});
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["out"]);
    const finishedIds = events.filter((e) => e.event === "node_finished").map((e) => (e.data as { component_id: string }).component_id);
    expect(finishedIds.slice(-4)).toEqual(["ExitLoop:X", "Iteration:I", "Loop:L", "Message:Done"]);
  });
});
