/**
 * Checkpoints (issue 9): a base snapshot plus the deltas written since gives exactly the session
 * an uninterrupted run had at that point, and a run continued from any checkpoint ends as the
 * uninterrupted run did. Deltas carry what changed, so their size does not grow with the run.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtinRegistry } from "../../src/components/builtins.js";
import { Canvas } from "../../src/engine/canvas.js";
import { loadCanvas } from "../../src/api.js";
import type { CanvasDsl, ComponentEntry } from "../../src/dsl/types.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { mergeDeltaParts, type RunDelta } from "../../src/engine/checkpoint.js";
import { canvasWithEnv, finished, messages, node } from "../helpers/dsl.js";

interface Recorded {
  base: CanvasDsl;
  deltas: RunDelta[];
  /** canvas.toJSON() at each checkpoint. */
  snapshots: CanvasDsl[];
  events: CanvasEvent[];
  /** How many events had been emitted at each checkpoint. */
  eventsAt: number[];
}

/** Deltas as a store would keep them: JSON, read back. */
const asStored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

async function recordRun(dsl: CanvasDsl, query = "go"): Promise<Recorded> {
  const canvas = await loadCanvas(dsl, { maxSteps: 5000 });
  const base = canvas.toJSON();
  const deltas: RunDelta[] = [];
  const snapshots: CanvasDsl[] = [];
  const events: CanvasEvent[] = [];
  const eventsAt: number[] = [];
  for await (const event of canvas.run({
    query,
    checkpoint: (delta) => {
      deltas.push(asStored(delta));
      snapshots.push(canvas.toJSON());
      eventsAt.push(events.length);
    },
  })) {
    events.push(event);
  }
  return { base, deltas, snapshots, events, eventsAt };
}

/** What a session is, leaving out what differs between two processes by design. */
function comparable(snapshot: CanvasDsl): unknown {
  return asStored(snapshot);
}

const restore = (recorded: Recorded, upTo: number) => Canvas.fromCheckpoints(recorded.base, recorded.deltas.slice(0, upTo), builtinRegistry(), { maxSteps: 5000 });

/** A canvas built from a list of steps: a chain, with a Loop and an Iteration on the way. */
function generatedCanvas(steps: Array<{ kind: "count" | "append" | "text"; value: number }>, rounds: number, items: string[]): CanvasDsl {
  const components: Record<string, ComponentEntry> = { begin: node("Begin", {}, ["Loop:L"]) };
  const body = steps.map((_, i) => `Body:${i}`);
  components["Loop:L"] = node(
    "Loop",
    {
      loop_variables: [
        { variable: "total", input_mode: "constant", type: "number", value: 0 },
        { variable: "seen", input_mode: "constant", type: "array<number>", value: [] },
      ],
      loop_termination_condition: [],
      maximum_loop_count: rounds,
    },
    ["Iteration:I"],
  );
  components["LoopItem:L"] = node("LoopItem", {}, body.length > 0 ? [body[0]] : [], { parent_id: "Loop:L" });
  steps.forEach((step, i) => {
    const next = i + 1 < body.length ? [body[i + 1]] : [];
    const id = body[i];
    if (step.kind === "count") components[id] = node("VariableAssigner", { variables: [{ variable: "Loop:L@total", operator: "+=", parameter: step.value }] }, next, { parent_id: "Loop:L" });
    else if (step.kind === "append") components[id] = node("VariableAssigner", { variables: [{ variable: "env.log", operator: "append", parameter: "LoopItem:L@index" }] }, next, { parent_id: "Loop:L" });
    else components[id] = node("StringTransform", { method: "merge", script: `t${step.value}-{LoopItem:L@index}-{Loop:L@total}` }, next, { parent_id: "Loop:L" });
  });
  components["Iteration:I"] = node("Iteration", { items_ref: "env.items", outputs: { upper: { ref: "StringTransform:U@result", type: "Array<string>" } } }, ["Message:End"]);
  components["IterationItem:I"] = node("IterationItem", {}, ["StringTransform:U"], { parent_id: "Iteration:I" });
  components["StringTransform:U"] = node("StringTransform", { method: "merge", script: "<{item}:{index}>" }, [], { parent_id: "Iteration:I" });
  components["Message:End"] = node("Message", { content: ["total={Loop:L@total} log={env.log} upper={Iteration:I@upper}"] });
  return canvasWithEnv(components, { log: [], items });
}

describe("replaying checkpoints", () => {
  it("gives, at every checkpoint of a fixture run, the session the run had then", async () => {
    for (const fixture of ["fixtures/loop-iteration-switch.json", "fixtures/variables.json", "fixtures/iteration.json"]) {
      const recorded = await recordRun(JSON.parse((await import("node:fs")).readFileSync(fixture, "utf8")) as CanvasDsl);
      expect(finished(recorded.events).error, fixture).toBeUndefined();
      expect(recorded.deltas.length, fixture).toBeGreaterThan(3);
      for (let k = 1; k <= recorded.deltas.length; k++) {
        expect(comparable(restore(recorded, k).toJSON()), `${fixture} at checkpoint ${k}`).toEqual(comparable(recorded.snapshots[k - 1]));
      }
    }
  });

  it("counts each component's executions in the turn, in the snapshot and in a replay", async () => {
    const recorded = await recordRun(generatedCanvas([{ kind: "count", value: 2 }], 3, ["a", "b"]));
    expect(finished(recorded.events).error).toBeUndefined();
    const executions = (recorded.snapshots.at(-1)!.canvasflow as { executions?: Record<string, number> }).executions;
    // The loop's body ran once per round, the iteration's once per item, the rest once.
    expect(executions).toMatchObject({ begin: 1, "Loop:L": 1, "Body:0": 3, "StringTransform:U": 2, "Message:End": 1 });
    const replayed = restore(recorded, recorded.deltas.length).toJSON().canvasflow as { executions?: Record<string, number> };
    expect(replayed.executions).toEqual(executions);
  });

  it("property: random canvases, every cut point: replay equals the live session, and continuing ends as the uninterrupted run", async () => {
    const step = fc.record({ kind: fc.constantFrom("count" as const, "append" as const, "text" as const), value: fc.integer({ min: 1, max: 9 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 6 }), fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }), fc.nat(), async (steps, rounds, items, pick) => {
        const dsl = generatedCanvas(steps, rounds, items);
        const recorded = await recordRun(dsl);
        expect(finished(recorded.events).error).toBeUndefined();
        const k = 1 + (pick % recorded.deltas.length);
        const restored = restore(recorded, k);
        expect(comparable(restored.toJSON())).toEqual(comparable(recorded.snapshots[k - 1]));
        if (restored.status === "running") {
          const rest = await restored.runToEnd({});
          expect(rest[0].event).toBe("workflow_resumed");
          expect(finished(rest).error).toBeUndefined();
          // What was shown before the cut, then what the continuation showed: the whole run's messages.
          expect([...messages(recorded.events.slice(0, recorded.eventsAt[k - 1])), ...messages(rest)]).toEqual(messages(recorded.events));
          expect(restored.globals["env.log"]).toEqual(recorded.snapshots.at(-1)!.globals!["env.log"]);
        }
      }),
      { seed: 9_2026, numRuns: 40 },
    );
  });
});

describe("merging consecutive checkpoints (async mode writes what queued up as one)", () => {
  it("property: applying a merged group equals applying its members in order", async () => {
    const recorded = await recordRun(generatedCanvas([{ kind: "count", value: 3 }, { kind: "append", value: 0 }, { kind: "text", value: 1 }], 4, ["x", "y"]));
    const total = recorded.deltas.length;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 40 }), (sizes) => {
        const merged: RunDelta[] = [];
        let at = 0;
        for (const size of sizes) {
          if (at >= total) break;
          const group = recorded.deltas.slice(at, at + size);
          at += group.length;
          const { ops: _ops, ...first } = group[0];
          const rest = group.slice(1).reduce<Omit<RunDelta, "ops">>((m, d) => {
            const { ops: _o, ...parts } = d;
            return mergeDeltaParts(m, parts);
          }, first);
          merged.push(asStored({ ops: group.flatMap((d) => d.ops), ...rest }));
        }
        const upTo = at;
        const viaMerged = Canvas.fromCheckpoints(recorded.base, merged, builtinRegistry(), { maxSteps: 5000 }).toJSON();
        expect(comparable(viaMerged)).toEqual(comparable(recorded.snapshots[upTo - 1]));
      }),
      { seed: 77, numRuns: 60 },
    );
  });
});

describe("a run continued after its process died", () => {
  const dsl = generatedCanvas([{ kind: "count", value: 2 }, { kind: "append", value: 0 }], 5, ["a", "b"]);

  it("announces what was in flight, keeps the message id, and does not run again what had finished", async () => {
    const recorded = await recordRun(dsl);
    const cut = 6;
    const restored = restore(recorded, cut);
    expect(restored.status).toBe("running");
    const rest = await restored.runToEnd({ query: "ignored: the turn goes on" });
    const resumed = rest[0];
    expect(resumed.event).toBe("workflow_resumed");
    expect(resumed.message_id).toBe(recorded.events[0].message_id);
    const firstRun = recorded.events.filter((e) => e.event === "node_started").map((e) => e.event === "node_started" && e.data.component_id);
    const secondRun = rest.filter((e) => e.event === "node_started").map((e) => e.event === "node_started" && e.data.component_id);
    // A checkpoint follows a whole batch: the continuation starts every step the first run had not
    // finished by then, beginning with those that were next (in flight, had the process died there).
    const inFlight = resumed.event === "workflow_resumed" ? resumed.data.in_flight : [];
    expect(inFlight.length).toBeGreaterThan(0);
    expect(secondRun.slice(0, inFlight.length)).toEqual(inFlight);
    const total = recorded.events.filter((e) => e.event === "node_started").length;
    const startedBeforeCut = recorded.snapshots[cut - 1].canvasflow!.steps;
    expect(secondRun.length).toBe(total - startedBeforeCut);
    expect(firstRun.length).toBe(total);
    expect(finished(rest).outputs).toEqual(finished(recorded.events).outputs);
    expect(restored.globals["sys.conversation_turns"]).toBe(1);
  });
});

describe("delta size", () => {
  it("does not grow with the run: a loop's 10th and 2000th checkpoints are the same size", async () => {
    const rounds = 2000;
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["Loop:L"]),
        "Loop:L": node("Loop", {
          loop_variables: [
            { variable: "n", input_mode: "constant", type: "number", value: 0 },
            { variable: "items", input_mode: "constant", type: "array<number>", value: [] },
          ],
          loop_termination_condition: [],
          maximum_loop_count: rounds,
        }),
        "LoopItem:L": node("LoopItem", {}, ["VariableAssigner:A"], { parent_id: "Loop:L" }),
        "VariableAssigner:A": node("VariableAssigner", {
          variables: [
            { variable: "Loop:L@n", operator: "+=", parameter: 1 },
            { variable: "Loop:L@items", operator: "append", parameter: "LoopItem:L@index" },
          ],
        }, [], { parent_id: "Loop:L" }),
      },
      {},
    );
    const canvas = await loadCanvas(dsl, { maxSteps: 3 * rounds + 10 });
    const sizes: number[] = [];
    await canvas.runToEnd({ query: "go", checkpoint: (delta) => void sizes.push(JSON.stringify(delta).length) });
    // Two checkpoints a round (LoopItem, then the assigner); compare the same kind of step.
    const early = sizes[20] + sizes[21];
    const late = sizes[2 * (rounds - 10)] + sizes[2 * (rounds - 10) + 1];
    expect(late / early).toBeLessThan(1.2);
  });
});
