/**
 * What components do outside, as child spans of their component's span (issue 29): model calls
 * (`chat <model>`, GenAI attributes and the mock LLM's token counts), an Agent's tool calls
 * (`execute_tool <name>`), Retrieval's search (`canvasflow.retrieval`), Invoke's request
 * (`<METHOD>`, HTTP client attributes) and CodeExec (`canvasflow.code_exec`); prompts and
 * completions only when the operator turns it on, bounded.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { MockLlmScript } from "../../src/llm/index.js";
import { spanUrl } from "../../src/components/http/request.js";
import { canvasDsl, finished, lastEvent, node } from "../helpers/dsl.js";
import { standIn } from "../helpers/http.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { componentLabel, registerTestTracing, spanTree, theSpan, type TestTracing } from "../helpers/span-tree.js";

// A copy: searching a folder writes its index beside it.
const KB_DIR = mkdtempSync(path.join(tmpdir(), "canvasflow-kb-spans-"));
cpSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/kb"), KB_DIR, { recursive: true });
afterAll(() => rmSync(KB_DIR, { recursive: true, force: true }));

let tracing: TestTracing | undefined;

afterEach(async () => {
  await tracing?.unregister();
  tracing = undefined;
});

const KNOWLEDGE = { shop: { type: "local" as const, dir: KB_DIR } };

async function servicesWith(script: MockLlmScript | undefined, extra: Record<string, unknown> = {}) {
  const mock = await startMockLlm(script);
  return { llm: mock.provider, http: { allowPrivateNetwork: true }, tools: { knowledgeBases: KNOWLEDGE, endpoints: {}, env: {} }, ...extra };
}

describe("child spans of components", () => {
  it("an Agent calling a Retrieval tool, a Retrieval node and an Iteration of Invoke requests: the whole tree", async () => {
    tracing = registerTestTracing();
    const target = await standIn((request, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`got ${request.query.item}`));
    const script: MockLlmScript = {
      rules: [
        { match: "how fast", tool_calls: [{ name: "search_my_dateset_0", arguments: { query: "express delivery" } }] },
        { match: "Express delivery", on: "tool", reply: "Express takes one working day." },
      ],
    };
    const dsl = canvasDsl(
      {
        begin: node("Begin", {}, ["Retrieval:KB"]),
        "Retrieval:KB": node("Retrieval", { query: "sys.query", kb_ids: ["shop"], top_n: 2 }, ["Agent:A"]),
        "Agent:A": node(
          "Agent",
          {
            llm_id: "mock@Mock",
            sys_prompt: "You answer about the shop.",
            prompts: [{ role: "user", content: "{sys.query}" }],
            tools: [{ component_name: "Retrieval", name: "Retrieval", params: { kb_ids: ["shop"], top_n: 3 } }],
            max_rounds: 2,
          },
          ["Iteration:I"],
        ),
        "Iteration:I": node("Iteration", { items_ref: "env.items", outputs: { answers: { ref: "Invoke:Call@result", type: "Array<string>" } } }, ["Message:M"]),
        "IterationItem:I": node("IterationItem", {}, ["Invoke:Call"], { parent_id: "Iteration:I" }),
        "Invoke:Call": node("Invoke", { url: `${target.base}/lookup?api_key=s3cret`, method: "get", variables: [{ key: "item", ref: "IterationItem:I@item" }] }, [], { parent_id: "Iteration:I" }),
        "Message:M": node("Message", { content: ["{Agent:A@content} {Iteration:I@answers}"] }),
      },
      { variables: { items: { name: "items", type: "array<string>", value: ["a", "b"] } } },
    );
    const canvas = await loadCanvas(dsl, { services: await servicesWith(script) });
    const events = await canvas.runToEnd({ query: "how fast is shipping?" });
    expect(finished(events).error).toBeUndefined();
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual([
      "canvasflow.run",
      "  canvasflow.component Begin [begin]",
      "  canvasflow.component Retrieval [Retrieval:KB]",
      "    canvasflow.retrieval",
      "  canvasflow.component Agent [Agent:A]",
      "    chat mock",
      "    execute_tool search_my_dateset_0",
      "      canvasflow.retrieval",
      "    chat mock",
      "  canvasflow.component Iteration [Iteration:I]",
      "  canvasflow.component IterationItem [IterationItem:I #0]",
      "  canvasflow.component Invoke [Invoke:Call #0]",
      "    GET",
      "  canvasflow.component IterationItem [IterationItem:I #1]",
      "  canvasflow.component Invoke [Invoke:Call #1]",
      "    GET",
      "  canvasflow.component IterationItem [IterationItem:I #2]",
      "  canvasflow.component Message [Message:M]",
    ]);

    // The model calls: GenAI attributes and the mock's word counts (the run's usage is their sum).
    const chats = spans.filter((s) => s.name === "chat mock");
    expect(chats.map((s) => s.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    const usage = finished(events).usage;
    const input = chats.reduce((n, s) => n + Number(s.attributes["gen_ai.usage.input_tokens"]), 0);
    const output = chats.reduce((n, s) => n + Number(s.attributes["gen_ai.usage.output_tokens"]), 0);
    expect({ input, output }).toEqual({ input: usage.prompt_tokens, output: usage.completion_tokens });
    expect(chats[0].attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "mock",
      "gen_ai.response.finish_reasons": ["tool_calls"],
      "gen_ai.usage.input_tokens": chats[0].attributes["gen_ai.usage.input_tokens"],
      "gen_ai.usage.output_tokens": chats[0].attributes["gen_ai.usage.output_tokens"],
    });
    expect(chats[0].attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    // Content is recorded only when the operator turns it on.
    expect(chats.some((s) => "gen_ai.prompt" in s.attributes || "gen_ai.completion" in s.attributes)).toBe(false);
    // The component's span carries the tokens of all its calls.
    const agent = theSpan(spans, "canvasflow.component Agent");
    expect(agent.attributes["gen_ai.usage.input_tokens"]).toBe(input);
    expect(agent.attributes["gen_ai.usage.output_tokens"]).toBe(output);

    const tool = theSpan(spans, "execute_tool search_my_dateset_0");
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(tool.attributes).toEqual({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search_my_dateset_0", "gen_ai.tool.call.id": "call_mock_1_0" });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);

    const [nodeSearch, toolSearch] = spans.filter((s) => s.name === "canvasflow.retrieval").sort((a, b) => (a.parentSpanContext?.spanId === tool.spanContext().spanId ? 1 : 0) - (b.parentSpanContext?.spanId === tool.spanContext().spanId ? 1 : 0));
    const shown = (id: string) => {
      const done = events.find((e) => e.event === "node_finished" && e.data.component_id === id);
      return done?.event === "node_finished" ? (done.data.outputs.json as unknown[]).length : -1;
    };
    expect(nodeSearch.attributes).toEqual({ "canvasflow.retrieval.kb_ids": ["shop"], "canvasflow.retrieval.top_n": 2, "canvasflow.retrieval.chunks": shown("Retrieval:KB") });
    expect(nodeSearch.attributes["canvasflow.retrieval.chunks"]).toBeGreaterThan(0);
    expect(toolSearch.attributes).toMatchObject({ "canvasflow.retrieval.kb_ids": ["shop"], "canvasflow.retrieval.top_n": 3 });
    expect(toolSearch.attributes["canvasflow.retrieval.chunks"]).toBeGreaterThan(0);

    const gets = spans.filter((s) => s.name === "GET");
    expect(gets.map((s) => s.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(gets[0].attributes).toEqual({
      "http.request.method": "GET",
      "url.full": `${target.base}/lookup?api_key=REDACTED&item=a`,
      "server.address": "127.0.0.1",
      "server.port": target.port,
      "http.response.status_code": 200,
    });
    expect(target.requests.map((r) => r.query)).toEqual([
      { api_key: "s3cret", item: "a" },
      { api_key: "s3cret", item: "b" },
    ]);
    expect(theSpan(spans, "canvasflow.component Invoke", { "canvasflow.round": 1 }).attributes).toMatchObject({ "canvasflow.container_id": "Iteration:I", "canvasflow.status": "ok" });

    const started = events[0];
    expect(started.event === "workflow_started" && started.data.trace_id).toBe(theSpan(spans, "canvasflow.run").spanContext().traceId);
  });

  it("a streamed LLM answer: its model call lasts until the Message has read it; prompt and completion recorded when turned on, bounded", async () => {
    tracing = registerTestTracing();
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["LLM:A"]),
      "LLM:A": node("LLM", { llm_id: "mock@Mock", sys_prompt: "Be brief.", prompts: [{ role: "user", content: "{sys.query}" }], temperature: 0.3, temperatureEnabled: true }, ["Message:M"]),
      "Message:M": node("Message", { content: ["{LLM:A@content}"] }),
    });
    const canvas = await loadCanvas(dsl, { services: await servicesWith({ rules: [{ match: "hello", reply: "Hello there, how can I help you today?" }] }, { tracing: { recordContent: true, contentLimit: 30 } }) });
    const events = await canvas.runToEnd({ query: "hello" });
    expect(finished(events).error).toBeUndefined();
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual([
      "canvasflow.run",
      "  canvasflow.component Begin [begin]",
      "  canvasflow.component LLM [LLM:A]",
      "    chat mock",
      "  canvasflow.component Message [Message:M]",
    ]);
    const chat = theSpan(spans, "chat mock");
    const usage = finished(events).usage;
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "mock",
      "gen_ai.request.temperature": 0.3,
      "gen_ai.response.finish_reasons": ["stop"],
      "gen_ai.usage.input_tokens": usage.prompt_tokens,
      "gen_ai.usage.output_tokens": usage.completion_tokens,
    });
    const prompt = String(chat.attributes["gen_ai.prompt"]);
    const completion = String(chat.attributes["gen_ai.completion"]);
    expect(prompt).toHaveLength(30);
    expect(prompt).toBe(`${JSON.stringify([{ role: "system", content: "Be brief." }, { role: "user", content: "hello" }]).slice(0, 29)}…`);
    expect(completion).toBe(`${JSON.stringify([{ role: "assistant", content: "Hello there, how can I help you today?" }]).slice(0, 29)}…`);
    // The LLM's span ends with its node_finished, once its stream was read.
    expect(spans.indexOf(chat)).toBeLessThan(spans.indexOf(theSpan(spans, "canvasflow.component LLM")));
    expect(theSpan(spans, "canvasflow.component LLM").attributes).toMatchObject({ "gen_ai.usage.input_tokens": usage.prompt_tokens, "gen_ai.usage.output_tokens": usage.completion_tokens });
  });

  it("a failing model call fails its span, its component's and the run's", async () => {
    tracing = registerTestTracing();
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["LLM:A"]),
      "LLM:A": node("LLM", { llm_id: "mock@Mock", prompts: [{ role: "user", content: "{sys.query}" }] }),
    });
    const canvas = await loadCanvas(dsl, { services: await servicesWith({ rules: [{ match: "", status: 400, message: "bad request body" }] }) });
    const events = await canvas.runToEnd({ query: "hello" });
    const error = finished(events).error;
    expect(error).toContain("bad request body");
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual(["canvasflow.run", "  canvasflow.component Begin [begin]", "  canvasflow.component LLM [LLM:A]", "    chat mock"]);
    const chat = theSpan(spans, "chat mock");
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(String(chat.attributes["canvasflow.error"])).toContain("bad request body");
    expect(chat.events.map((e) => e.name)).toEqual(["exception"]);
    expect(theSpan(spans, "canvasflow.component LLM").attributes["canvasflow.status"]).toBe("error");
    expect(theSpan(spans, "canvasflow.run").status).toEqual({ code: SpanStatusCode.ERROR, message: error });
  });

  it("an Invoke answered 500: its request span and its component fail", async () => {
    tracing = registerTestTracing();
    const target = await standIn((_request, res) => res.writeHead(500, { "content-type": "text/plain" }).end("down"));
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Invoke:Post"]),
      "Invoke:Post": node("Invoke", { url: `http://user:pw@127.0.0.1:${target.port}/hook`, method: "post", variables: [{ key: "q", value: "x" }] }),
    });
    const canvas = await loadCanvas(dsl, { services: await servicesWith(undefined) });
    const events = await canvas.runToEnd({});
    expect(lastEvent(events).event).toBe("workflow_finished");
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual(["canvasflow.run", "  canvasflow.component Begin [begin]", "  canvasflow.component Invoke [Invoke:Post]", "    POST"]);
    const post = theSpan(spans, "POST");
    expect(post.attributes).toEqual({
      "http.request.method": "POST",
      "url.full": `http://REDACTED:REDACTED@127.0.0.1:${target.port}/hook`,
      "server.address": "127.0.0.1",
      "server.port": target.port,
      "http.response.status_code": 500,
      "error.type": "500",
      "canvasflow.error": "HTTP 500 Internal Server Error",
    });
    expect(post.status).toEqual({ code: SpanStatusCode.ERROR, message: "HTTP 500 Internal Server Error" });
    expect(theSpan(spans, "canvasflow.component Invoke").attributes).toMatchObject({ "canvasflow.status": "error", "canvasflow.error": expect.stringContaining("HTTP 500") });
  });

  it("CodeExec's script is a canvasflow.code_exec span with its language", async () => {
    tracing = registerTestTracing();
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["CodeExec:Double"]),
      "CodeExec:Double": node("CodeExec", { lang: "javascript", script: "function main() { return 42; }", arguments: {}, outputs: { result: { type: "Number", value: "" } } }),
    });
    const canvas = await loadCanvas(dsl, { services: await servicesWith(undefined) });
    const events = await canvas.runToEnd({});
    expect(finished(events).error).toBeUndefined();
    const spans = tracing.spans();
    expect(spanTree(spans, componentLabel)).toEqual(["canvasflow.run", "  canvasflow.component Begin [begin]", "  canvasflow.component CodeExec [CodeExec:Double]", "    canvasflow.code_exec"]);
    expect(theSpan(spans, "canvasflow.code_exec").attributes).toEqual({ "canvasflow.code_exec.language": "javascript" });
  });
});

describe("spanUrl", () => {
  it("keeps a URL without credentials as it is, and redacts a user, a password and secret query values", () => {
    expect(spanUrl(new URL("https://api.example.com/v1/x?q=a&page=2"))).toBe("https://api.example.com/v1/x?q=a&page=2");
    expect(spanUrl(new URL("https://me:pw@api.example.com/x"))).toBe("https://REDACTED:REDACTED@api.example.com/x");
    expect(spanUrl(new URL("https://api.example.com/x?token=t&q=a&Signature=s&key=k"))).toBe("https://api.example.com/x?token=REDACTED&q=a&Signature=REDACTED&key=REDACTED");
  });
});
