/**
 * The exact checks of research/dify-import.md §3: each Dify fixture that states its output (in
 * `app.description` or in the Dify test that asserts it) run through `canvasflow run`, with the
 * mock LLM script the spec gives (fixtures/dify/mock-llm-script.json) where a model answers.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CanvasEvent } from "../../src/engine/events.js";
import { cli } from "../helpers/cli.js";
import { corpusPath } from "../helpers/corpus.js";

const MOCK_SCRIPT = join(import.meta.dirname, "../../fixtures/dify/mock-llm-script.json");

function fixture(file: string): string {
  return corpusPath("dify", file);
}

interface Finished {
  code: number;
  events: CanvasEvent[];
  outputs: Record<string, unknown>;
  status: unknown;
  messages: string[];
  stderr: string;
}

/** `canvasflow run FILE ARGS --events ndjson` (with the mock LLM when asked), read back. */
async function run(file: string, args: string[], mock = false): Promise<Finished> {
  const result = await cli(["run", fixture(file), ...args, ...(mock ? ["--mock-llm-script", MOCK_SCRIPT] : []), "--events", "ndjson"]);
  const events = result.events;
  const last = events.at(-1);
  if (last?.event !== "workflow_finished") throw new Error(`no workflow_finished (exit ${result.code}): ${result.stderr}`);
  return {
    code: result.code,
    events,
    outputs: last.data.outputs,
    status: (last.data as unknown as Record<string, unknown>).status,
    messages: events.flatMap((e) => (e.event === "message" ? [e.data.content] : [])),
    stderr: result.stderr,
  };
}

const started = (events: CanvasEvent[], id: string) => events.filter((e) => e.event === "node_started" && e.data.component_id === id).length;

describe("Dify fixtures without a model", () => {
  it.each([
    ["hello world", { true: "hello world" }],
    ["Hello world", { false: "Hello world" }],
    ["", { false: "" }],
  ])("conditional_hello_branching: %j → only the branch taken (case-sensitive contains)", async (query, expected) => {
    const finished = await run("conditional_hello_branching_workflow.yml", ["--inputs", JSON.stringify({ query })]);
    expect(finished.code).toBe(0);
    expect(finished.outputs).toEqual(expected);
    expect(finished.status).toBe("succeeded");
  });

  it("conditional_parallel_code_execution: switch 1 joins Code 1 and Code 2 once; Code 3 is skipped (null)", async () => {
    const finished = await run("conditional_parallel_code_execution_workflow.yml", ["--inputs", '{"switch":1}']);
    expect(finished.outputs).toEqual({ 1: "Code 1", 2: "Code 2", 3: null });
    expect(started(finished.events, "17542307611100")).toBe(1);
    expect(started(finished.events, "1754230796033")).toBe(1);
    expect(started(finished.events, "17542307643480")).toBe(0);
  });

  it("conditional_parallel_code_execution: switch 0 runs Code 2 and Code 3", async () => {
    const finished = await run("conditional_parallel_code_execution_workflow.yml", ["--inputs", '{"switch":0}']);
    expect(finished.outputs).toEqual({ 1: null, 2: "Code 2", 3: "Code 3" });
  });

  it.each([
    [1, 0],
    [0, 0],
    [0, 1],
    [1, 1],
  ])("dual_switch_variable_aggregator: switch1=%i switch2=%i", async (a, b) => {
    const finished = await run("dual_switch_variable_aggregator_workflow.yml", ["--inputs", JSON.stringify({ switch1: a, switch2: b })]);
    expect(finished.outputs).toEqual({ group1: `switch 1 ${a ? "on" : "off"}`, group2: `switch 2 ${b ? "on" : "off"}` });
  });

  it("end_node_without_value_type_field", async () => {
    const finished = await run("end_node_without_value_type_field_workflow.yml", ["--inputs", '{"query":"test query"}']);
    expect(finished.outputs).toEqual({ query: "test query" });
  });

  it("increment_loop_with_break_condition: num 5, the loop's node_finished shows loop_round 4", async () => {
    const finished = await run("increment_loop_with_break_condition_workflow.yml", []);
    expect(finished.outputs).toEqual({ num: 5 });
    const loop = finished.events.find((e) => e.event === "node_finished" && e.data.component_type === "DifyLoop");
    expect(loop?.event === "node_finished" && loop.data.outputs.loop_round).toBe(4);
  });

  it("iteration_flatten_output_enabled: [1, 2, 2, 4, 3, 6]", async () => {
    const finished = await run("iteration_flatten_output_enabled_workflow.yml", []);
    expect(finished.outputs).toEqual({ output: [1, 2, 2, 4, 3, 6] });
  });

  it("parallel_iteration_formatting: the same ordered output in 5 runs out of 5", async () => {
    const outputs: unknown[] = [];
    for (let i = 0; i < 5; i++) outputs.push((await run("parallel_iteration_formatting_workflow.yml", [])).outputs);
    for (const output of outputs) expect(output).toEqual({ output: ["output: 1", "output: 2", "output: 3"] });
  });

  it("iteration_contains_answer: each round's answer streams, then the last one", async () => {
    const finished = await run("iteration_contains_answer.yml", ["--query", "hi"]);
    expect(finished.outputs).toEqual({ answer: "apple\nbanana\ndone" });
    expect(finished.messages).toEqual(["apple", "\n", "banana", "\n", "done"]);
  });

  it.each([
    ["1", "1\n2\n1 + 2"],
    ["hi", "1\n2\nhi + 2"],
  ])("loop_contains_answer: query %j", async (query, answer) => {
    const finished = await run("loop_contains_answer.yml", ["--query", query]);
    expect(finished.outputs).toEqual({ answer });
  });

  it("test_streaming_conversation_variables: the answer shows the query the assigner wrote", async () => {
    const finished = await run("test_streaming_conversation_variables.yml", ["--query", "Hello, this is my test query"]);
    expect(finished.outputs).toEqual({ answer: "Hello, this is my test query" });
  });

  it("test_streaming_conversation_variables_v1_overwrite: the streamed variable is the new value", async () => {
    const finished = await run("test_streaming_conversation_variables_v1_overwrite.yml", ["--query", "overwrite-value"]);
    expect(finished.outputs).toEqual({ answer: "Current Value Of `conv_var` is:overwrite-value" });
    expect(finished.messages.join("")).toBe("Current Value Of `conv_var` is:overwrite-value");
    expect(finished.messages).not.toContain("default");
  });

  it("update-conversation-variable-in-iteration: a write inside the iteration is seen after it", async () => {
    const finished = await run("update-conversation-variable-in-iteration.yml", ["--query", "ensure conversation variable syncs"]);
    expect(finished.outputs).toEqual({ answer: "ensure conversation variable syncs" });
  });

  it("builder_restricted__http_default_output: the DNS failure takes the default values; partial-succeeded, exit 0", async () => {
    const finished = await run("builder_restricted__http_default_output.yml", ["--inputs", '{"path":"resolved-secret"}']);
    expect(finished.code).toBe(0);
    expect(finished.outputs).toEqual({ status: 599, text: "denied default" });
    expect(finished.status).toBe("partial-succeeded");
    const last = finished.events.at(-1)!;
    expect((last.data as unknown as Record<string, unknown>).exceptions_count).toBe(1);
    // What the template resolved into the URL's path is not in any message.
    const http = finished.events.find((e) => e.event === "node_finished" && e.data.component_id === "http");
    expect(JSON.stringify(http)).not.toContain("resolved-secret/");
    expect(http?.event === "node_finished" && JSON.stringify(http.data.outputs)).not.toContain("resolved-secret");
  });

  it("chatflow_time_tool_static_output: the local time tool runs; one message", async () => {
    const finished = await run("chatflow_time_tool_static_output_workflow.yml", ["--query", "1"]);
    expect(finished.outputs).toEqual({ answer: "hello, dify!" });
    expect(finished.messages).toEqual(["hello, dify!"]);
    const tool = finished.events.find((e) => e.event === "node_finished" && e.data.component_type === "DifyTool");
    expect(tool?.event === "node_finished" && tool.data.outputs.text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("minimal_non_uuid_conversation_variable: valid, and runs to succeeded", async () => {
    const validated = await cli(["validate", fixture("minimal_non_uuid_conversation_variable.yml")]);
    expect(validated.code).toBe(0);
    const hello = await run("minimal_non_uuid_conversation_variable.yml", ["--query", "hello"]);
    expect(hello.status).toBe("succeeded");
    expect(hello.messages.join("")).toBe("- produced");
    const bye = await run("minimal_non_uuid_conversation_variable.yml", ["--query", "bye"]);
    expect(bye.messages.join("")).toBe("- ");
  });
});

describe("Dify fixtures with the mock LLM", () => {
  it("basic_chatflow: the answer is the model's", async () => {
    expect((await run("basic_chatflow.yml", ["--query", "hi"], true)).outputs).toEqual({ answer: "mocked llm text" });
  });

  it("graphon__slim_llm_graph (kind: graph): the answer is the model's", async () => {
    expect((await run("graphon__slim_llm_graph.yml", ["--query", "hi"], true)).outputs).toEqual({ answer: "mocked llm text" });
  });

  it("test-answer-order: answer 1 streams before the model's answer; the answers concatenate", async () => {
    const finished = await run("test-answer-order.yml", ["--query", ""], true);
    expect(finished.outputs).toEqual({ answer: "--- answer 1 ---\n\nfoo\n--- answer 2 ---\n\nmocked llm text\n" });
    expect(finished.messages[0]).toBe("--- answer 1 ---\n\nfoo\n");
    const llmDone = finished.events.findIndex((e) => e.event === "node_finished" && e.data.component_type === "DifyLLM");
    const firstMessage = finished.events.findIndex((e) => e.event === "message");
    expect(firstMessage).toBeLessThan(llmDone);
  });

  it.each([
    ["hello world", "contains 'hello'mocked llm text"],
    ["goodbye world", "mocked llm text"],
  ])("test_complex_branch: %j", async (query, answer) => {
    expect((await run("test_complex_branch.yml", ["--query", query], true)).outputs).toEqual({ answer });
  });

  it("response_stream_filter_issue_170: two chained models in one answer; the stream is the answer", async () => {
    const finished = await run("response_stream_filter_issue_170_workflow.yml", ["--query", "1"], true);
    const answer = "# Du Fu\n\nSpring View\n\n# Li Bai\n\nQuiet Night Thought";
    expect(finished.outputs).toEqual({ answer });
    expect(finished.messages.join("")).toBe(answer);
  });

  it("multilingual_parallel_llm_streaming: every Chinese chunk before any English one, though the Chinese model is slower", async () => {
    const finished = await run("multilingual_parallel_llm_streaming_workflow.yml", ["--query", "Tell me about yourself"], true);
    expect(finished.outputs).toEqual({ answer: "你好，我是AI助手。Hello, I am an AI assistant." });
    const chinese = finished.messages.map((m, i) => (/[\u4e00-\u9fff]/.test(m) ? i : -1)).filter((i) => i >= 0);
    const english = finished.messages.map((m, i) => (/[A-Za-z]/.test(m) && !/[\u4e00-\u9fff]/.test(m) ? i : -1)).filter((i) => i >= 0);
    expect(chinese.length).toBeGreaterThan(0);
    expect(english.length).toBeGreaterThan(0);
    expect(Math.max(...chinese)).toBeLessThan(Math.min(...english));
    // All chunks go out before the Answer node starts.
    const answerStart = finished.events.findIndex((e) => e.event === "node_started" && e.data.component_type === "DifyAnswer");
    const lastMessage = finished.events.map((e) => e.event).lastIndexOf("message");
    expect(lastMessage).toBeLessThan(answerStart);
  });

  it("conditional_streaming_vs_template blocking=1: the End streams the query, a line break and the template's whole text", async () => {
    const finished = await run("conditional_streaming_vs_template_workflow.yml", ["--inputs", '{"query":"Hello, how are you?","blocking":1}'], true);
    expect(finished.outputs).toEqual({ query: "Hello, how are you?", text: "mocked llm text" });
    expect(finished.messages).toEqual(["Hello, how are you?", "\n", "mocked llm text"]);
  });

  it("conditional_streaming_vs_template blocking=2: End 2 streams the query, a line break, then the model's chunks", async () => {
    const finished = await run("conditional_streaming_vs_template_workflow.yml", ["--inputs", '{"query":"Hello, how are you?","blocking":2}'], true);
    expect(finished.outputs).toEqual({ query: "Hello, how are you?", text: "mocked llm text" });
    expect(finished.messages.slice(0, 2)).toEqual(["Hello, how are you?", "\n"]);
    expect(finished.messages.slice(2).join("")).toBe("mocked llm text");
  });
});
