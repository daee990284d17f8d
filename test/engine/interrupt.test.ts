/**
 * Pausing from inside a component (E2): `ctx.interrupt(value)` pauses the run after its batch
 * with `user_inputs.interrupts`; `run({ inputs: { resume } })` runs the component again from its
 * start, its k-th interrupt() returning the k-th resume value.
 */
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { defaultRegistry, loadCanvas, registerComponent } from "../../src/api.js";
import type { ComponentRegistry } from "../../src/components/registry.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import { Canvas } from "../../src/engine/canvas.js";
import type { RunDelta } from "../../src/engine/checkpoint.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { canvasDsl, finished, lastEvent, messageText, node, outputsOf, trace } from "../helpers/dsl.js";
import { readRunState, RunStateError } from "../../src/engine/state.js";
import { difyApp, edge, finished as difyFinished, type NodeSpec } from "../helpers/dify.js";

const Ajv2020 = Ajv2020Module.default;
const schema = (name: string) => JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), "utf8")) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
ajv.addSchema(schema("run-state.schema.json"));
const validateEvent = ajv.compile(schema("event.schema.json"));
const validateSnapshot = ajv.compile(schema("canvas.schema.json"));

/** How often each component was invoked. */
type Calls = Map<string, number>;

function count(calls: Calls, id: string): void {
  calls.set(id, (calls.get(id) ?? 0) + 1);
}

/** Ask: interrupts with its `question` param, outputs the answer. */
function ask(calls: Calls): ComponentDefinition {
  return {
    name: "Ask",
    invoke(ctx) {
      count(calls, ctx.id);
      ctx.setOutput("answer", ctx.interrupt!(ctx.params.question ?? "ok?"));
    },
  };
}

/** AskTwice: two interrupts in a row (the second after a wait), outputs both answers. */
function askTwice(calls: Calls): ComponentDefinition {
  return {
    name: "AskTwice",
    async invoke(ctx) {
      count(calls, ctx.id);
      const first = ctx.interrupt!("first?");
      await new Promise((resolve) => setTimeout(resolve, 1));
      const second = ctx.interrupt!({ after: first });
      ctx.setOutput("answer", [first, second]);
    },
  };
}

/** Count: counts its invocations and outputs how often it ran. */
function counter(calls: Calls): ComponentDefinition {
  return {
    name: "Count",
    invoke(ctx) {
      count(calls, ctx.id);
      ctx.setOutput("result", calls.get(ctx.id));
    },
  };
}

function setup(): { registry: ComponentRegistry; calls: Calls } {
  const calls: Calls = new Map();
  const registry = defaultRegistry.extend();
  for (const def of [ask(calls), askTwice(calls), counter(calls)]) registerComponent(def, { registry });
  return { registry, calls };
}

/** begin → Ask:A → Message:M (shows the answer). */
const ASK_ONCE = canvasDsl({
  begin: node("Begin", {}, ["Ask:A"]),
  "Ask:A": node("Ask", { question: "Proceed?" }, ["Message:M"]),
  "Message:M": node("Message", { content: ["answer: {Ask:A@answer}"] }),
});

const RESUME_FIELD = { resume: { name: "resume", type: "object", optional: false, value: null } };

const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function userInputs(events: readonly CanvasEvent[]) {
  const last = lastEvent(events);
  if (last.event !== "user_inputs") throw new Error(`the run ended with ${last.event}, not user_inputs`);
  return last.data;
}

describe("a component that interrupts once", () => {
  it("pauses the run after its batch with user_inputs showing the interrupt", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    // It started and did not finish: it runs again on resume.
    expect(trace(events)).toEqual(["workflow_started", "node_started:begin", "node_finished:begin", "node_started:Ask:A", "user_inputs"]);
    const interrupts = [{ id: "Ask:A:0", component_id: "Ask:A", value: "Proceed?" }];
    expect(userInputs(events)).toEqual({ inputs: RESUME_FIELD, tips: "", interrupts });
    expect(canvas.status).toBe("paused");
    expect(canvas.pending).toEqual({ components: ["Ask:A"], inputs: RESUME_FIELD, tips: "", interrupts });
    expect(canvas.toJSON().path).toEqual(["Ask:A"]);
    expect(calls.get("Ask:A")).toBe(1);
  });

  it("runs again from its start on resume, and its interrupt() returns the resume value", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    await canvas.runToEnd({ query: "go" });
    const events = await canvas.runToEnd({ inputs: { resume: "yes" } });
    expect(trace(events)).toEqual([
      "node_started:Ask:A",
      "node_finished:Ask:A",
      "node_started:Message:M",
      "message:answer: ",
      "message:yes",
      "message_end",
      "node_finished:Message:M",
      "workflow_finished",
    ]);
    expect(outputsOf(events, "Ask:A")).toEqual({ answer: "yes" });
    expect(finished(events).error).toBeUndefined();
    expect(canvas.status).toBe("idle");
    expect(canvas.pending).toBeUndefined();
    expect(calls.get("Ask:A")).toBe(2);
    // The resume value belonged to that execution: nothing of it is kept.
    expect(canvas.toJSON().canvasflow?.component_state).toEqual({});
  });

  it("asks afresh in the next turn", async () => {
    const { registry } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    await canvas.runToEnd({ query: "one" });
    expect(messageText(await canvas.runToEnd({ inputs: { resume: "yes" } }))).toBe("answer: yes");
    const next = await canvas.runToEnd({ query: "two" });
    expect(userInputs(next).interrupts).toEqual([{ id: "Ask:A:0", component_id: "Ask:A", value: "Proceed?" }]);
    expect(messageText(await canvas.runToEnd({ inputs: { resume: "no" } }))).toBe("answer: no");
  });

  it("stays paused on a run without a resume value, showing the same interrupt", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    await canvas.runToEnd({ query: "go" });
    const again = await canvas.runToEnd({ inputs: {} });
    expect(trace(again)).toEqual(["node_started:Ask:A", "user_inputs"]);
    expect(userInputs(again).interrupts).toEqual([{ id: "Ask:A:0", component_id: "Ask:A", value: "Proceed?" }]);
    expect(calls.get("Ask:A")).toBe(2);
    expect(messageText(await canvas.runToEnd({ inputs: { resume: "later" } }))).toBe("answer: later");
  });

  it("takes an object resume value that is not keyed by interrupt ids whole", async () => {
    const { registry } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    await canvas.runToEnd({ query: "go" });
    const events = await canvas.runToEnd({ inputs: { resume: { approved: true } } });
    expect(outputsOf(events, "Ask:A")).toEqual({ answer: { approved: true } });
  });

  it("is not retried: an interrupt is a pause, not an error", async () => {
    const { registry, calls } = setup();
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Ask:A"]),
      "Ask:A": node("Ask", { question: "Proceed?", max_retries: 3, delay_after_error: 0 }),
    });
    const canvas = await loadCanvas(dsl, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    expect(trace(events)).toEqual(["workflow_started", "node_started:begin", "node_finished:begin", "node_started:Ask:A", "user_inputs"]);
    expect(calls.get("Ask:A")).toBe(1);
    const resumed = await canvas.runToEnd({ inputs: { resume: "yes" } });
    expect(outputsOf(resumed, "Ask:A")).toEqual({ answer: "yes" });
    expect(nodeRetries(resumed, "Ask:A")).toBeUndefined();
    expect(calls.get("Ask:A")).toBe(2);
  });
});

function nodeRetries(events: readonly CanvasEvent[], id: string): unknown {
  const event = events.find((e) => e.event === "node_finished" && e.data.component_id === id);
  if (event?.event !== "node_finished") throw new Error(`${id} did not finish`);
  return event.data.retries;
}

describe("a component that runs again in the turn", () => {
  it("asks afresh in each execution: a Loop's rounds each pause for their own value", async () => {
    const { registry, calls } = setup();
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Loop:L"]),
      "Loop:L": node("Loop", { loop_variables: [], loop_termination_condition: [], maximum_loop_count: 2 }, ["Message:M"]),
      "LoopItem:L": node("LoopItem", {}, ["Ask:A"], { parent_id: "Loop:L" }),
      "Ask:A": node("Ask", { question: "round?" }, ["Count:C"], { parent_id: "Loop:L" }),
      "Count:C": node("Count", {}, [], { parent_id: "Loop:L" }),
      "Message:M": node("Message", { content: ["last: {Ask:A@answer}"] }),
    });
    const canvas = await loadCanvas(dsl, { registry });
    expect(userInputs(await canvas.runToEnd({ query: "go" })).interrupts).toEqual([{ id: "Ask:A:0", component_id: "Ask:A", value: "round?" }]);
    const round2 = await canvas.runToEnd({ inputs: { resume: "r1" } });
    expect(trace(round2)).toEqual([
      "node_started:Ask:A",
      "node_finished:Ask:A",
      "node_started:Count:C",
      "node_finished:Count:C",
      "node_started:LoopItem:L",
      "node_finished:LoopItem:L",
      "node_started:Ask:A",
      "user_inputs",
    ]);
    expect(outputsOf(round2, "Ask:A")).toEqual({ answer: "r1" });
    expect(userInputs(round2).interrupts).toEqual([{ id: "Ask:A:0", component_id: "Ask:A", value: "round?" }]);
    const done = await canvas.runToEnd({ inputs: { resume: "r2" } });
    expect(messageText(done)).toBe("last: r2");
    expect(Object.fromEntries(calls)).toEqual({ "Ask:A": 4, "Count:C": 2 });
    expect(canvas.toJSON().canvasflow?.component_state).toEqual({});
  });
});

describe("two interrupts in one component", () => {
  const dsl = canvasDsl({
    begin: node("Begin", {}, ["AskTwice:T"]),
    "AskTwice:T": node("AskTwice", {}),
  });

  it("need two resumes; the k-th interrupt() returns the k-th value", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(dsl, { registry });
    expect(userInputs(await canvas.runToEnd({ query: "go" })).interrupts).toEqual([{ id: "AskTwice:T:0", component_id: "AskTwice:T", value: "first?" }]);

    const second = await canvas.runToEnd({ inputs: { resume: "one" } });
    expect(trace(second)).toEqual(["node_started:AskTwice:T", "user_inputs"]);
    // The second interrupt shows what the first returned.
    expect(userInputs(second).interrupts).toEqual([{ id: "AskTwice:T:1", component_id: "AskTwice:T", value: { after: "one" } }]);
    expect(canvas.status).toBe("paused");

    const done = await canvas.runToEnd({ inputs: { resume: "two" } });
    expect(trace(done)).toEqual(["node_started:AskTwice:T", "node_finished:AskTwice:T", "workflow_finished"]);
    expect(outputsOf(done, "AskTwice:T")).toEqual({ answer: ["one", "two"] });
    expect(finished(done).outputs).toEqual({ answer: ["one", "two"] });
    expect(calls.get("AskTwice:T")).toBe(3);
    expect(canvas.toJSON().canvasflow?.component_state).toEqual({});
  });

  it("take their values by interrupt id", async () => {
    const { registry } = setup();
    const canvas = await loadCanvas(dsl, { registry });
    await canvas.runToEnd({ query: "go" });
    await canvas.runToEnd({ inputs: { resume: { "AskTwice:T:0": "one" } } });
    const done = await canvas.runToEnd({ inputs: { resume: { "AskTwice:T:1": "two" } } });
    expect(outputsOf(done, "AskTwice:T")).toEqual({ answer: ["one", "two"] });
  });
});

describe("interrupts in a batch", () => {
  const dsl = canvasDsl({
    begin: node("Begin", {}, ["Ask:A", "Ask:B", "Count:C"]),
    "Ask:A": node("Ask", { question: "A?" }, ["Count:After"]),
    "Ask:B": node("Ask", { question: "B?" }),
    "Count:C": node("Count", {}, ["Count:D"]),
    "Count:D": node("Count", {}),
    "Count:After": node("Count", {}),
  });

  it("pause the run once, after the whole batch, showing every interrupt; a sibling that finished is not run again", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(dsl, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    expect(trace(events)).toEqual([
      "workflow_started",
      "node_started:begin",
      "node_finished:begin",
      "node_started:Ask:A",
      "node_started:Ask:B",
      "node_started:Count:C",
      "node_finished:Count:C",
      "user_inputs",
    ]);
    expect(userInputs(events).interrupts).toEqual([
      { id: "Ask:A:0", component_id: "Ask:A", value: "A?" },
      { id: "Ask:B:0", component_id: "Ask:B", value: "B?" },
    ]);
    expect(canvas.pending?.components).toEqual(["Ask:A", "Ask:B"]);

    const resumed = await canvas.runToEnd({ inputs: { resume: { "Ask:A:0": "a", "Ask:B:0": "b" } } });
    expect(finished(resumed).error).toBeUndefined();
    expect(outputsOf(resumed, "Ask:A")).toEqual({ answer: "a" });
    expect(outputsOf(resumed, "Ask:B")).toEqual({ answer: "b" });
    expect(trace(resumed).filter((t) => t.startsWith("node_started"))).not.toContain("node_started:Count:C");
    expect(Object.fromEntries(calls)).toEqual({ "Ask:A": 2, "Ask:B": 2, "Count:C": 1, "Count:D": 1, "Count:After": 1 });
  });

  it("resumed with a plain value: it goes to the first interrupt listed, the other pauses again", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(dsl, { registry });
    await canvas.runToEnd({ query: "go" });
    const partly = await canvas.runToEnd({ inputs: { resume: "a" } });
    expect(outputsOf(partly, "Ask:A")).toEqual({ answer: "a" });
    expect(userInputs(partly).interrupts).toEqual([{ id: "Ask:B:0", component_id: "Ask:B", value: "B?" }]);
    const done = await canvas.runToEnd({ inputs: { resume: "b" } });
    expect(outputsOf(done, "Ask:B")).toEqual({ answer: "b" });
    expect(Object.fromEntries(calls)).toEqual({ "Ask:A": 2, "Ask:B": 3, "Count:C": 1, "Count:D": 1, "Count:After": 1 });
  });

  it("resumed by id for one of them only: the other pauses again", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(dsl, { registry });
    await canvas.runToEnd({ query: "go" });
    const partly = await canvas.runToEnd({ inputs: { resume: { "Ask:B:0": "b" } } });
    expect(userInputs(partly).interrupts).toEqual([{ id: "Ask:A:0", component_id: "Ask:A", value: "A?" }]);
    expect(outputsOf(partly, "Ask:B")).toEqual({ answer: "b" });
    const done = await canvas.runToEnd({ inputs: { resume: "a" } });
    expect(outputsOf(done, "Ask:A")).toEqual({ answer: "a" });
    expect(trace(done).filter((t) => t.startsWith("node_started"))).toEqual(["node_started:Ask:A", "node_started:Count:After"]);
    expect(Object.fromEntries(calls)).toEqual({ "Ask:A": 3, "Ask:B": 2, "Count:C": 1, "Count:D": 1, "Count:After": 1 });
  });
});

describe("state updates in a batch that an interrupt paused", () => {
  it("land once: the finished components' when the batch pauses, the interrupted one's when it finishes after resume", async () => {
    const { registry, calls } = setup();
    registerComponent(
      {
        name: "Note",
        invoke(ctx) {
          count(calls, ctx.id);
          const answer = ctx.params.ask ? ctx.interrupt!("note?") : ctx.params.text;
          return { update: [["log", answer]] };
        },
      },
      { registry },
    );
    const dsl = canvasDsl(
      {
        begin: node("Begin", {}, ["Note:A", "Note:B"]),
        "Note:A": node("Note", { ask: true }),
        "Note:B": node("Note", { text: "b" }),
      },
      { globals: { "env.log": [] }, variables: { log: { name: "log", type: "array<string>", value: [], reducer: "extend" } } },
    );
    const canvas = await loadCanvas(dsl, { registry });
    await canvas.runToEnd({ query: "go" });
    expect(canvas.status).toBe("paused");
    expect(canvas.globals["env.log"]).toEqual(["b"]);
    const events = await canvas.runToEnd({ inputs: { resume: "a" } });
    expect(finished(events).error).toBeUndefined();
    expect(canvas.globals["env.log"]).toEqual(["b", "a"]);
    expect(Object.fromEntries(calls)).toEqual({ "Note:A": 2, "Note:B": 1 });
  });
});

describe("a paused run's snapshot", () => {
  it("reloaded in a new canvas resumes the same way", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    const first = await canvas.runToEnd({ query: "go" });
    const snapshot = asJson(canvas.toJSON());
    expect(snapshot.canvasflow?.pending).toEqual(asJson(canvas.pending));

    const reloaded = await loadCanvas(snapshot, { registry });
    expect(reloaded.status).toBe("paused");
    expect(reloaded.pending).toEqual(canvas.pending);
    expect(userInputs(first).interrupts).toEqual(reloaded.pending?.interrupts);
    const events = await reloaded.runToEnd({ inputs: { resume: "yes" } });
    expect(trace(events)).toEqual([
      "node_started:Ask:A",
      "node_finished:Ask:A",
      "node_started:Message:M",
      "message:answer: ",
      "message:yes",
      "message_end",
      "node_finished:Message:M",
      "workflow_finished",
    ]);
    expect(calls.get("Ask:A")).toBe(2);
  });

  it("between two interrupts of one component, reloaded, keeps the first resume value", async () => {
    const { registry } = setup();
    const dsl = canvasDsl({ begin: node("Begin", {}, ["AskTwice:T"]), "AskTwice:T": node("AskTwice", {}) });
    const canvas = await loadCanvas(dsl, { registry });
    await canvas.runToEnd({ query: "go" });
    await canvas.runToEnd({ inputs: { resume: "one" } });
    const reloaded = await loadCanvas(asJson(canvas.toJSON()), { registry });
    expect(reloaded.pending?.interrupts).toEqual([{ id: "AskTwice:T:1", component_id: "AskTwice:T", value: { after: "one" } }]);
    const done = await reloaded.runToEnd({ inputs: { resume: "two" } });
    expect(outputsOf(done, "AskTwice:T")).toEqual({ answer: ["one", "two"] });
  });

  it("restored from a durable run's checkpoints resumes the same way", async () => {
    const { registry } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    const base = canvas.toJSON();
    const deltas: RunDelta[] = [];
    const checkpoint = (delta: RunDelta) => {
      deltas.push(asJson(delta));
    };
    for await (const _ of canvas.run({ query: "go", checkpoint }));
    expect(canvas.status).toBe("paused");
    const restored = Canvas.fromCheckpoints(base, deltas, registry);
    expect(restored.status).toBe("paused");
    expect(restored.pending).toEqual(canvas.pending);
    const events: CanvasEvent[] = [];
    for await (const event of restored.run({ inputs: { resume: "yes" }, checkpoint })) events.push(event);
    expect(messageText(events)).toBe("answer: yes");
    expect(Canvas.fromCheckpoints(base, deltas, registry).status).toBe("idle");
  });

  it("resumed, and continued from its checkpoint after its process died mid-run, keeps the resume value", async () => {
    const { registry, calls } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    const base = canvas.toJSON();
    const deltas: RunDelta[] = [];
    const checkpoint = (delta: RunDelta) => {
      deltas.push(asJson(delta));
    };
    for await (const _ of canvas.run({ query: "go", checkpoint }));
    const paused = deltas.length;
    for await (const _ of canvas.run({ inputs: { resume: "yes" }, checkpoint, checkpointAtStart: true }));
    expect(canvas.status).toBe("idle");

    // The process died after the resumed run's first checkpoint, with Ask:A in flight.
    const restored = Canvas.fromCheckpoints(base, deltas.slice(0, paused + 1), registry);
    expect(restored.status).toBe("running");
    const events = await restored.runToEnd({});
    expect(trace(events)).toEqual([
      "workflow_resumed",
      "node_started:Ask:A",
      "node_finished:Ask:A",
      "node_started:Message:M",
      "message:answer: ",
      "message:yes",
      "message_end",
      "node_finished:Message:M",
      "workflow_finished",
    ]);
    expect(restored.status).toBe("idle");
    expect(calls.get("Ask:A")).toBe(3);
  });

  it("is checked when read: interrupts of the wrong shape are refused, naming the field", async () => {
    const { registry } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    await canvas.runToEnd({ query: "go" });
    const snapshot = asJson(canvas.toJSON());
    const state = snapshot.canvasflow as unknown as Record<string, unknown>;
    expect(readRunState(state).pending?.interrupts).toEqual([{ id: "Ask:A:0", component_id: "Ask:A", value: "Proceed?" }]);
    const broken = { ...state, pending: { ...(state.pending as object), interrupts: [{ id: 1, component_id: "Ask:A" }] } };
    expect(() => readRunState(broken)).toThrow(RunStateError);
    expect(() => readRunState(broken)).toThrow(/pending\.interrupts/);
  });
});

describe("the published schemas", () => {
  it("accept the events of a run paused by an interrupt and resumed, and its paused snapshot", async () => {
    const { registry } = setup();
    const canvas = await loadCanvas(ASK_ONCE, { registry });
    const events = await canvas.runToEnd({ query: "go" });
    const snapshot = asJson(canvas.toJSON());
    events.push(...(await canvas.runToEnd({ inputs: { resume: "yes" } })));
    for (const event of events) expect(validateEvent(event), `${event.event}: ${JSON.stringify(validateEvent.errors)}`).toBe(true);
    expect(validateSnapshot(snapshot), JSON.stringify(validateSnapshot.errors)).toBe(true);
    const state = snapshot.canvasflow as unknown as { pending: { interrupts: unknown[] } };
    state.pending.interrupts = [{ id: "Ask:A:0" }];
    expect(validateSnapshot(snapshot)).toBe(false);
  });
});

describe("an interrupt in a Dify graph (edges policy)", () => {
  it("fails the component with a clear error: that scheduling cannot resume it", async () => {
    const registry = defaultRegistry.extend();
    const template = registry.get("DifyTemplateTransform")!;
    registry.register(
      {
        ...template,
        invoke(ctx) {
          ctx.setOutput("output", ctx.interrupt!("ok?"));
        },
      },
      { replace: true },
    );
    const nodes: NodeSpec[] = [
      { id: "start", type: "start", variables: [] },
      { id: "t", type: "template-transform", template: "x", variables: [] },
      { id: "end", type: "end", outputs: [{ variable: "out", value_selector: ["t", "output"] }] },
    ];
    const canvas = await loadCanvas(difyApp(nodes, [edge("start", "t"), edge("t", "end")]) as unknown as CanvasDsl, { registry });
    const events = await canvas.runToEnd({});
    const failed = events.find((e) => e.event === "node_finished" && e.data.component_id === "t");
    if (failed?.event !== "node_finished") throw new Error("t did not finish");
    expect(failed.data.error).toMatch(/cannot pause a component from inside \(interrupt\)/);
    expect(difyFinished(events).error).toMatch(/interrupt/);
    expect(lastEvent(events).event).toBe("workflow_finished");
    expect(canvas.status).not.toBe("paused");
  });
});
