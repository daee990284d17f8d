/**
 * End-to-end engine behaviour through the public API, with exact event sequences.
 */
import { describe, expect, it } from "vitest";
import { canvasFromSource, loadCanvas } from "../../src/api.js";
import { TextStream, THINK_END, THINK_START } from "../../src/components/text-stream.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { canvasDsl, lastEvent, messageText, node, trace } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";
import { UnavailableError } from "../../src/components/unavailable.js";

/** Echo: outputs `result` = its rendered `text` param. */
const Echo: ComponentDefinition = {
  name: "Echo",
  invoke(ctx) {
    ctx.setOutput("result", ctx.render(String(ctx.params.text ?? "")));
  },
};

/** Reader: reads sys.history (so node_finished.inputs shows the list it got) and answers with the query. */
const HistoryReader: ComponentDefinition = {
  name: "Reader",
  invoke(ctx) {
    ctx.get("sys.history");
    ctx.setOutput("content", ctx.query);
  },
};

/** Slow: waits `ms` (honouring the signal), then outputs `result`. */
const Slow: ComponentDefinition = {
  name: "Slow",
  async invoke(ctx) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, Number(ctx.params.ms ?? 10));
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("aborted"));
      });
    });
    ctx.setOutput("result", ctx.render(String(ctx.params.text ?? "")));
  },
};

/** Fail: throws `times` times (counted in services.attempts), then outputs "ok". */
function failing(attempts: Map<string, number>): ComponentDefinition {
  return {
    name: "Fail",
    primaryOutput: "content",
    invoke(ctx) {
      const n = (attempts.get(ctx.id) ?? 0) + 1;
      attempts.set(ctx.id, n);
      if (n <= Number(ctx.params.times ?? Infinity)) throw new Error(`boom ${n}`);
      ctx.setOutput("result", "ok");
    },
  };
}

/** Streamer: outputs `content` as a stream of its `chunks` param. */
const Streamer: ComponentDefinition = {
  name: "Streamer",
  invoke(ctx) {
    const chunks = ctx.params.chunks as string[];
    ctx.setOutput(
      "content",
      new TextStream(
        (async function* () {
          for (const chunk of chunks) {
            await new Promise((r) => setTimeout(r, 1));
            yield chunk;
          }
        })(),
      ),
    );
  },
};

describe("a linear canvas", () => {
  it("emits the RAGFlow event sequence and streams the message by segments", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Message:A"]),
        "Message:A": node("Message", { content: ["Hi {sys.query}, bye."] }),
      }),
    );
    const events = await canvas.runToEnd({ query: "Ada" });
    expect(trace(events)).toEqual([
      "workflow_started",
      "node_started:begin",
      "node_finished:begin",
      "node_started:Message:A",
      "message:Hi ",
      "message:Ada",
      "message:, bye.",
      "message_end",
      "node_finished:Message:A",
      "workflow_finished",
    ]);
    const finished = lastEvent(events);
    expect(finished.event).toBe("workflow_finished");
    if (finished.event === "workflow_finished") {
      expect(finished.data.outputs).toEqual({ content: "Hi Ada, bye.", downloads: [] });
      expect(finished.data.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 });
    }
    // Every event shares the run's envelope.
    const ids = new Set(events.map((e) => `${e.message_id}|${e.task_id}|${e.created_at}`));
    expect(ids.size).toBe(1);
    expect(Number.isInteger(events[0].created_at)).toBe(true);
  });

  it("reports node inputs and outputs in node_finished", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Echo:1"]),
        "Echo:1": node("Echo", { text: "<{sys.query}>" }),
      }),
      { registry: registryWith(Echo) },
    );
    const events = await canvas.runToEnd({ query: "q" });
    const finished = events.find((e) => e.event === "node_finished" && e.data.component_id === "Echo:1");
    expect(finished?.data).toMatchObject({ inputs: { "sys.query": "q" }, outputs: { result: "<q>" }, error: null, component_type: "Echo" });
  });
});

describe("pause and resume", () => {
  const dsl = canvasDsl({
    begin: node("Begin", {}, ["UserFillUp:Ask"]),
    "UserFillUp:Ask": node("UserFillUp", { tips: "Your name?", inputs: { name: { name: "Name", type: "line", optional: false } } }, ["Message:Hi"]),
    "Message:Hi": node("Message", { content: ["Hello {UserFillUp:Ask@name}"] }),
  });

  it("pauses with user_inputs and resumes exactly where it stopped", async () => {
    const canvas = await loadCanvas(dsl);
    const first = await canvas.runToEnd({ query: "start" });
    // The question is also shown as a message, for clients that only render message events.
    expect(trace(first)).toEqual(["workflow_started", "node_started:begin", "node_finished:begin", "message:Your name?", "message_end", "user_inputs"]);
    const pause = lastEvent(first);
    if (pause.event !== "user_inputs") throw new Error("expected user_inputs");
    expect(pause.data).toEqual({ inputs: { name: { name: "Name", type: "line", optional: false, value: null } }, tips: "Your name?" });

    const snapshot = JSON.parse(JSON.stringify(canvas.toJSON()));
    expect(snapshot.path).toEqual(["UserFillUp:Ask"]);
    expect(snapshot.canvasflow.status).toBe("paused");
    expect(snapshot.canvasflow.pending).toEqual({ components: ["UserFillUp:Ask"], inputs: pause.data.inputs, tips: "Your name?" });

    const resumed = await loadCanvas(snapshot);
    const second = await resumed.runToEnd({ inputs: { name: "Ada" } });
    expect(trace(second)).toEqual([
      "node_started:UserFillUp:Ask",
      "node_finished:UserFillUp:Ask",
      "node_started:Message:Hi",
      "message:Hello ",
      "message:Ada",
      "message_end",
      "node_finished:Message:Hi",
      "workflow_finished",
    ]);
    expect(resumed.status).toBe("idle");
  });

  it("asks again for required fields that were not given", async () => {
    const canvas = await loadCanvas(dsl);
    await canvas.runToEnd({});
    const again = await canvas.runToEnd({ inputs: { other: "x" } });
    expect(trace(again)).toEqual(["message:Your name?", "message_end", "user_inputs"]);
    expect(canvas.pending?.components).toEqual(["UserFillUp:Ask"]);
  });

  it("starts the next turn from a finished snapshot", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Message:A"]),
        "Message:A": node("Message", { content: ["turn {sys.conversation_turns}: {sys.query}"] }),
      }),
    );
    await canvas.runToEnd({ query: "one" });
    const next = await loadCanvas(JSON.parse(JSON.stringify(canvas)));
    const events = await next.runToEnd({ query: "two" });
    expect(messageText(events)).toBe("turn 2: two");
    expect(next.history).toEqual([
      ["user", "one"],
      ["assistant", "turn 1: one"],
      ["user", "two"],
      ["assistant", "turn 2: two"],
    ]);
    expect(next.globals["sys.history"]).toEqual(["user: one", "assistant: turn 1: one", "user: two", "assistant: turn 2: two"]);
  });
});

describe("a long conversation", () => {
  it("never changes a sys.history list it handed out: to a component (and so node_finished), or through canvas.globals", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Reader:R"]),
        "Reader:R": node("Reader", {}),
      }),
      { registry: registryWith(HistoryReader) },
    );
    const shown: unknown[] = [];
    const held: unknown[] = [];
    for (const query of ["one", "two", "three"]) {
      const events = await canvas.runToEnd({ query });
      const finished = events.find((e) => e.event === "node_finished" && e.data.component_id === "Reader:R");
      if (finished?.event !== "node_finished") throw new Error("Reader:R did not finish");
      shown.push(finished.data.inputs["sys.history"]);
      held.push(canvas.globals["sys.history"]);
    }
    expect(shown).toEqual([["user: one"], ["user: one", "assistant: one", "user: two"], ["user: one", "assistant: one", "user: two", "assistant: two", "user: three"]]);
    expect(held).toEqual([
      ["user: one", "assistant: one"],
      ["user: one", "assistant: one", "user: two", "assistant: two"],
      ["user: one", "assistant: one", "user: two", "assistant: two", "user: three", "assistant: three"],
    ]);
  });
});

describe("readiness and fan-in", () => {
  it("runs a join only after what it references has finished (RAGFlow races here)", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Slow:A", "Echo:B"]),
        "Slow:A": node("Slow", { ms: 20, text: "a" }, ["Slow:C"]),
        "Slow:C": node("Slow", { ms: 20, text: "c" }, ["Echo:M"]),
        "Echo:B": node("Echo", { text: "b" }, ["Echo:M"]),
        "Echo:M": node("Echo", { text: "{Slow:C@result}+{Echo:B@result}" }),
      }),
      { registry: registryWith(Echo, Slow) },
    );
    const events = await canvas.runToEnd({});
    const order = trace(events).filter((t) => t.startsWith("node_started"));
    expect(order).toEqual(["node_started:begin", "node_started:Slow:A", "node_started:Echo:B", "node_started:Slow:C", "node_started:Echo:M"]);
    expect(canvas.outputs("Echo:M")).toEqual({ result: "c+b" });
  });

  it("never runs a node twice in one batch under fan-in", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Echo:A", "Echo:B", "Echo:C"]),
        "Echo:A": node("Echo", { text: "a" }, ["Echo:J"]),
        "Echo:B": node("Echo", { text: "b" }, ["Echo:J"]),
        "Echo:C": node("Echo", { text: "c" }, ["Echo:J", "Echo:J"]),
        "Echo:J": node("Echo", { text: "j" }),
      }),
      { registry: registryWith(Echo) },
    );
    const events = await canvas.runToEnd({});
    expect(trace(events).filter((t) => t === "node_started:Echo:J")).toHaveLength(1);
  });

  it("runs a batch concurrently, no more than `concurrency` at once", async () => {
    let running = 0;
    let peak = 0;
    const Tracked: ComponentDefinition = {
      name: "Tracked",
      async invoke() {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 15));
        running--;
      },
    };
    const ids = Array.from({ length: 8 }, (_, i) => `Tracked:${i}`);
    const components = Object.fromEntries(ids.map((id) => [id, node("Tracked")]));
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ids), ...components }), { registry: registryWith(Tracked), concurrency: 3 });
    const started = performance.now();
    await canvas.runToEnd({});
    expect(peak).toBe(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
  });
});

describe("errors", () => {
  it("goto: continues at exception_goto, the error stays visible", async () => {
    const attempts = new Map<string, number>();
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Fail:X"]),
        "Fail:X": node("Fail", { exception_method: "goto", exception_goto: ["Message:Handler"] }, ["Message:Normal"]),
        "Message:Normal": node("Message", { content: ["normal"] }),
        "Message:Handler": node("Message", { content: ["handled: {Fail:X@_ERROR}"] }),
      }),
      { registry: registryWith(failing(attempts)) },
    );
    const events = await canvas.runToEnd({});
    expect(trace(events)).toContain("node_finished:Fail:X!boom 1");
    expect(messageText(events)).toBe("handled: boom 1");
    expect(trace(events)).not.toContain("node_started:Message:Normal");
    expect(lastEvent(events)).toMatchObject({ event: "workflow_finished", data: { outputs: { content: "handled: boom 1" } } });
    expect((lastEvent(events).data as { error?: string }).error).toBeUndefined();
  });

  it("comment: the default value replaces the output and is shown when nothing follows", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Fail:X"]),
        "Fail:X": node("Fail", { exception_method: "comment", exception_default_value: "sorry, no answer" }),
      }),
      { registry: registryWith(failing(new Map())) },
    );
    const events = await canvas.runToEnd({});
    expect(trace(events)).toEqual([
      "workflow_started",
      "node_started:begin",
      "node_finished:begin",
      "node_started:Fail:X",
      "message:sorry, no answer",
      "message_end",
      "node_finished:Fail:X!boom 1",
      "workflow_finished",
    ]);
    expect(canvas.outputs("Fail:X")).toEqual({ content: "sorry, no answer", result: "sorry, no answer" });
  });

  it("comment: with a downstream, the default flows on as the output", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Fail:X"]),
        "Fail:X": node("Fail", { exception_method: "comment", exception_default_value: "fallback" }, ["Message:M"]),
        "Message:M": node("Message", { content: ["got {Fail:X@content}"] }),
      }),
      { registry: registryWith(failing(new Map())) },
    );
    expect(messageText(await canvas.runToEnd({}))).toBe("got fallback");
  });

  it("no handler: the run ends with workflow_finished carrying the error", async () => {
    const canvas = await loadCanvas(
      canvasDsl({ begin: node("Begin", {}, ["Fail:X"]), "Fail:X": node("Fail", {}, ["Message:M"]), "Message:M": node("Message", { content: ["never"] }) }),
      { registry: registryWith(failing(new Map())) },
    );
    const events = await canvas.runToEnd({});
    expect(trace(events).at(-1)).toBe("workflow_finished!Fail:X (Fail:X): boom 1");
    expect(canvas.status).toBe("failed");
    expect(trace(events)).not.toContain("node_started:Message:M");
  });

  it("retries a failed component max_retries times", async () => {
    const attempts = new Map<string, number>();
    const canvas = await loadCanvas(
      canvasDsl({ begin: node("Begin", {}, ["Fail:X"]), "Fail:X": node("Fail", { times: 2, max_retries: 2, delay_after_error: 0.001 }) }),
      { registry: registryWith(failing(attempts)) },
    );
    const events = await canvas.runToEnd({});
    expect(attempts.get("Fail:X")).toBe(3);
    expect(trace(events)).toContain("node_finished:Fail:X");
    expect(canvas.outputs("Fail:X")).toEqual({ result: "ok" });
  });

  it("reads max_retries and delay_after_error as numbers or numeric text; anything else means no retry", async () => {
    // The schema wants numbers; a DSL built in code may skip validation.
    const run = async (params: Record<string, unknown>) => {
      const attempts = new Map<string, number>();
      const dsl = canvasDsl({ begin: node("Begin", {}, ["Fail:X"]), "Fail:X": node("Fail", { times: 2, ...params }) });
      const canvas = canvasFromSource({ dsl }, registryWith(failing(attempts)), {}, { kind: "agent", valid: true, issues: [] });
      await canvas.runToEnd({});
      return attempts.get("Fail:X");
    };
    expect(await run({ max_retries: " 2 ", delay_after_error: "0.001" })).toBe(3);
    expect(await run({ max_retries: "two", delay_after_error: 0 })).toBe(1);
    expect(await run({ max_retries: true, delay_after_error: 0 })).toBe(1);
    expect(await run({ max_retries: 5.9, delay_after_error: "soon" })).toBe(3);
  });

  it("enforces the per-component timeout (exec_timeout)", async () => {
    const canvas = await loadCanvas(
      canvasDsl({ begin: node("Begin", {}, ["Slow:X"]), "Slow:X": node("Slow", { ms: 5000, exec_timeout: 0.05 }) }),
      { registry: registryWith(Slow) },
    );
    const events = await canvas.runToEnd({});
    expect(trace(events).at(-1)).toBe("workflow_finished!Slow:X (Slow:X): timed out after 0.050s");
  });

  it("enforces the default timeout from the load options", async () => {
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ["Slow:X"]), "Slow:X": node("Slow", { ms: 5000 }) }), {
      registry: registryWith(Slow),
      timeoutMs: 30,
    });
    expect(trace(await canvas.runToEnd({})).at(-1)).toBe("workflow_finished!Slow:X (Slow:X): timed out after 0.030s");
  });

  it("a thrown non-Error still becomes an error event", async () => {
    const Weird: ComponentDefinition = {
      name: "Weird",
      invoke() {
        throw { reason: "odd" };
      },
    };
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ["Weird:X"]), "Weird:X": node("Weird") }), { registry: registryWith(Weird) });
    expect(trace(await canvas.runToEnd({})).at(-1)).toBe('workflow_finished!Weird:X (Weird:X): {"reason":"odd"}');
  });
});

describe("cancellation and runaway loops", () => {
  it("a cancelled run ends with workflow_finished error 'cancelled'", async () => {
    const canvas = await loadCanvas(
      canvasDsl({ begin: node("Begin", {}, ["Slow:X"]), "Slow:X": node("Slow", { ms: 5000 }, ["Message:M"]), "Message:M": node("Message", { content: ["never"] }) }),
      { registry: registryWith(Slow) },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const events = await canvas.runToEnd({ signal: controller.signal });
    expect(trace(events).slice(-2)).toEqual(["node_finished:Slow:X!cancelled", "workflow_finished!cancelled"]);
    expect(canvas.status).toBe("cancelled");
  });

  it("an already-aborted signal cancels before any component runs", async () => {
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, []) }));
    const events = await canvas.runToEnd({ signal: AbortSignal.abort() });
    expect(trace(events)).toEqual(["workflow_started", "workflow_finished!cancelled"]);
  });

  it("stops a loop that never ends with a clear max-steps error", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Echo:A"]),
        "Echo:A": node("Echo", { text: "a" }, ["Echo:B"]),
        "Echo:B": node("Echo", { text: "b" }, ["Echo:A"]),
      }),
      { registry: registryWith(Echo), maxSteps: 25 },
    );
    const events = await canvas.runToEnd({});
    const finished = lastEvent(events);
    expect(finished.event).toBe("workflow_finished");
    expect((finished.data as { error?: string }).error).toMatch(/exceeded 25 component steps \(next: Echo:[AB]\)/);
    expect(trace(events).filter((t) => t.startsWith("node_started"))).toHaveLength(25);
  });
});

describe("streaming", () => {
  it("re-streams an upstream stream chunk by chunk and finishes the producer after the message", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Streamer:S"]),
        "Streamer:S": node("Streamer", { chunks: ["Hel", "lo", THINK_START, "hmm", THINK_END, "!"] }, ["Message:M"]),
        "Message:M": node("Message", { content: ["[{Streamer:S@content}]"] }),
      }),
      { registry: registryWith(Streamer) },
    );
    const events = await canvas.runToEnd({});
    expect(trace(events)).toEqual([
      "workflow_started",
      "node_started:begin",
      "node_finished:begin",
      "node_started:Streamer:S",
      "node_started:Message:M",
      "message:[",
      "message:Hel",
      "message:lo",
      "message:<think>",
      "message:hmm",
      "message:</think>",
      "message:!",
      "message:]",
      "message_end",
      "node_finished:Streamer:S",
      "node_finished:Message:M",
      "workflow_finished",
    ]);
    const thinking = events.filter((e) => e.event === "message" && (e.data.start_to_think || e.data.end_to_think));
    expect(thinking.map((e) => e.data)).toEqual([
      { content: "", start_to_think: true },
      { content: "", end_to_think: true },
    ]);
    expect(canvas.outputs("Streamer:S")).toEqual({ content: `Hello${THINK_START}hmm${THINK_END}!` });
    expect(canvas.history.at(-1)).toEqual(["assistant", "[Hello!]"]);
  });

  it("gives a non-message consumer the finished text", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Streamer:S"]),
        "Streamer:S": node("Streamer", { chunks: ["a", "b"] }, ["Echo:E"]),
        "Echo:E": node("Echo", { text: "<{Streamer:S@content}>" }),
      }),
      { registry: registryWith(Streamer, Echo) },
    );
    const events = await canvas.runToEnd({});
    expect(canvas.outputs("Echo:E")).toEqual({ result: "<ab>" });
    expect(trace(events)).toContain("node_finished:Streamer:S");
  });
});

describe("usage and references", () => {
  const Model: ComponentDefinition = {
    name: "Model",
    invoke(ctx) {
      ctx.addUsage({ prompt_tokens: 10, completion_tokens: 5 });
      ctx.addUsage({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 6 });
      ctx.setOutput("content", "answer");
    },
  };
  const Retriever: ComponentDefinition = {
    name: "Retriever",
    invoke(ctx) {
      ctx.addReferences(
        [
          { id: "c1", content: "first", document_id: "d1", document_name: "Doc" },
          { id: "c1", content: "duplicate", document_id: "d1", document_name: "Doc" },
          { id: "c2", content: "second", document_id: "d1", document_name: "Doc" },
        ],
        [{ doc_id: "d1", doc_name: "Doc", count: 2 }],
      );
    },
  };

  it("sums token usage into workflow_finished and sends references with the next message_end only", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Retriever:R"]),
        "Retriever:R": node("Retriever", {}, ["Model:M"]),
        "Model:M": node("Model", {}, ["Message:A"]),
        "Message:A": node("Message", { content: ["{Model:M@content}"] }, ["Message:B"]),
        "Message:B": node("Message", { content: ["more"] }),
      }),
      { registry: registryWith(Model, Retriever) },
    );
    const events = await canvas.runToEnd({});
    const ends = events.filter((e) => e.event === "message_end").map((e) => e.data);
    expect(ends).toEqual([
      {
        reference: {
          chunks: [
            { id: "c1", content: "first", document_id: "d1", document_name: "Doc" },
            { id: "c2", content: "second", document_id: "d1", document_name: "Doc" },
          ],
          doc_aggs: [{ doc_id: "d1", doc_name: "Doc", count: 2 }],
        },
      },
      {},
    ]);
    expect(lastEvent(events).data).toMatchObject({ usage: { prompt_tokens: 13, completion_tokens: 7, total_tokens: 21, calls: 2 } });
  });
});

describe("streams keep their component's signal", () => {
  it("a stream still being read sees the run's cancellation", async () => {
    let sawAbort = false;
    const Endless: ComponentDefinition = {
      name: "Endless",
      invoke(ctx) {
        const signal = ctx.signal;
        ctx.setOutput(
          "content",
          new TextStream(
            (async function* () {
              yield "start ";
              if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
              sawAbort = true;
              throw new Error("stopped");
            })(),
          ),
        );
      },
    };
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Endless:E"]),
        "Endless:E": node("Endless", {}, ["Message:M"]),
        "Message:M": node("Message", { content: ["{Endless:E@content}"] }),
      }),
      { registry: registryWith(Endless) },
    );
    const controller = new AbortController();
    const events: CanvasEvent[] = [];
    for await (const event of canvas.run({ signal: controller.signal })) {
      events.push(event);
      if (event.event === "message") controller.abort();
    }
    expect(sawAbort).toBe(true);
    expect(trace(events).at(-1)).toBe("workflow_finished!cancelled");
  });

  it("peek reads without recording an input", async () => {
    const Peeker: ComponentDefinition = {
      name: "Peeker",
      invoke(ctx) {
        ctx.setOutput("result", `${String(ctx.peek("sys.query"))}/${String(ctx.get("sys.conversation_turns"))}`);
      },
    };
    const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ["Peeker:P"]), "Peeker:P": node("Peeker") }), { registry: registryWith(Peeker) });
    const events = await canvas.runToEnd({ query: "q" });
    const finished = events.find((e) => e.event === "node_finished" && e.data.component_id === "Peeker:P");
    expect(finished?.data).toMatchObject({ inputs: { "sys.conversation_turns": 1 }, outputs: { result: "q/1" } });
    expect(Object.keys((finished?.data as { inputs: object }).inputs)).toEqual(["sys.conversation_turns"]);
  });
});

describe("a component that is unavailable here (no key, no network, nothing configured)", () => {
  let calls = 0;
  const Offline: ComponentDefinition = {
    name: "Offline",
    primaryOutput: "formalized_content",
    invoke() {
      calls++;
      throw new UnavailableError("Offline has no API key: set api_key");
    },
  };

  it("is recorded and the run goes on downstream, without retries", async () => {
    calls = 0;
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Offline:O"]),
        "Offline:O": node("Offline", { max_retries: 3, delay_after_error: 0.001 }, ["Message:M"]),
        "Message:M": node("Message", { content: ["got: {Offline:O@formalized_content} / {Offline:O@_ERROR}"] }),
      }),
      { registry: registryWith(Offline) },
    );
    const events = await canvas.runToEnd({});
    expect(calls).toBe(1);
    expect(trace(events)).toContain("node_finished:Offline:O!Offline has no API key: set api_key");
    expect(messageText(events)).toBe("got: Offline has no API key: set api_key / Offline has no API key: set api_key");
    expect((lastEvent(events).data as { error?: string }).error).toBeUndefined();
  });

  it("still follows exception_method goto", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["Offline:O"]),
        "Offline:O": node("Offline", { exception_method: "goto", exception_goto: ["Message:H"] }, ["Message:M"]),
        "Message:M": node("Message", { content: ["normal"] }),
        "Message:H": node("Message", { content: ["handled"] }),
      }),
      { registry: registryWith(Offline) },
    );
    expect(messageText(await canvas.runToEnd({}))).toBe("handled");
  });
});

describe("wide batches", () => {
  it("100 components in flight at once raise no MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const ids = Array.from({ length: 100 }, (_, i) => `Slow:${i}`);
      const components = Object.fromEntries(ids.map((id) => [id, node("Slow", { ms: 5 })]));
      const canvas = await loadCanvas(canvasDsl({ begin: node("Begin", {}, ids), ...components }), { registry: registryWith(Slow), concurrency: 100 });
      const events = await canvas.runToEnd({});
      expect(trace(events).at(-1)).toBe("workflow_finished");
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});
