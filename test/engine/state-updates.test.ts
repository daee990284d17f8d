/**
 * State updates (E1): `InvokeControl.update` writes to declared conversation variables, applied
 * when a batch has settled, in the batch's order, through each variable's reducer. Every
 * component of a batch reads the state as the batch found it.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry, loadCanvas, registerComponent, validateDsl } from "../../src/api.js";
import type { ComponentRegistry } from "../../src/components/registry.js";
import { TextStream } from "../../src/components/text-stream.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import type { StateWrite } from "../../src/contracts/values.js";
import type { CanvasDsl, ComponentEntry } from "../../src/dsl/types.js";
import { Canvas } from "../../src/engine/canvas.js";
import type { RunDelta } from "../../src/engine/checkpoint.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { canvasDsl, errors, finished, node, outputsOf, trace } from "../helpers/dsl.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Writer: waits `ms`, then reads `env.<reads>` (a copy, as it was at that moment) into its `seen`
 * output, notes that it finished, and returns its `writes` as the state update.
 */
function writer(finishedOrder: string[]): ComponentDefinition {
  return {
    name: "Writer",
    async invoke(ctx) {
      await sleep(Number(ctx.params.ms ?? 0));
      if (typeof ctx.params.reads === "string") ctx.setOutput("seen", structuredClone(ctx.get(`env.${ctx.params.reads}`)));
      finishedOrder.push(ctx.id);
      return { update: ctx.params.writes as StateWrite[] };
    },
  };
}

/** Reader: outputs what `env.<reads>` holds when it runs. */
const Reader: ComponentDefinition = {
  name: "Reader",
  invoke(ctx) {
    ctx.setOutput("seen", structuredClone(ctx.get(`env.${String(ctx.params.reads)}`)));
  },
};

/** A registry of the defaults plus Writer and Reader, and what Writer saw finish, in order. */
function setup(): { registry: ComponentRegistry; finishedOrder: string[] } {
  const finishedOrder: string[] = [];
  const registry = defaultRegistry.extend();
  registerComponent(writer(finishedOrder), { registry });
  registerComponent(Reader, { registry });
  return { registry, finishedOrder };
}

/** A canvas with these components and these declared variables (each one also set as env.<name>). */
function stateCanvas(components: Record<string, ComponentEntry>, variables: Record<string, { type: string; value: unknown; reducer?: string }>): CanvasDsl {
  const declared = Object.fromEntries(Object.entries(variables).map(([name, v]) => [name, { name, ...v }]));
  const globals = Object.fromEntries(Object.entries(variables).map(([name, v]) => [`env.${name}`, v.value]));
  return canvasDsl(components, { globals, variables: declared });
}

/** begin → Writer:a, Writer:b, Writer:c (one batch, in that order) → Reader:R. */
function threeWriters(
  writes: Record<"a" | "b" | "c", StateWrite[]>,
  variables: Record<string, { type: string; value: unknown; reducer?: string }>,
  extra: Partial<Record<"a" | "b" | "c", Record<string, unknown>>> = {},
): CanvasDsl {
  const ms = { a: 30, b: 10, c: 0 };
  const writerNode = (k: "a" | "b" | "c") => node("Writer", { ms: ms[k], reads: "log", writes: writes[k], ...extra[k] }, ["Reader:R"]);
  return stateCanvas(
    {
      begin: node("Begin", {}, ["Writer:a", "Writer:b", "Writer:c"]),
      "Writer:a": writerNode("a"),
      "Writer:b": writerNode("b"),
      "Writer:c": writerNode("c"),
      "Reader:R": node("Reader", { reads: "log" }),
    },
    variables,
  );
}

const LOG_EXTEND = { log: { type: "array<string>", value: ["old"], reducer: "extend" } };

const BATCH_TRACE = [
  "workflow_started",
  "node_started:begin",
  "node_finished:begin",
  "node_started:Writer:a",
  "node_started:Writer:b",
  "node_started:Writer:c",
  "node_finished:Writer:a",
  "node_finished:Writer:b",
  "node_finished:Writer:c",
];

describe("state updates of one batch", () => {
  it("reach an extend key in the batch's order, whatever order the components finished in", async () => {
    const { registry, finishedOrder } = setup();
    const canvas = await loadCanvas(threeWriters({ a: [["log", "a"]], b: [["log", "b"]], c: [["log", "c"]] }, LOG_EXTEND), { registry });
    const events = await canvas.runToEnd({ query: "go" });
    expect(trace(events)).toEqual([...BATCH_TRACE, "node_started:Reader:R", "node_finished:Reader:R", "workflow_finished"]);
    // They finished in the reverse order of the batch…
    expect(finishedOrder).toEqual(["Writer:c", "Writer:b", "Writer:a"]);
    // …and the writes still merged in the batch's order.
    expect(canvas.globals["env.log"]).toEqual(["old", "a", "b", "c"]);
    expect(outputsOf(events, "Reader:R").seen).toEqual(["old", "a", "b", "c"]);
  });

  it("are not seen by the batch's own components: each reads the state as the batch found it", async () => {
    const { registry, finishedOrder } = setup();
    const canvas = await loadCanvas(threeWriters({ a: [["log", "a"]], b: [["log", "b"]], c: [["log", "c"]] }, LOG_EXTEND), { registry });
    const events = await canvas.runToEnd({ query: "go" });
    // Writer:a read after Writer:c and Writer:b had finished, and still saw the old value.
    expect(finishedOrder[2]).toBe("Writer:a");
    for (const id of ["Writer:a", "Writer:b", "Writer:c"]) expect(outputsOf(events, id).seen, id).toEqual(["old"]);
    // The next batch sees them.
    expect(outputsOf(events, "Reader:R").seen).toEqual(["old", "a", "b", "c"]);
  });

  it("apply a component's several writes to one key in its own order, between the batch's others", async () => {
    const { registry } = setup();
    const canvas = await loadCanvas(
      threeWriters(
        {
          a: [
            ["log", "a1"],
            ["log", "a2"],
          ],
          b: [],
          c: [["log", ["c1", "c2"]]],
        },
        LOG_EXTEND,
      ),
      { registry },
    );
    finished(await canvas.runToEnd({ query: "go" }));
    expect(canvas.globals["env.log"]).toEqual(["old", "a1", "a2", "c1", "c2"]);
  });

  it("fail the run on two writes to a last-value key, naming the key and the code, and write nothing of the batch", async () => {
    const { registry } = setup();
    const dsl = threeWriters(
      {
        a: [
          ["log", "a"],
          ["x", 1],
        ],
        b: [["x", 2]],
        c: [["log", "c"]],
      },
      { ...LOG_EXTEND, x: { type: "number", value: 0 } },
    );
    const canvas = await loadCanvas(dsl, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    const error = finished(events).error;
    expect(error).toContain('"x"');
    expect(error).toContain("INVALID_CONCURRENT_GRAPH_UPDATE");
    expect(error).toContain("Writer:a");
    expect(error).toContain("Writer:b");
    // The batch ran; its writes did not land (not even those to the extend key); nothing ran after it.
    expect(trace(events).slice(0, -1)).toEqual(BATCH_TRACE);
    expect(canvas.status).toBe("failed");
    expect(canvas.globals["env.x"]).toBe(0);
    expect(canvas.globals["env.log"]).toEqual(["old"]);
  });

  it("take one write to a last-value key (the default reducer) as the new value", async () => {
    const { registry } = setup();
    const dsl = threeWriters({ a: [], b: [["x", 2]], c: [] }, { ...LOG_EXTEND, x: { type: "number", value: 0 } });
    const canvas = await loadCanvas(dsl, { registry });
    finished(await canvas.runToEnd({ query: "go" }));
    expect(canvas.globals["env.x"]).toBe(2);
  });

  it("let an overwrite replace the value whatever the key's reducer, the batch's plain writes ignored", async () => {
    const { registry } = setup();
    const dsl = threeWriters({ a: [["log", "a"]], b: [["log", { __overwrite__: ["z"] }]], c: [["log", "c"]] }, LOG_EXTEND);
    const canvas = await loadCanvas(dsl, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBeUndefined();
    expect(canvas.globals["env.log"]).toEqual(["z"]);
    expect(outputsOf(events, "Reader:R").seen).toEqual(["z"]);
  });

  it("fail the run on two overwrites of one key in a batch", async () => {
    const { registry } = setup();
    const dsl = threeWriters({ a: [["log", { __overwrite__: ["y"] }]], b: [["log", { __overwrite__: ["z"] }]], c: [] }, LOG_EXTEND);
    const canvas = await loadCanvas(dsl, { registry });
    const error = finished(await canvas.runToEnd({ query: "go" })).error;
    expect(error).toContain('"log"');
    expect(error).toContain("INVALID_UPDATE");
    expect(canvas.globals["env.log"]).toEqual(["old"]);
  });

  it("fail the run on a write to an undeclared key, naming the key and the writer", async () => {
    const { registry } = setup();
    const dsl = threeWriters({ a: [["log", "a"]], b: [["nope", 1]], c: [] }, LOG_EXTEND);
    const canvas = await loadCanvas(dsl, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    const error = finished(events).error;
    expect(error).toContain('"nope"');
    expect(error).toContain("Writer:b");
    expect(error).toContain("declared: log");
    expect(trace(events).slice(0, -1)).toEqual(BATCH_TRACE);
    expect(canvas.globals["env.log"]).toEqual(["old"]);
    expect(canvas.globals["env.nope"]).toBeUndefined();
  });

  it("fail the run on a write that is not [key, value]", async () => {
    const { registry } = setup();
    const dsl = threeWriters({ a: [], b: [["log"] as unknown as StateWrite], c: [] }, LOG_EXTEND);
    const canvas = await loadCanvas(dsl, { registry });
    const error = finished(await canvas.runToEnd({ query: "go" })).error;
    expect(error).toContain("Writer:b");
    expect(error).toContain("[key, value]");
  });

  it("fail the run naming the key when its reducer refuses a write", async () => {
    const { registry } = setup();
    const dsl = threeWriters({ a: [], b: [["total", "three"]], c: [] }, { ...LOG_EXTEND, total: { type: "number", value: 1, reducer: "add" } });
    const canvas = await loadCanvas(dsl, { registry });
    const error = finished(await canvas.runToEnd({ query: "go" })).error;
    expect(error).toContain('"total"');
    expect(error).toContain("INVALID_UPDATE");
    expect(canvas.globals["env.total"]).toBe(1);
  });
});

describe("a registered reducer", () => {
  const maxOf = (current: unknown, update: unknown) => Math.max(typeof current === "number" ? current : -Infinity, Number(update));

  it("merges the writes of a variable that names it", async () => {
    const { registry } = setup();
    registry.registerReducer("maxOf", maxOf);
    const dsl = threeWriters({ a: [["best", 3]], b: [["best", 7]], c: [["best", 5]] }, { ...LOG_EXTEND, best: { type: "number", value: 4, reducer: "maxOf" } });
    const canvas = await loadCanvas(dsl, { registry });
    finished(await canvas.runToEnd({ query: "go" }));
    expect(canvas.globals["env.best"]).toBe(7);
  });

  it("is looked up per registry: a registry without it refuses the canvas", async () => {
    const { registry } = setup();
    const dsl = threeWriters({ a: [], b: [], c: [] }, { ...LOG_EXTEND, best: { type: "number", value: 4, reducer: "maxOf" } });
    await expect(loadCanvas(dsl, { registry })).rejects.toThrow(/unknown reducer "maxOf"/);
    const withIt = registry.extend();
    withIt.registerReducer("maxOf", maxOf);
    expect(errors(validateDsl(dsl, { registry: withIt }).issues)).toEqual([]);
  });

  it("cannot take a built-in's name", () => {
    expect(() => defaultRegistry.extend().registerReducer("extend", maxOf)).toThrow(/built in/);
  });
});

describe("validateDsl", () => {
  const components = { begin: node("Begin", {}, []) };

  it("reports an unknown reducer with its pointer (variables as an object)", () => {
    const dsl = stateCanvas(components, { log: { type: "array<string>", value: [], reducer: "nope" } });
    const found = errors(validateDsl(dsl).issues);
    expect(found).toEqual([expect.objectContaining({ code: "unknown-reducer", pointer: "/variables/log/reducer" })]);
    expect(found[0].message).toContain('"nope"');
  });

  it("reports an unknown reducer with its pointer (variables as a list)", () => {
    const dsl = canvasDsl(components, {
      variables: [
        { name: "a", type: "number", value: 0, reducer: "add" },
        { name: "b", type: "number", value: 0, reducer: "nope" },
      ],
    } as Partial<CanvasDsl>);
    const found = errors(validateDsl(dsl).issues);
    expect(found).toEqual([expect.objectContaining({ code: "unknown-reducer", pointer: "/variables/1/reducer" })]);
  });

  it("accepts every built-in reducer and none at all", () => {
    const variables = Object.fromEntries(
      ["last", "add", "append", "extend", "merge", "messages", "union", undefined].map((reducer, i) => [`v${i}`, { type: "string", value: "", ...(reducer ? { reducer } : {}) }]),
    );
    expect(errors(validateDsl(stateCanvas(components, variables)).issues)).toEqual([]);
  });
});

/** Deltas as a store keeps them: JSON, read back. */
const asStored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("a durable run", () => {
  async function recordRun(registry: ComponentRegistry, dsl: CanvasDsl) {
    const canvas = await loadCanvas(dsl, { registry });
    const base = canvas.toJSON();
    const deltas: RunDelta[] = [];
    const snapshots: CanvasDsl[] = [];
    const events: CanvasEvent[] = [];
    for await (const event of canvas.run({
      query: "go",
      checkpoint: (delta) => {
        deltas.push(asStored(delta));
        snapshots.push(asStored(canvas.toJSON()));
      },
    })) {
      events.push(event);
    }
    return { canvas, base, deltas, snapshots, events };
  }

  it("restores the state its updates wrote exactly from its checkpoints, at every checkpoint, and goes on from any of them to the same end", async () => {
    const { registry } = setup();
    const dsl = threeWriters(
      { a: [["log", "a"]], b: [["log", ["b"]], ["n", 2]], c: [["log", "c"], ["n", 3], ["doc", { k: "c" }]] },
      { ...LOG_EXTEND, n: { type: "number", value: 1, reducer: "add" }, doc: { type: "object", value: { k: "old", keep: true }, reducer: "merge" } },
    );
    const recorded = await recordRun(registry, dsl);
    expect(finished(recorded.events).error).toBeUndefined();
    const end = { log: ["old", "a", "b", "c"], n: 6, doc: { k: "c", keep: true } };
    expect(recorded.canvas.globals).toMatchObject({ "env.log": end.log, "env.n": end.n, "env.doc": end.doc });
    expect(recorded.deltas.length).toBeGreaterThanOrEqual(3);

    for (let k = 1; k <= recorded.deltas.length; k++) {
      const restored = Canvas.fromCheckpoints(recorded.base, recorded.deltas.slice(0, k), registry);
      expect(asStored(restored.toJSON()), `at checkpoint ${k}`).toEqual(recorded.snapshots[k - 1]);
      if (restored.status === "running") {
        finished(await restored.runToEnd({}));
        // The writes already checkpointed are not applied twice.
        expect(restored.globals, `continued from checkpoint ${k}`).toMatchObject({ "env.log": end.log, "env.n": end.n, "env.doc": end.doc });
      }
    }
    const last = Canvas.fromCheckpoints(recorded.base, recorded.deltas, registry);
    expect(last.globals).toMatchObject({ "env.log": end.log, "env.n": end.n, "env.doc": end.doc });
  });
});

describe("a failed component's update", () => {
  it("is not applied when the component timed out (its error handled, the run going on)", async () => {
    const { registry } = setup();
    const dsl = threeWriters({ a: [["log", "a"]], b: [["log", "b"]], c: [["log", "c"]] }, LOG_EXTEND, {
      a: { exec_timeout: 0.005, exception_method: "comment", exception_default_value: "late" },
    });
    const canvas = await loadCanvas(dsl, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBeUndefined();
    expect(trace(events).find((t) => t.startsWith("node_finished:Writer:a"))).toMatch(/^node_finished:Writer:a!/);
    expect(canvas.globals["env.log"]).toEqual(["old", "b", "c"]);
    // Writer:a's late answer does not land after the run either.
    await sleep(40);
    expect(canvas.globals["env.log"]).toEqual(["old", "b", "c"]);
  });

  it("is applied once when a retry succeeds", async () => {
    const attempts = new Map<string, number>();
    const Flaky: ComponentDefinition = {
      name: "Flaky",
      invoke(ctx) {
        const n = (attempts.get(ctx.id) ?? 0) + 1;
        attempts.set(ctx.id, n);
        if (n === 1) throw new Error("first attempt fails");
        return { update: [["log", `try ${n}`]] };
      },
    };
    const { registry } = setup();
    registerComponent(Flaky, { registry });
    const dsl = stateCanvas({ begin: node("Begin", {}, ["Flaky:F"]), "Flaky:F": node("Flaky", { max_retries: 2, delay_after_error: 0 }) }, LOG_EXTEND);
    const canvas = await loadCanvas(dsl, { registry });
    finished(await canvas.runToEnd({ query: "go" }));
    expect(attempts.get("Flaky:F")).toBe(2);
    expect(canvas.globals["env.log"]).toEqual(["old", "try 2"]);
  });

  it("is not applied when a message sink's stream fails (its error handled, the run going on)", async () => {
    const Shout: ComponentDefinition = {
      name: "Shout",
      capabilities: { emitsMessages: true },
      invoke(ctx) {
        ctx.setOutput(
          "content",
          new TextStream(
            (async function* () {
              yield "part";
              await sleep(1);
              throw new Error("the stream broke");
            })(),
          ),
        );
        return { update: [["log", "shouted"]] };
      },
    };
    const { registry } = setup();
    registerComponent(Shout, { registry });
    const dsl = stateCanvas(
      {
        begin: node("Begin", {}, ["Shout:S"]),
        "Shout:S": node("Shout", { exception_method: "comment", exception_default_value: "sorry" }, ["Reader:R"]),
        "Reader:R": node("Reader", { reads: "log" }),
      },
      LOG_EXTEND,
    );
    const canvas = await loadCanvas(dsl, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBeUndefined();
    expect(trace(events)).toContain("node_finished:Shout:S!the stream broke");
    expect(canvas.globals["env.log"]).toEqual(["old"]);
    expect(outputsOf(events, "Reader:R").seen).toEqual(["old"]);
  });
});
