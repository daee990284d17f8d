/**
 * The spans of a run (issue 29), recorded by an in-memory SDK: the run span and one span per
 * component execution, their parents (a request's traceparent, a library user's active span),
 * the link of a resumed run to the run it continues, trace_id in workflow_started, and no spans
 * (nor any trace of them in events or state) when no SDK is registered.
 */
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { canvasDsl, lastEvent, node, trace as eventTrace } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";
import { componentLabel, registerTestTracing, spanTree, theSpan, type TestTracing } from "../helpers/span-tree.js";

let tracing: TestTracing | undefined;

afterEach(async () => {
  await tracing?.unregister();
  tracing = undefined;
});

/** Probe: outputs its rendered `text`. */
const Probe: ComponentDefinition = {
  name: "Probe",
  invoke(ctx) {
    ctx.setOutput("result", ctx.render(String(ctx.params.text ?? "")));
  },
};

/** Boom: fails with its `message`. */
const Boom: ComponentDefinition = {
  name: "Boom",
  invoke(ctx) {
    throw new Error(String(ctx.params.message ?? "boom"));
  },
};

/** Work: two child spans through ctx.span, the second nested in the first, then its output. */
const Work: ComponentDefinition = {
  name: "Work",
  async invoke(ctx) {
    const result = await ctx.span!("outer", { "test.kind": "outer" }, async (outer) => {
      outer.setAttributes({ "test.more": 1, "test.none": undefined });
      return ctx.span!("inner", { "test.kind": "inner" }, async () => "done");
    });
    ctx.setOutput("result", result);
  },
};

const registry = () => registryWith(Probe, Boom, Work);

const iterationDsl = canvasDsl(
  {
    begin: node("Begin", {}, ["Iteration:1"]),
    "Iteration:1": node("Iteration", { items_ref: "env.items", outputs: { lines: { ref: "Probe:1@result", type: "Array<string>" } } }, ["Message:Sink"]),
    "IterationItem:1": node("IterationItem", {}, ["Probe:1"], { parent_id: "Iteration:1" }),
    "Probe:1": node("Probe", { text: "{index}={item}" }, [], { parent_id: "Iteration:1" }),
    "Message:Sink": node("Message", { content: ["{Iteration:1@lines}"] }),
  },
  { variables: { items: { name: "items", type: "array<string>", value: ["a", "b"] } } },
);

describe("the spans of a run", () => {
  it("a run span with one child per component execution; a container's rounds are siblings with their container and round", async () => {
    tracing = registerTestTracing();
    const canvas = await loadCanvas(iterationDsl, { registry: registry() });
    const events = await canvas.runToEnd({ query: "hi" });
    expect(lastEvent(events).event).toBe("workflow_finished");
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual([
      "canvasflow.run",
      "  canvasflow.component Begin [begin]",
      "  canvasflow.component Iteration [Iteration:1]",
      "  canvasflow.component IterationItem [IterationItem:1 #0]",
      "  canvasflow.component Probe [Probe:1 #0]",
      "  canvasflow.component IterationItem [IterationItem:1 #1]",
      "  canvasflow.component Probe [Probe:1 #1]",
      "  canvasflow.component IterationItem [IterationItem:1 #2]",
      "  canvasflow.component Message [Message:Sink]",
    ]);

    const run = theSpan(spans, "canvasflow.run");
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toEqual({
      "canvasflow.task_id": canvas.taskId,
      "canvasflow.session_id": canvas.taskId,
      "canvasflow.message_id": events[0].message_id,
      "canvasflow.status": "ok",
    });
    expect(run.status.code).toBe(SpanStatusCode.UNSET);
    expect(run.instrumentationScope.name).toBe("canvasflow");

    expect(theSpan(spans, "canvasflow.component Probe", { "canvasflow.round": 1 }).attributes).toEqual({
      "canvasflow.component_id": "Probe:1",
      "canvasflow.component_name": "Probe:1",
      "canvasflow.component_type": "Probe",
      "canvasflow.container_id": "Iteration:1",
      "canvasflow.round": 1,
      "canvasflow.status": "ok",
    });
    expect(theSpan(spans, "canvasflow.component Begin").attributes).toEqual({
      "canvasflow.component_id": "begin",
      "canvasflow.component_name": "begin",
      "canvasflow.component_type": "Begin",
      "canvasflow.status": "ok",
    });
    // The container's span lasts until its node_finished, after its last round (spans come in the order they ended).
    const iteration = theSpan(spans, "canvasflow.component Iteration");
    const lastRound = theSpan(spans, "canvasflow.component IterationItem", { "canvasflow.round": 2 });
    expect(spans.indexOf(iteration)).toBeGreaterThan(spans.indexOf(lastRound));
    expect(spans.indexOf(iteration)).toBeLessThan(spans.indexOf(theSpan(spans, "canvasflow.component Message")));
    expect(iteration.attributes["canvasflow.status"]).toBe("ok");

    // Every span of the run is in one trace, the one workflow_started names.
    const started = events[0];
    expect(started.event).toBe("workflow_started");
    expect(started.event === "workflow_started" && started.data.trace_id).toBe(run.spanContext().traceId);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([run.spanContext().traceId]));
  });

  it("a failing component's span and the run's are marked failed, with the error", async () => {
    tracing = registerTestTracing();
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Boom:1"]),
        "Boom:1": node("Boom", { message: "the disk is full" }, ["Message:End"]),
        "Message:End": node("Message", { content: ["never"] }),
      }),
      { registry: registry() },
    );
    const events = await canvas.runToEnd({});
    expect(eventTrace(events).at(-1)).toBe("workflow_finished!Boom:1 (Boom:1): the disk is full");
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual(["canvasflow.run", "  canvasflow.component Begin [begin]", "  canvasflow.component Boom [Boom:1]"]);
    const boom = theSpan(spans, "canvasflow.component Boom");
    expect(boom.status).toEqual({ code: SpanStatusCode.ERROR, message: "the disk is full" });
    expect(boom.attributes["canvasflow.status"]).toBe("error");
    expect(boom.attributes["canvasflow.error"]).toBe("the disk is full");
    const run = theSpan(spans, "canvasflow.run");
    expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: "Boom:1 (Boom:1): the disk is full" });
    expect(run.attributes["canvasflow.status"]).toBe("error");
    expect(run.attributes["canvasflow.error"]).toBe("Boom:1 (Boom:1): the disk is full");
  });

  it("ctx.span makes children of the component's span, nested when one is made inside another", async () => {
    tracing = registerTestTracing();
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ["Work:1"]), "Work:1": node("Work", {}) }), { registry: registry() });
    await canvas.runToEnd({});
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual([
      "canvasflow.run",
      "  canvasflow.component Begin [begin]",
      "  canvasflow.component Work [Work:1]",
      "    outer",
      "      inner",
    ]);
    expect(theSpan(spans, "outer").attributes).toEqual({ "test.kind": "outer", "test.more": 1 });
  });

  it("without a context manager, ctx.span's children are still the component's (not nested)", async () => {
    tracing = registerTestTracing({ contextManager: false });
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ["Work:1"]), "Work:1": node("Work", {}) }), { registry: registry() });
    await canvas.runToEnd({});
    expect(spanTree(tracing.spans(), componentLabel)).toEqual([
      "canvasflow.run",
      "  canvasflow.component Begin [begin]",
      "  canvasflow.component Work [Work:1]",
      "    outer",
      "    inner",
    ]);
  });

  it("a traceparent given with the request is the run span's parent", async () => {
    tracing = registerTestTracing();
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}) }), { registry: registry() });
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const events = await canvas.runToEnd({ traceContext: { traceparent, tracestate: "vendor=x" } });
    const run = theSpan(tracing.spans(), "canvasflow.run");
    expect(run.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(run.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
    expect(run.parentSpanContext?.isRemote).toBe(true);
    expect(run.spanContext().traceState?.get("vendor")).toBe("x");
    expect(events[0].event === "workflow_started" && events[0].data.trace_id).toBe("0af7651916cd43dd8448eb211c80319c");
  });

  it("an invalid traceparent is ignored: the run starts a trace of its own", async () => {
    tracing = registerTestTracing();
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}) }), { registry: registry() });
    await canvas.runToEnd({ traceContext: { traceparent: "00-00000000000000000000000000000000-b7ad6b7169203331-01" } });
    const run = theSpan(tracing.spans(), "canvasflow.run");
    expect(run.parentSpanContext).toBeUndefined();
  });

  it("a library user's active span is the run's parent, with no canvasflow configuration", async () => {
    tracing = registerTestTracing();
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ["Probe:1"]), "Probe:1": node("Probe", { text: "x" }) }), { registry: registry() });
    const tracer = trace.getTracer("the-users-app");
    await tracer.startActiveSpan("handle request", async (request) => {
      await canvas.runToEnd({ query: "hi" });
      request.end();
    });
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual([
      "handle request",
      "  canvasflow.run",
      "    canvasflow.component Begin [begin]",
      "    canvasflow.component Probe [Probe:1]",
    ]);
  });

  it("a run resumed after a pause links to the paused run's span, through the snapshot", async () => {
    tracing = registerTestTracing();
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["UserFillUp:Ask"]),
      "UserFillUp:Ask": node("UserFillUp", { tips: "Your name?", inputs: { name: { name: "Name", type: "line", optional: false } } }, ["Message:Hi"]),
      "Message:Hi": node("Message", { content: ["Hello {UserFillUp:Ask@name}"] }),
    });
    const canvas = await loadCanvas(dsl);
    const first = await canvas.runToEnd({ query: "start" });
    expect(lastEvent(first).event).toBe("user_inputs");
    const paused = theSpan(tracing.spans(), "canvasflow.run");
    expect(paused.attributes["canvasflow.status"]).toBe("paused");
    expect(paused.status.code).toBe(SpanStatusCode.UNSET);

    const snapshot = JSON.parse(JSON.stringify(canvas.toJSON()));
    const { traceId, spanId } = paused.spanContext();
    expect(snapshot.canvasflow.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    tracing.exporter.reset();

    const resumed = await loadCanvas(snapshot);
    const second = await resumed.runToEnd({ inputs: { name: "Ada" } });
    expect(lastEvent(second).event).toBe("workflow_finished");
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual(["canvasflow.run", "  canvasflow.component UserFillUp [UserFillUp:Ask]", "  canvasflow.component Message [Message:Hi]"]);
    const run = theSpan(spans, "canvasflow.run");
    // A trace of its own, linked to the run it continues.
    expect(run.spanContext().traceId).not.toBe(traceId);
    expect(run.links).toEqual([{ context: expect.objectContaining({ traceId, spanId }), attributes: { "canvasflow.link": "continues" } }]);
    expect(resumed.toJSON().canvasflow?.traceparent).toBe(`00-${run.spanContext().traceId}-${run.spanContext().spanId}-01`);

    // A new turn starts a trace without a link.
    tracing.exporter.reset();
    await resumed.runToEnd({ query: "again" });
    expect(theSpan(tracing.spans(), "canvasflow.run").links).toEqual([]);
  });

  it("a run continued after its process died links to the run it continues, and says its trace in workflow_resumed", async () => {
    tracing = registerTestTracing();
    const dsl = canvasDsl({ begin: node("Begin", {}, ["Probe:1"]), "Probe:1": node("Probe", { text: "x" }, ["Probe:2"]), "Probe:2": node("Probe", { text: "y" }) });
    const canvas = await loadCanvas(dsl, { registry: registry() });
    // The snapshot a checkpoint after the first batch would leave: the run under way.
    let atCrash: unknown;
    for await (const event of canvas.run({ query: "q", checkpoint: () => undefined })) {
      if (event.event === "node_finished" && event.data.component_id === "begin") {
        atCrash = JSON.parse(JSON.stringify(canvas.toJSON()));
        break;
      }
    }
    const first = tracing.spans().find((s) => s.name === "canvasflow.run")!;
    expect(first.attributes["canvasflow.status"]).toBe("cancelled");
    tracing.exporter.reset();

    const again = await loadCanvas(atCrash as object, { registry: registry() });
    const events = await again.runToEnd({});
    expect(events[0].event).toBe("workflow_resumed");
    const run = theSpan(tracing.spans(), "canvasflow.run");
    expect(events[0].event === "workflow_resumed" && events[0].data.trace_id).toBe(run.spanContext().traceId);
    expect(run.links.map((l) => l.context.spanId)).toEqual([first.spanContext().spanId]);
  });

  it("with no SDK registered the run works, makes no spans and leaves no trace in its events or state", async () => {
    const earlier = registerTestTracing();
    await earlier.unregister();
    let scopeSeen = false;
    const Scoped: ComponentDefinition = {
      name: "Scoped",
      async invoke(ctx) {
        const value = await ctx.span!("never recorded", { a: 1 }, async (span) => {
          span.setAttributes({ b: 2 });
          span.recordError(new Error("ignored"));
          scopeSeen = true;
          return "ran";
        });
        ctx.setOutput("result", value);
      },
    };
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ["Scoped:1"]), "Scoped:1": node("Scoped", {}) }), { registry: registryWith(Scoped) });
    const events = await canvas.runToEnd({ traceContext: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" } });
    expect(lastEvent(events).event).toBe("workflow_finished");
    expect(scopeSeen).toBe(true);
    expect(canvas.outputs("Scoped:1")).toEqual({ result: "ran" });
    expect(events[0]).toMatchObject({ event: "workflow_started", data: { inputs: {} } });
    expect(events[0].data).not.toHaveProperty("trace_id");
    expect(canvas.toJSON().canvasflow).not.toHaveProperty("traceparent");
    expect(earlier.spans()).toEqual([]);
  });
});
