/**
 * Answer and End templates stream as Dify's response coordinator streams them (graphon's
 * ResponseStreamFilter): each segment goes out as soon as its value exists, in template order,
 * and the text a node's success releases comes before that node's node_finished. The sequences
 * below are the exact events of small graphs.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { parseDifyYaml } from "../../src/dify/yaml.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { corpusPath } from "../helpers/corpus.js";
import { difyApp, edge, finished, type NodeSpec } from "../helpers/dify.js";
import { startMockLlm } from "../helpers/mock-llm.js";

const MODEL = { provider: "langgenius/openai/openai", name: "gpt-4o", mode: "chat", completion_params: {} };
const template = (id: string, text: string, variables: Array<[string, string[]]> = []): NodeSpec => ({
  id,
  type: "template-transform",
  template: text,
  variables: variables.map(([variable, value_selector]) => ({ variable, value_selector })),
});
const llm = (id: string): NodeSpec => ({ id, type: "llm", model: MODEL, prompt_template: [{ role: "user", text: "Say it: {{#sys.query#}}" }], context: { enabled: false } });

/** The run as `started:id`, `finished:id`, `message:text` and the run's own events, in order. */
function sequence(events: CanvasEvent[]): string[] {
  return events.map((e) => {
    if (e.event === "node_started") return `started:${e.data.component_id}`;
    if (e.event === "node_finished") return `finished:${e.data.component_id}`;
    if (e.event === "message") return `message:${e.data.content}`;
    return e.event;
  });
}

async function run(document: Record<string, unknown>, request: { inputs?: Record<string, unknown>; query?: string }, services: Record<string, unknown> = {}): Promise<CanvasEvent[]> {
  const canvas = await loadCanvas(document, { services });
  return canvas.runToEnd(request);
}

describe("Dify response streaming", () => {
  it("an Answer streams a finished node's output when it succeeds, its text at once, and an LLM's chunks live", async () => {
    const mock = await startMockLlm({ rules: [{ on: "any", match: ".", reply: "one two three" }] });
    const document = difyApp(
      [{ id: "start", type: "start", variables: [] }, template("tt", "T"), llm("llm"), { id: "ans", type: "answer", answer: "{{#tt.output#}} A={{#llm.text#}}" }],
      [edge("start", "tt"), edge("tt", "llm"), edge("llm", "ans")],
      { mode: "advanced-chat" },
    );
    const events = await run(document, { query: "hi" }, { llm: mock.provider });
    expect(sequence(events)).toEqual([
      "workflow_started",
      "started:start",
      "finished:start",
      "started:tt",
      // tt's output, then the text after it, before tt's node_finished (the LLM has not started).
      "message:T",
      "message: A=",
      "finished:tt",
      "started:llm",
      // The model's chunks as they come, one event each, while the LLM node runs.
      "message:one ",
      "message:two ",
      "message:three",
      "finished:llm",
      "started:ans",
      "finished:ans",
      "message_end",
      "workflow_finished",
    ]);
    expect(finished(events).outputs).toEqual({ answer: "T A=one two three" });
  });

  it("simple passthrough (Dify's test_event_sequence_validation): the End's text comes with the Start node, before the End starts", async () => {
    // The shape of Dify's fixture simple_passthrough_workflow: Start (query) -> End (query).
    const document = difyApp(
      [
        { id: "1754154032319", type: "start", variables: [{ variable: "query", label: "query", type: "text-input", required: true }] },
        { id: "1754154034161", type: "end", outputs: [{ variable: "query", value_selector: ["1754154032319", "query"], value_type: "string" }] },
      ],
      [edge("1754154032319", "1754154034161")],
    );
    const events = await run(document, { inputs: { query: "test event sequence" } });
    expect(sequence(events)).toEqual([
      "workflow_started",
      "started:1754154032319",
      "message:test event sequence",
      "finished:1754154032319",
      "started:1754154034161",
      "finished:1754154034161",
      "message_end",
      "workflow_finished",
    ]);
    expect(finished(events).outputs).toEqual({ query: "test event sequence" });
  });

  it("an Answer behind an if-else waits for the branch; a skipped node's segment is dropped and the text after it follows", async () => {
    const document = difyApp(
      [
        { id: "start", type: "start", variables: [{ variable: "n", label: "n", type: "number", required: true }] },
        {
          id: "branch",
          type: "if-else",
          cases: [{ case_id: "true", logical_operator: "and", conditions: [{ variable_selector: ["start", "n"], comparison_operator: ">", value: "5" }] }],
        },
        template("big", "big"),
        template("small", "small"),
        { id: "ans", type: "answer", answer: "pre {{#big.output#}}{{#small.output#}} post" },
      ],
      [edge("start", "branch"), edge("branch", "big", "true"), edge("branch", "small", "false"), edge("big", "ans"), edge("small", "ans")],
      { mode: "advanced-chat" },
    );
    const high = await run(document, { query: "x", inputs: { n: 9 } });
    expect(sequence(high)).toEqual([
      "workflow_started",
      "started:start",
      "finished:start",
      "started:branch",
      // The branch is decided: the Answer's turn begins, its text goes out before the if-else's node_finished.
      "message:pre ",
      "finished:branch",
      "started:big",
      // big's output, then small (skipped) is dropped and the rest follows.
      "message:big",
      "message: post",
      "finished:big",
      "started:ans",
      "finished:ans",
      "message_end",
      "workflow_finished",
    ]);
    const low = await run(document, { query: "x", inputs: { n: 1 } });
    expect(sequence(low)).toEqual([
      "workflow_started",
      "started:start",
      "finished:start",
      "started:branch",
      // big is skipped with the branch: its segment is dropped at once, small's waits.
      "message:pre ",
      "finished:branch",
      "started:small",
      "message:small",
      "message: post",
      "finished:small",
      "started:ans",
      "finished:ans",
      "message_end",
      "workflow_finished",
    ]);
  });

  it("an Answer before the branch streams its text from the start; the text after an undecided node waits for it", async () => {
    const document = difyApp(
      [
        { id: "start", type: "start", variables: [] },
        template("slow", "S"),
        { id: "ans", type: "answer", answer: "Hello {{#sys.query#}}: {{#slow.output#}}!" },
      ],
      [edge("start", "slow"), edge("slow", "ans")],
      { mode: "advanced-chat" },
    );
    const events = await run(document, { query: "Ann" });
    expect(sequence(events)).toEqual([
      "workflow_started",
      // No branch on the way: the Answer's turn begins with the run; text and sys.* at once.
      "message:Hello ",
      "message:Ann",
      "message:: ",
      "started:start",
      "finished:start",
      "started:slow",
      "message:S",
      "message:!",
      "finished:slow",
      "started:ans",
      "finished:ans",
      "message_end",
      "workflow_finished",
    ]);
  });

  it("two End outputs stream each in turn, joined by a line break, as each node succeeds", async () => {
    const mock = await startMockLlm({ rules: [{ on: "any", match: ".", reply: "alpha beta" }] });
    const document = difyApp(
      [
        { id: "start", type: "start", variables: [] },
        llm("llm"),
        template("tt", "done"),
        { id: "end", type: "end", outputs: [{ variable: "text", value_selector: ["llm", "text"] }, { variable: "note", value_selector: ["tt", "output"] }] },
      ],
      [edge("start", "llm"), edge("llm", "tt"), edge("tt", "end")],
    );
    const events = await run(document, { inputs: {} }, { llm: mock.provider });
    expect(sequence(events)).toEqual([
      "workflow_started",
      "started:start",
      "finished:start",
      "started:llm",
      "message:alpha ",
      "message:beta",
      "message:\n",
      "finished:llm",
      "started:tt",
      "message:done",
      "finished:tt",
      "started:end",
      "finished:end",
      "message_end",
      "workflow_finished",
    ]);
  });

  it.each([
    // blocking = 1: LLM -> template -> End: three chunks (the query, the End's line break, the template's output).
    [1, ["message:Hello, how are you?", "message:\n", "finished:1754296900311", "started:1754239044238", "finished:1754239044238", "started:1754296914925", "message:mock one two", "finished:1754296914925", "started:1754239058707", "finished:1754239058707"]],
    // blocking = 2: LLM -> End: the query, the line break, then the model's chunks live.
    [2, ["message:Hello, how are you?", "message:\n", "finished:1754296900311", "started:17542969329740", "message:mock ", "message:one ", "message:two", "finished:17542969329740", "started:1754296943402", "finished:1754296943402"]],
  ])("Dify's conditional_streaming_vs_template_workflow (corpus), blocking = %i: the chunks of Dify's test, before the first LLM succeeds", async (blocking, after) => {
    const mock = await startMockLlm({ rules: [{ on: "any", match: "[\\s\\S]*", reply: "mock one two" }] });
    const document = parseDifyYaml(readFileSync(corpusPath("dify", "conditional_streaming_vs_template_workflow.yml"), "utf8"));
    const events = await run(document as Record<string, unknown>, { inputs: { query: "Hello, how are you?", blocking } }, { llm: mock.provider });
    expect(sequence(events)).toEqual([
      "workflow_started",
      "started:1754239042599",
      "finished:1754239042599",
      "started:1754296900311",
      // The branch is decided: the End's query and its line break go out before the if-else's node_finished.
      ...after,
      "message_end",
      "workflow_finished",
    ]);
  });
});
