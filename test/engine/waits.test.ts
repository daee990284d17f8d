/**
 * No wait in the engine escapes a timeout or the run's signal, and no canvas can make a run wait
 * for itself (issue 8, defects 1 and 9): a component reading its own output is a validation
 * error, components reading each other run one at a time, and a stream that never ends is cut
 * off by the timeout of the component waiting for it.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Canvas } from "../../src/engine/canvas.js";
import { loadCanvas, validateDsl } from "../../src/api.js";
import { TextStream } from "../../src/components/text-stream.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { canvasDsl, finished, messages, node, trace } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";

/** A text output whose next chunk never comes (and nothing keeps the process alive meanwhile). */
const Forever: ComponentDefinition = {
  name: "Forever",
  capabilities: {},
  invoke(ctx) {
    async function* never(): AsyncGenerator<string> {
      yield "partial ";
      await new Promise<never>(() => undefined);
    }
    ctx.setOutput("content", new TextStream(never()));
  },
};

/** Streams a short text and looks at its signal, as an LLM call does. */
const Streamer: ComponentDefinition = {
  name: "Streamer",
  invoke(ctx) {
    void ctx.signal;
    ctx.setOutput("content", TextStream.of("chunk"));
  },
};

/** Reads a reference and copies it (a non-message consumer: streams are drained before it runs). */
const Reader: ComponentDefinition = {
  name: "Reader",
  invoke(ctx) {
    ctx.setOutput("result", ctx.render(String(ctx.params.text ?? "")));
  },
};

const registry = registryWith(Forever, Streamer, Reader);

async function collect(events: AsyncIterable<CanvasEvent>): Promise<CanvasEvent[]> {
  const out: CanvasEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("a component that reads its own output", () => {
  const selfMessage = canvasDsl({
    begin: node("Begin", {}, ["Message:A"]),
    "Message:A": node("Message", { content: ["{Message:A@content}"] }),
  });

  it("is a validation error naming the reference and where it is", () => {
    const issues = validateDsl(selfMessage).issues.filter((i) => i.severity === "error");
    expect(issues).toEqual([
      expect.objectContaining({
        code: "self-reference",
        pointer: "/components/Message:A/obj/params/content/0",
        componentId: "Message:A",
        message: "reference {Message:A@content}: a component cannot read its own output",
      }),
    ]);
  });

  it("is a validation error for any component, e.g. a StringTransform", () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["StringTransform:A"]),
      "StringTransform:A": node("StringTransform", { method: "merge", script: "x{StringTransform:A@result}" }),
    });
    const issues = validateDsl(dsl).issues.filter((i) => i.severity === "error");
    expect(issues.map((i) => [i.code, i.pointer])).toEqual([["self-reference", "/components/StringTransform:A/obj/params/script"]]);
  });

  it("a message reading itself in a canvas loaded without validation fails instead of hanging", async () => {
    const canvas = Canvas.fromValidatedDsl(selfMessage, registry);
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBe("Message:A (Message:A): reference {Message:A@content}: a message cannot show its own content");
  });
});

describe("components that read each other", () => {
  const mutual = (downstream: boolean): CanvasDsl =>
    canvasDsl({
      begin: node("Begin", {}, downstream ? ["Message:A"] : ["Message:A", "Message:B"]),
      "Message:A": node("Message", { content: ["a={Message:B@content}"] }, downstream ? ["Message:B"] : []),
      "Message:B": node("Message", { content: ["b={Message:A@content}"] }),
    });

  it("a message reading a message downstream of it reads nothing and the run ends", async () => {
    const canvas = await loadCanvas(mutual(true), { registry });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["a=", "b=a="]);
  });

  it("two messages started together that read each other run one at a time in path order", async () => {
    const canvas = await loadCanvas(mutual(false), { registry });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["a=", "b=a="]);
  });

  it("validation warns about the cycle, naming its members", () => {
    const warnings = validateDsl(mutual(false)).issues.filter((i) => i.code === "reference-cycle");
    expect(warnings).toEqual([expect.objectContaining({ severity: "warning", componentId: "Message:A", pointer: "/components/Message:A" })]);
    expect(warnings[0].message).toContain("Message:A, Message:B read each other's outputs");
  });
});

describe("a stream that never ends", () => {
  const neverEnding = (consumer: "Message" | "Reader" | "none"): CanvasDsl =>
    canvasDsl({
      begin: node("Begin", {}, ["Forever:F"]),
      "Forever:F": node("Forever", {}, consumer === "none" ? [] : ["Consumer:C"]),
      ...(consumer === "Message" ? { "Consumer:C": node("Message", { content: ["got {Forever:F@content}"] }) } : {}),
      ...(consumer === "Reader" ? { "Consumer:C": node("Reader", { text: "got {Forever:F@content}" }) } : {}),
    });

  it("a message streaming it times out by its own timeout", async () => {
    const canvas = await loadCanvas(neverEnding("Message"), { registry, componentTimeouts: { "Consumer:C": 50 } });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBe("Consumer:C (Consumer:C): timed out after 0.050s");
    expect(trace(events)).toContain("message:partial ");
  });

  it("a message streaming it stops when the run is cancelled", async () => {
    const canvas = await loadCanvas(neverEnding("Message"), { registry });
    const controller = new AbortController();
    const events: CanvasEvent[] = [];
    for await (const event of canvas.run({ query: "go", signal: controller.signal })) {
      events.push(event);
      if (event.event === "message") controller.abort();
    }
    expect(finished(events).error).toBe("cancelled");
  });

  it("a component that must read it whole before it runs times out by its own timeout", async () => {
    const canvas = await loadCanvas(neverEnding("Reader"), { registry, componentTimeouts: { "Consumer:C": 50 } });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBe("Consumer:C (Consumer:C): timed out after 0.050s");
  });

  it("nobody reading it: the end of the run waits no longer than its producer's timeout", async () => {
    const canvas = await loadCanvas(neverEnding("none"), { registry, componentTimeouts: { "Forever:F": 50 } });
    const events = await collect(canvas.run({ query: "go" }));
    expect(trace(events).slice(-2)).toEqual(["node_finished:Forever:F!timed out after 0.050s", "workflow_finished"]);
  });
});

describe("a streaming producer that loops back to itself", () => {
  // Streamer:S → [Streamer:S, Message:M]: M waits while S is pending, so nobody reads S's
  // streams; each round used to keep its context listening to the run's signal.
  const dsl = canvasDsl({
    begin: node("Begin", {}, ["Streamer:S"]),
    "Streamer:S": node("Streamer", {}, ["Streamer:S", "Message:M"]),
    "Message:M": node("Message", { content: ["{Streamer:S@content}"] }),
  });

  it("finishes each round before the next one starts, and no warning is printed", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const canvas = await loadCanvas(dsl, { registry, maxSteps: 60 });
      const events = await canvas.runToEnd({ query: "go" });
      expect(finished(events).error).toMatch(/exceeded 60 component steps/);
      const own = trace(events).filter((t) => t.endsWith(":Streamer:S"));
      expect(own.slice(0, 6)).toEqual([
        "node_started:Streamer:S",
        "node_finished:Streamer:S",
        "node_started:Streamer:S",
        "node_finished:Streamer:S",
        "node_started:Streamer:S",
        "node_finished:Streamer:S",
      ]);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("the CLI's process", () => {
  it("never exits 0 when its command can no longer finish", () => {
    const guard = fileURLToPath(new URL("../../dist/src/cli/exit-guard.js", import.meta.url));
    const script = `import(${JSON.stringify(guard)}).then((g) => g.exitWhenSettled(new Promise(() => {}), process.stderr, 1));`;
    const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 20_000 });
    expect(child.status).toBe(1);
    expect(child.stderr).toContain("the command stopped before it finished");
  });

  it("exits with the command's code when it does finish", () => {
    const guard = fileURLToPath(new URL("../../dist/src/cli/exit-guard.js", import.meta.url));
    const script = `import(${JSON.stringify(guard)}).then((g) => g.exitWhenSettled(Promise.resolve(3), process.stderr, 1));`;
    const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 20_000 });
    expect(child.status).toBe(3);
    expect(child.stderr).toBe("");
  });
});
