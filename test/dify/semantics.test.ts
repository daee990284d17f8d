/**
 * The edge policy's rules through small Dify graphs (research/dify-import.md §1.1, §1.3, and the
 * iteration and loop rules of research/dify.md §3.8): joins, skips, error strategies, retries,
 * iteration error modes, loop-end, limits, and checkpoints of edge-scheduled runs.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Canvas } from "../../src/engine/canvas.js";
import { defaultRegistry, loadCanvas } from "../../src/api.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { RunDelta } from "../../src/engine/checkpoint.js";
import { difyApp, edge, finished, jsCode, messages, startedIds, type NodeSpec } from "../helpers/dify.js";

const start: NodeSpec = { id: "start", type: "start", variables: [{ variable: "n", type: "number", required: false, label: "n" }] };
const end = (outputs: Array<[string, string[]]>): NodeSpec => ({ id: "end", type: "end", outputs: outputs.map(([variable, value_selector]) => ({ variable, value_selector })) });
const ifElse = (id: string, selector: string[], operator: string, value: unknown): NodeSpec => ({
  id,
  type: "if-else",
  cases: [{ case_id: "true", logical_operator: "and", conditions: [{ variable_selector: selector, comparison_operator: operator, value }] }],
});
const template = (id: string, text: string, variables: Array<[string, string[]]> = []): NodeSpec => ({
  id,
  type: "template-transform",
  template: text,
  variables: variables.map(([variable, value_selector]) => ({ variable, value_selector })),
});

async function runApp(document: Record<string, unknown>, inputs: Record<string, unknown> = {}, options = {}): Promise<CanvasEvent[]> {
  const canvas = await loadCanvas(document, options);
  return canvas.runToEnd({ inputs });
}

describe("joins and skips", () => {
  it("a join after a branch runs once, with what the skipped side did not produce as null", async () => {
    const document = difyApp(
      [start, ifElse("branch", ["start", "n"], ">", 5), template("big", "big"), template("small", "small"), end([["big", ["big", "output"]], ["small", ["small", "output"]]])],
      [edge("start", "branch"), edge("branch", "big", "true"), edge("branch", "small", "false"), edge("big", "end"), edge("small", "end")],
    );
    const high = await runApp(document, { n: 9 });
    expect(finished(high).outputs).toEqual({ big: "big", small: null });
    expect(startedIds(high)).toEqual(["start", "branch", "big", "end"]);
    const low = await runApp(document, { n: 1 });
    expect(finished(low).outputs).toEqual({ big: null, small: "small" });
  });

  it("a join waits for its slowest taken branch, and runs once", async () => {
    const document = difyApp(
      [start, template("a", "a"), template("b1", "b1"), template("b2", "{{ x }}2", [["x", ["b1", "output"]]]), template("join", "{{ a }}+{{ b }}", [["a", ["a", "output"]], ["b", ["b2", "output"]]]), end([["out", ["join", "output"]]])],
      [edge("start", "a"), edge("start", "b1"), edge("b1", "b2"), edge("a", "join"), edge("b2", "join"), edge("join", "end")],
    );
    const events = await runApp(document);
    expect(finished(events).outputs).toEqual({ out: "a+b12" });
    expect(startedIds(events)).toEqual(["start", "a", "b1", "b2", "join", "end"]);
  });

  it("a skip goes on downstream until a node with a taken edge", async () => {
    const document = difyApp(
      [start, ifElse("branch", ["start", "n"], ">", 5), template("x1", "x1"), template("x2", "x2"), template("y", "y"), end([["x2", ["x2", "output"]], ["y", ["y", "output"]]])],
      [edge("start", "branch"), edge("branch", "x1", "true"), edge("x1", "x2"), edge("x2", "end"), edge("branch", "y", "false"), edge("y", "end")],
    );
    const events = await runApp(document, { n: 0 });
    expect(startedIds(events)).toEqual(["start", "branch", "y", "end"]);
    expect(finished(events).outputs).toEqual({ x2: null, y: "y" });
  });
});

describe("error strategies", () => {
  const failing = (strategy: Record<string, unknown>) => ({ ...jsCode("work", "throw new Error('boom')"), ...strategy });

  it("fail-branch: the failure takes the fail port with error_message and error_type; the run is partial-succeeded", async () => {
    const document = difyApp(
      [start, failing({ error_strategy: "fail-branch" }), template("ok", "ok"), template("handler", "handled: {{ m }}", [["m", ["work", "error_message"]]]), end([["ok", ["ok", "output"]], ["handled", ["handler", "output"]]])],
      [edge("start", "work"), edge("work", "ok"), edge("work", "handler", "fail-branch"), edge("ok", "end"), edge("handler", "end")],
    );
    const events = await runApp(document);
    const result = finished(events);
    expect(result.status).toBe("partial-succeeded");
    expect(result.exceptions).toBe(1);
    expect(result.outputs.ok).toBeNull();
    expect(String(result.outputs.handled)).toMatch(/^handled: .*boom/);
    const work = events.find((e) => e.event === "node_finished" && e.data.component_id === "work");
    expect(work?.event === "node_finished" && work.data.outputs).toMatchObject({ error_type: "Error" });
    expect(work?.event === "node_finished" && (work.data as unknown as Record<string, unknown>).status).toBe("exception");
  });

  it("fail-branch on success: the normal edges are taken and the fail port skipped", async () => {
    const document = difyApp(
      [start, { ...jsCode("work", "return { result: 'fine' }"), error_strategy: "fail-branch" }, template("ok", "ok"), template("handler", "handled"), end([["ok", ["ok", "output"]], ["handled", ["handler", "output"]]])],
      [edge("start", "work"), edge("work", "ok"), edge("work", "handler", "fail-branch"), edge("ok", "end"), edge("handler", "end")],
    );
    const result = finished(await runApp(document));
    expect(result).toMatchObject({ status: "succeeded", exceptions: 0, outputs: { ok: "ok", handled: null } });
  });

  it("default-value: the defaults (typed from text) stand in for the outputs, and the run goes on", async () => {
    const document = difyApp(
      [
        start,
        failing({
          error_strategy: "default-value",
          default_value: [
            { key: "result", type: "string", value: "fallback" },
            { key: "count", type: "number", value: "3" },
            { key: "data", type: "object", value: '{"a": 1}' },
          ],
        }),
        end([["result", ["work", "result"]], ["count", ["work", "count"]], ["data", ["work", "data"]]]),
      ],
      [edge("start", "work"), edge("work", "end")],
    );
    const result = finished(await runApp(document));
    expect(result).toMatchObject({ status: "partial-succeeded", exceptions: 1, outputs: { result: "fallback", count: 3, data: { a: 1 } } });
  });

  it("no strategy: the failure fails the run, naming the node", async () => {
    const document = difyApp([start, failing({}), end([["r", ["work", "result"]]])], [edge("start", "work"), edge("work", "end")]);
    const result = finished(await runApp(document));
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/^work \(work\): .*boom/);
  });
});

describe("retries", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function flakyServer(failures: number): Promise<{ url: string; times: number[] }> {
    const times: number[] = [];
    server = createServer((_req, res) => {
      times.push(performance.now());
      res.statusCode = times.length <= failures ? 500 : 200;
      res.end(times.length <= failures ? "down" : "up");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, times };
  }

  const http = (url: string, retry: Record<string, unknown> | undefined): NodeSpec => ({
    id: "call",
    type: "http-request",
    method: "get",
    url,
    headers: "",
    params: "",
    body: { type: "none", data: [] },
    authorization: { type: "no-auth" },
    ...(retry ? { retry_config: retry } : {}),
  });
  const services = { services: { http: { allowPrivateNetwork: true } } };

  it("retry_config: a failed attempt is tried again after retry_interval ms; one node_started", async () => {
    const flaky = await flakyServer(1);
    const document = difyApp([start, http(flaky.url, { retry_enabled: true, max_retries: 2, retry_interval: 150 }), end([["status", ["call", "status_code"]], ["body", ["call", "body"]]])], [edge("start", "call"), edge("call", "end")]);
    const events = await runApp(document, {}, services);
    expect(finished(events)).toMatchObject({ status: "succeeded", outputs: { status: 200, body: "up" } });
    expect(flaky.times).toHaveLength(2);
    expect(flaky.times[1] - flaky.times[0]).toBeGreaterThanOrEqual(140);
    expect(startedIds(events).filter((id) => id === "call")).toHaveLength(1);
  });

  it("without retries or a strategy, a status outside 2xx is a success (Dify's rule)", async () => {
    const flaky = await flakyServer(5);
    const document = difyApp([start, http(flaky.url, { retry_enabled: false, max_retries: 0, retry_interval: 0 }), end([["status", ["call", "status_code"]]])], [edge("start", "call"), edge("call", "end")]);
    expect(finished(await runApp(document, {}, services))).toMatchObject({ status: "succeeded", outputs: { status: 500 } });
  });

  it("with retries and none left, a status outside 2xx fails the node as HTTPResponseCodeError", async () => {
    const flaky = await flakyServer(5);
    const document = difyApp(
      [start, { ...http(flaky.url, { retry_enabled: true, max_retries: 1, retry_interval: 10 }), error_strategy: "fail-branch" }, template("oops", "{{ t }}", [["t", ["call", "error_type"]]]), end([["t", ["oops", "output"]]])],
      [edge("start", "call"), edge("call", "oops", "fail-branch"), edge("oops", "end")],
    );
    const result = finished(await runApp(document, {}, services));
    expect(flaky.times).toHaveLength(2);
    expect(result).toMatchObject({ status: "partial-succeeded", outputs: { t: "HTTPResponseCodeError" } });
  });
});

describe("iterations", () => {
  /** An iteration over [1, 2, 3] whose body fails on 2. */
  function iterating(mode: string, parallel: boolean): Record<string, unknown> {
    return difyApp(
      [
        start,
        jsCode("list", "return { items: [1, 2, 3] }", { items: "array[number]" }),
        { id: "loop", type: "iteration", iterator_selector: ["list", "items"], output_selector: ["double", "result"], start_node_id: "loopstart", error_handle_mode: mode, is_parallel: parallel, parallel_nums: 3 },
        { id: "loopstart", type: "iteration-start", parentId: "loop" },
        { ...jsCode("double", "if (args.x === 2) throw new Error('two'); return { result: args.x * 2 }", { result: "number" }, [{ variable: "x", value_selector: ["loop", "item"] }]), parentId: "loop" },
        end([["out", ["loop", "output"]]]),
      ],
      [edge("start", "list"), edge("list", "loop"), edge("loopstart", "double"), edge("loop", "end")],
    );
  }

  it.each([false, true])("continue-on-error gives null for the failed item (parallel: %s)", async (parallel) => {
    expect(finished(await runApp(iterating("continue-on-error", parallel))).outputs).toEqual({ out: [2, null, 6] });
  });

  it.each([false, true])("remove-abnormal-output leaves the failed item out (parallel: %s)", async (parallel) => {
    expect(finished(await runApp(iterating("remove-abnormal-output", parallel))).outputs).toEqual({ out: [2, 6] });
  });

  it("terminated: the first failure fails the iteration, and the run", async () => {
    const result = finished(await runApp(iterating("terminated", false)));
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/two/);
  });

  it("each item's body runs in its own frame: node events carry the round", async () => {
    const events = await runApp(iterating("continue-on-error", false));
    expect(startedIds(events).filter((id) => id.startsWith("double"))).toEqual(["double#0", "double#1", "double#2"]);
  });

  it("an empty list gives [] without a round", async () => {
    const document = difyApp(
      [
        start,
        jsCode("list", "return { items: [] }", { items: "array[number]" }),
        { id: "loop", type: "iteration", iterator_selector: ["list", "items"], output_selector: ["t", "output"], start_node_id: "s" },
        { id: "s", type: "iteration-start", parentId: "loop" },
        { ...template("t", "x"), parentId: "loop" },
        end([["out", ["loop", "output"]]]),
      ],
      [edge("start", "list"), edge("list", "loop"), edge("s", "t"), edge("loop", "end")],
    );
    const events = await runApp(document);
    expect(finished(events).outputs).toEqual({ out: [] });
    expect(startedIds(events)).not.toContain("t#0");
  });
});

describe("loops", () => {
  function counting(loopCount: number, breakAt: number | undefined, exitAt: number | undefined): Record<string, unknown> {
    const nodes: NodeSpec[] = [
      start,
      {
        id: "loop",
        type: "loop",
        loop_count: loopCount,
        start_node_id: "ls",
        logical_operator: "and",
        break_conditions: breakAt === undefined ? [] : [{ variable_selector: ["loop", "num"], comparison_operator: "≥", value: String(breakAt) }],
        loop_variables: [{ label: "num", var_type: "number", value_type: "constant", value: "0" }],
      },
      { id: "ls", type: "loop-start", parentId: "loop" },
      { id: "add", type: "assigner", version: "2", parentId: "loop", items: [{ variable_selector: ["loop", "num"], input_type: "constant", operation: "+=", value: 1 }] },
      end([["num", ["loop", "num"]], ["rounds", ["loop", "loop_round"]]]),
    ];
    const edges = [edge("start", "loop"), edge("ls", "add"), edge("loop", "end")];
    if (exitAt !== undefined) {
      nodes.push({ ...ifElse("check", ["loop", "num"], "=", String(exitAt)), parentId: "loop" }, { id: "stop", type: "loop-end", parentId: "loop" });
      edges.push(edge("add", "check"), edge("check", "stop", "true"));
    }
    return difyApp(nodes, edges);
  }

  it("stops after loop_count rounds", async () => {
    expect(finished(await runApp(counting(4, undefined, undefined))).outputs).toEqual({ num: 4, rounds: 4 });
  });

  it("a break condition checked after each round", async () => {
    expect(finished(await runApp(counting(10, 3, undefined))).outputs).toEqual({ num: 3, rounds: 3 });
  });

  it("a loop-end reached in a round stops the loop after that round", async () => {
    expect(finished(await runApp(counting(10, undefined, 2))).outputs).toEqual({ num: 2, rounds: 2 });
  });

  it("a break condition met before the first round: no round, and no loop variables", async () => {
    const events = await runApp(counting(10, 0, undefined));
    expect(finished(events).outputs).toEqual({ num: null, rounds: 0 });
    expect(startedIds(events)).not.toContain("add#0");
  });

  it("Dify's limit of 500 steps stops a runaway run", async () => {
    const result = finished(await runApp(counting(400, undefined, undefined)));
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/exceeded 500 component steps/);
  });
});

describe("checkpoints of an edge-scheduled run", () => {
  /** A graph with a branch, a parallel iteration and a loop: every part of the edge state. */
  const document = difyApp(
    [
      start,
      ifElse("branch", ["start", "n"], ">", 5),
      template("skipped", "never"),
      jsCode("list", "return { items: ['a', 'b', 'c'] }", { items: "array[string]" }),
      { id: "iter", type: "iteration", iterator_selector: ["list", "items"], output_selector: ["up", "output"], start_node_id: "is", is_parallel: true, parallel_nums: 2 },
      { id: "is", type: "iteration-start", parentId: "iter" },
      { ...template("up", "<{{ x }}>", [["x", ["iter", "item"]]]), parentId: "iter" },
      { id: "loop", type: "loop", loop_count: 3, start_node_id: "ls", break_conditions: [], logical_operator: "and", loop_variables: [{ label: "num", var_type: "number", value_type: "constant", value: "1" }] },
      { id: "ls", type: "loop-start", parentId: "loop" },
      { id: "twice", type: "assigner", version: "2", parentId: "loop", items: [{ variable_selector: ["loop", "num"], input_type: "constant", operation: "*=", value: 2 }] },
      end([["up", ["iter", "output"]], ["num", ["loop", "num"]], ["skipped", ["skipped", "output"]]]),
    ],
    [edge("start", "branch"), edge("branch", "skipped", "true"), edge("branch", "list", "false"), edge("list", "iter"), edge("is", "up"), edge("iter", "loop"), edge("ls", "twice"), edge("loop", "end"), edge("skipped", "end")],
  );
  const asStored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

  async function record(): Promise<{ base: CanvasDsl; deltas: RunDelta[]; snapshots: CanvasDsl[]; events: CanvasEvent[] }> {
    const canvas = await loadCanvas(document);
    const base = canvas.toJSON();
    const deltas: RunDelta[] = [];
    const snapshots: CanvasDsl[] = [];
    const events: CanvasEvent[] = [];
    for await (const event of canvas.run({ inputs: { n: 1 }, checkpoint: (delta) => {
      deltas.push(asStored(delta));
      snapshots.push(asStored(canvas.toJSON()));
    } })) events.push(event);
    return { base, deltas, snapshots, events };
  }

  it("replaying the checkpoints gives, at each one, the session the run had then", async () => {
    const recorded = await record();
    expect(finished(recorded.events)).toMatchObject({ status: "succeeded", outputs: { up: ["<a>", "<b>", "<c>"], num: 8, skipped: null } });
    expect(recorded.deltas.length).toBeGreaterThan(5);
    for (let k = 1; k <= recorded.deltas.length; k++) {
      const restored = Canvas.fromCheckpoints(recorded.base, recorded.deltas.slice(0, k), defaultRegistry);
      expect(asStored(restored.toJSON()), `checkpoint ${k}`).toEqual(recorded.snapshots[k - 1]);
    }
  });

  it("a run continued from any checkpoint ends as the uninterrupted run did", async () => {
    const recorded = await record();
    let continued = 0;
    for (let k = 1; k < recorded.deltas.length; k++) {
      const restored = Canvas.fromCheckpoints(recorded.base, recorded.deltas.slice(0, k), defaultRegistry);
      if (restored.status !== "running") continue;
      const rest = await restored.runToEnd({});
      expect(rest[0].event).toBe("workflow_resumed");
      expect(finished(rest).outputs, `from checkpoint ${k}`).toEqual(finished(recorded.events).outputs);
      continued++;
    }
    expect(continued).toBeGreaterThan(3);
  });
});

describe("streaming", () => {
  it("an answer inside a loop streams every round, then the one after it", async () => {
    const document = difyApp(
      [
        { id: "start", type: "start", variables: [] },
        { id: "loop", type: "loop", loop_count: 2, start_node_id: "ls", break_conditions: [], logical_operator: "and", loop_variables: [] },
        { id: "ls", type: "loop-start", parentId: "loop" },
        { id: "say", type: "answer", parentId: "loop", answer: "round\n" },
        { id: "done", type: "answer", answer: "done" },
      ],
      [edge("start", "loop"), edge("ls", "say"), edge("loop", "done")],
      { mode: "advanced-chat" },
    );
    const events = await runApp(document);
    expect(messages(events)).toEqual(["round\n", "round\n", "done"]);
    expect(finished(events).outputs).toEqual({ answer: "round\nround\ndone" });
  });
});
