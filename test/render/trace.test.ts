/**
 * Traces without a browser: the trace model of real runs (steps, rounds, errors, the pause, the
 * messages, parallel steps) and `run --trace` writing a self-contained page.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canvasGraphModel } from "../../src/render/index.js";
import { loadCanvas } from "../../src/api.js";
import { renderTrace } from "../../src/render/trace-html.js";
import { traceModel } from "../../src/render/trace-model.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { MAX_ALONGSIDE } from "../../src/render/trace-model.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { cli } from "../helpers/cli.js";
import { corpusPath } from "../helpers/corpus.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { registryWith } from "../helpers/registry.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { scratchDir } from "../helpers/scratch.js";

const { dir } = scratchDir("canvasflow-trace-");

/** Begin → an Invoke that fails (loopback is blocked) → its exception handler, or Done. */
const failing = canvasDsl({
  begin: node("Begin", {}, ["Invoke:Api"]),
  "Invoke:Api": node("Invoke", { url: "http://127.0.0.1:1/x", exception_method: "goto", exception_goto: ["Message:Failed"] }, ["Message:Done", "Message:Failed"]),
  "Message:Done": node("Message", { content: ["done"] }),
  "Message:Failed": node("Message", { content: ["it <failed> & stopped"] }),
});

/** Begin fans out to two Messages that may run in one batch. */
const fanOut = canvasDsl({
  begin: node("Begin", {}, ["StringTransform:A", "StringTransform:B"]),
  "StringTransform:A": node("StringTransform", { method: "merge", script: "a", delimiters: [","] }),
  "StringTransform:B": node("StringTransform", { method: "merge", script: "b", delimiters: [","] }),
});

async function runEvents(dsl: object, request: { query?: string } = {}): Promise<CanvasEvent[]> {
  const canvas = await loadCanvas(dsl);
  const events: CanvasEvent[] = [];
  for await (const e of canvas.run(request)) events.push(e);
  return events;
}

/** Fails its first `failures` invocations, then succeeds. */
function flaky(failures: number): ComponentDefinition {
  let calls = 0;
  return {
    name: "Flaky",
    invoke(ctx) {
      calls++;
      if (calls <= failures) throw new Error(`flaky failure ${calls}`);
      ctx.setOutput("result", `ok after ${calls}`);
    },
  };
}

describe("retries, tokens and pauses on the timeline", () => {
  it("counts a retried step's attempts in node_finished, the trace model and the page", async () => {
    const dsl = canvasDsl({ begin: node("Begin", {}, ["Flaky:F"]), "Flaky:F": node("Flaky", { max_retries: 3, delay_after_error: 0.001 }) });
    const canvas = await loadCanvas(dsl, { registry: registryWith(flaky(2)) });
    const events: CanvasEvent[] = [];
    for await (const e of canvas.run({})) events.push(e);
    const finished = events.find((e) => e.event === "node_finished" && e.data.component_id === "Flaky:F")!;
    expect(finished.data).toMatchObject({ error: null });
    expect((finished.data as { retries?: unknown[] }).retries).toHaveLength(2);
    const begin = events.find((e) => e.event === "node_finished" && e.data.component_id === "begin")!;
    expect(begin.data).not.toHaveProperty("retries");
    const trace = traceModel(events);
    expect(trace.steps.find((s) => s.componentId === "Flaky:F")).toMatchObject({ attempts: 3, status: "ok" });
    const html = await renderTrace(events, { graph: canvasGraphModel(canvas) });
    expect(html).toMatch(/data-step="1"[^>]*title="Flaky:F: ok, [^"]*, 3 attempts"><\/button><span class="mark"[^>]*>↻3<\/span>/);
    expect(html.match(/↻\d/g)).toHaveLength(1);
  });

  it("gives an LLM step its own token counts in node_finished, summing to the run's usage", async () => {
    const mock = await startMockLlm();
    const llm = (downstream: string[]) => node("LLM", { llm_id: "mock", sys_prompt: "Be brief.", prompts: [{ role: "user", content: "{sys.query}" }] }, downstream);
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["LLM:A", "LLM:B"]),
      "LLM:A": llm(["Message:M"]),
      "LLM:B": llm(["Message:M"]),
      "Message:M": node("Message", { content: ["{LLM:A@content} {LLM:B@content}"] }),
    });
    const canvas = await loadCanvas(dsl, { services: { llm: mock.provider } });
    const events: CanvasEvent[] = [];
    for await (const e of canvas.run({ query: "hello there" })) events.push(e);
    const finished = events.filter((e) => e.event === "node_finished");
    const usageOf = (id: string) => finished.find((e) => e.data.component_id === id)!.data.usage;
    for (const id of ["LLM:A", "LLM:B"]) {
      expect(usageOf(id)).toMatchObject({ calls: 1 });
      expect(usageOf(id)!.total_tokens).toBeGreaterThan(0);
    }
    expect(usageOf("begin")).toBeUndefined();
    expect(usageOf("Message:M")).toBeUndefined();
    const total = events.find((e) => e.event === "workflow_finished")!.data.usage;
    expect(usageOf("LLM:A")!.total_tokens + usageOf("LLM:B")!.total_tokens).toBe(total.total_tokens);
    const trace = traceModel(events);
    expect(trace.steps.find((s) => s.componentId === "LLM:A")!.tokens).toEqual(usageOf("LLM:A"));
    const html = await renderTrace(events);
    expect(html).toContain(`, ${usageOf("LLM:A")!.total_tokens} tokens`);
  });

  it("run --trace on a Dify app draws it as canvasflow graph does: the case taken, else greyed", async () => {
    const out = join(dir, "dify.html");
    const run = await cli(["run", corpusPath("dify", "conditional_hello_branching_workflow.yml"), "--inputs", '{"query":"hello world"}', "--trace", out]);
    expect(run.code, run.stderr).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toContain('class="node f-router ran" data-id="1754217359748"');
    expect(html).toContain('class="node f-message untaken" data-id="1754217363584"');
    expect(html).toContain('<g class="edge-label"><title>Start.query contains hello</title>');
    expect(html).toContain('<g class="edge-label untaken"><title>else</title>');
  });

  it("marks the step a run paused on with ⏸ and a failed one with ✕", async () => {
    const paused = await renderTrace(await runEvents(JSON.parse(readFileSync("fixtures/user-fill-up.json", "utf8"))), { pausedAt: ["UserFillUp:Details"] });
    expect(paused).toMatch(/<div class="row waiting" data-component="UserFillUp:Details">.*<span class="mark paused"[^>]*>⏸ waiting for input<\/span>/);
    const failed = await renderTrace(await runEvents(failing));
    expect(failed).toMatch(/<span class="mark error"[^>]*>✕<\/span>/);
    expect(failed).not.toContain("mark paused");
  });
});

describe("the trace model", () => {
  it("has a step per component run, numbered by round, with inputs and outputs", async () => {
    const events = await runEvents(JSON.parse(readFileSync("fixtures/loop-iteration-switch.json", "utf8")));
    const trace = traceModel(events);
    expect(trace.rows.map((r) => r.componentId)).toHaveLength(16);
    expect(trace.steps).toHaveLength(events.filter((e) => e.event === "node_finished").length);
    const sizes = trace.steps.filter((s) => s.componentId === "Switch:Size");
    expect(sizes.map((s) => s.round)).toEqual([1, 2, 3, 4]);
    expect(sizes.map((s) => s.inputs)).toEqual(["3", "8", "1", "12"].map((v) => ({ "IterationItem:Each@item": v })));
    expect(trace.steps.every((s) => s.status === "ok" && s.end >= s.start && s.elapsed !== undefined)).toBe(true);
    expect(trace.messages.map((m) => m.text).join("")).toContain("attempt 1");
    expect(trace.end).toMatchObject({ error: undefined });
  });

  it("marks a failed step with its error, and the messages with the component that streamed them", async () => {
    const trace = traceModel(await runEvents(failing));
    const api = trace.steps.find((s) => s.componentId === "Invoke:Api")!;
    expect(api.status).toBe("error");
    expect(api.error).toContain("127.0.0.1");
    expect(trace.messages).toEqual([{ text: "it <failed> & stopped", componentId: "Message:Failed" }]);
  });

  it("marks steps that ran in one batch as running alongside each other", async () => {
    const trace = traceModel(await runEvents(fanOut), {});
    const a = trace.steps.find((s) => s.componentId === "StringTransform:A")!;
    const b = trace.steps.find((s) => s.componentId === "StringTransform:B")!;
    expect(a.alongside).toEqual([b.index]);
    expect(b.alongside).toEqual([a.index]);
    expect(trace.steps.find((s) => s.componentId === "begin")!.alongside).toEqual([]);
  });

  it("lists at most MAX_ALONGSIDE neighbours of a step in a wide batch, and counts them all", () => {
    const base = { message_id: "m", created_at: 1, task_id: "t" };
    const started = (id: string) => ({ ...base, event: "node_started", data: { inputs: null, created_at: 1, component_id: id, component_name: id, component_type: "T", thoughts: "" } });
    const finished = (id: string) => ({ ...base, event: "node_finished", data: { inputs: {}, outputs: {}, component_id: id, component_name: id, component_type: "T", error: null, elapsed_time: 0.001, created_at: 1 } });
    const ids = Array.from({ length: 60 }, (_, i) => `n${i}`);
    const events = [...ids.map(started), ...ids.map(finished)] as CanvasEvent[];
    const trace = traceModel(events);
    expect(trace.steps).toHaveLength(60);
    for (const step of trace.steps) {
      expect(step.alongsideCount).toBe(59);
      expect(step.alongside).toHaveLength(MAX_ALONGSIDE);
    }
  });

  it("records the pause and the fields it asks for", async () => {
    const events = await runEvents(JSON.parse(readFileSync("fixtures/user-fill-up.json", "utf8")));
    const trace = traceModel(events, { pausedAt: ["UserFillUp:Details"] });
    expect(trace.pause).toMatchObject({ components: ["UserFillUp:Details"] });
    expect(Object.keys(trace.pause!.inputs)).toEqual(["name", "colour", "note"]);
    expect(trace.end).toBeUndefined();
  });
});

describe("renderTrace", () => {
  it("greys the untaken branch and highlights the exception edge taken", async () => {
    const canvas = await loadCanvas(failing);
    const events: CanvasEvent[] = [];
    for await (const e of canvas.run({})) events.push(e);
    const html = await renderTrace(events, { graph: canvasGraphModel(canvas), title: "failing" });
    expect(html).toMatch(/class="node f-message untaken" data-id="Message:Done"/);
    expect(html).toMatch(/class="node f-message ran" data-id="Message:Failed"/);
    expect(html).toMatch(/class="node f-tool error" data-id="Invoke:Api"|class="node f-[a-z]+ error" data-id="Invoke:Api"/);
    expect(html).toMatch(/data-from="Invoke:Api" data-to="Message:Failed"><path class="edge exception taken"/);
    expect(html).toMatch(/data-from="Invoke:Api" data-to="Message:Done"><path class="edge normal untaken"/);
    // Values from the run are escaped: no markup of theirs reaches the page.
    expect(html).not.toContain("<failed>");
  });

  it("renders without a graph, with a note instead of the diagram", async () => {
    const html = await renderTrace(await runEvents(fanOut));
    expect(html).toContain("No diagram");
    expect(html).toContain('data-component="StringTransform:A"');
  });
});

describe("canvasflow run --trace", () => {
  it("writes a self-contained page for a paused run, naming the paused component", async () => {
    const out = join(dir, "paused.html");
    const run = await cli(["run", "fixtures/user-fill-up.json", "--trace", out]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`trace written to ${out}`);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("paused: waiting for input");
    expect(html).toMatch(/class="node f-input paused" data-id="UserFillUp:Details"/);
    // Self-contained: nothing is fetched from anywhere.
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?https?:/i);
    expect(html).not.toContain("<link");
  });

  it("refuses a trace file in a folder that does not exist, before running", async () => {
    const out = join(dir, "missing", "t.html");
    const run = await cli(["run", "fixtures/hello.json", "--trace", out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--trace ${out}: the folder ${join(dir, "missing")} does not exist`);
    expect(run.stdout).toBe("");
  });

  it("refuses a folder as the trace file", async () => {
    const run = await cli(["run", "fixtures/hello.json", "--trace", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--trace ${dir}: it is a folder`);
  });
});

