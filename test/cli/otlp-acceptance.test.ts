/**
 * Issue 29's acceptance, through the built CLI and a loopback OTLP/HTTP receiver: a canvas with a
 * Retrieval over a --kb folder, an Agent that calls its Retrieval tool (the mock LLM calls the
 * first offered tool once, then answers) and an Iteration over two items gives exactly the
 * expected span tree (names, parents, kinds, statuses and attributes), the same over protobuf
 * (`--otlp`) and JSON (the config's `tracing` section), in one trace whose id is
 * workflow_started's trace_id, with the model calls' token counts adding up to the run's usage.
 * And the same canvas completed through `serve --queue` and a `worker`, both exporting: one
 * trace, the server's request span its root, the worker's `canvasflow.run` its child, the
 * components under the run.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canvasDsl, node } from "../helpers/dsl.js";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan, type ReceivedValue } from "../helpers/otlp-receiver.js";
import { clearQueueTest, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";
import { RunQueue } from "../../src/worker/run-queue.js";

const scratch = scratchDir("canvasflow-otlp-accept-");
// A copy: searching a folder writes its index beside it.
const KB_DIR = join(scratch.dir, "kb");
cpSync("test/fixtures/kb", KB_DIR, { recursive: true });

const dsl = canvasDsl(
  {
    begin: node("Begin", {}, ["Retrieval:KB"]),
    "Retrieval:KB": node("Retrieval", { query: "sys.query", kb_ids: ["shop"], top_n: 2 }, ["Agent:A"], { upstream: ["begin"] }),
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
      { upstream: ["Retrieval:KB"] },
    ),
    "Iteration:I": node("Iteration", { items_ref: "env.items", outputs: { tags: { ref: "StringTransform:T@result", type: "Array<string>" } } }, ["Message:M"], { upstream: ["Agent:A"] }),
    "IterationItem:I": node("IterationItem", {}, ["StringTransform:T"], { parent_id: "Iteration:I" }),
    "StringTransform:T": node("StringTransform", { method: "merge", script: "<{item}>" }, [], { upstream: ["IterationItem:I"], parent_id: "Iteration:I" }),
    "Message:M": node("Message", { content: ["{Agent:A@content} {Iteration:I@tags}"] }, [], { upstream: ["Iteration:I"] }),
  },
  { variables: { items: { name: "items", type: "array<string>", value: ["a", "b"] } } },
);
const canvas = scratch.write("canvas.json", dsl);
const QUERY = "how fast is shipping?";

/** The test process's environment without any OTEL_* variable. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("OTEL_")));
}

interface Tree {
  name: string;
  kind: number;
  status: number;
  attributes: Record<string, ReceivedValue>;
  children: Tree[];
}

/**
 * The spans as a tree from `root`: each span's children in the order they were received, which
 * is the order they ended (a batch exports spans as they end; the spans here end one after the
 * other, so the order is fixed; an Iteration's span ends after its rounds).
 */
function treeOf(spans: readonly ReceivedSpan[], root: ReceivedSpan): Tree {
  return {
    name: root.name,
    kind: root.kind,
    status: root.status.code,
    attributes: root.attributes,
    children: spans.filter((span) => span.parentSpanId === root.spanId).map((child) => treeOf(spans, child)),
  };
}

const INTERNAL = 1;
const CLIENT = 3;

/** A component execution's span. */
function component(type: string, id: string, children: Tree[] = [], extra: Record<string, ReceivedValue> = {}): Tree {
  const attributes = { "canvasflow.component_id": id, "canvasflow.component_name": id, "canvasflow.component_type": type, ...extra, "canvasflow.status": "ok" };
  return { name: `canvasflow.component ${type}`, kind: INTERNAL, status: 0, attributes, children };
}

/** A component run in round `round` of the Iteration. */
const inRound = (type: string, id: string, round: number) => component(type, id, [], { "canvasflow.container_id": "Iteration:I", "canvasflow.round": round });

const retrieval = (topN: number, chunks: number): Tree => ({
  name: "canvasflow.retrieval",
  kind: INTERNAL,
  status: 0,
  attributes: { "canvasflow.retrieval.kb_ids": ["shop"], "canvasflow.retrieval.top_n": topN, "canvasflow.retrieval.chunks": chunks },
  children: [],
});

const chat = (finish: string, tokens: { input: number; output: number }): Tree => ({
  name: "chat mock",
  kind: CLIENT,
  status: 0,
  attributes: {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "mock",
    "gen_ai.response.finish_reasons": [finish],
    "gen_ai.usage.input_tokens": tokens.input,
    "gen_ai.usage.output_tokens": tokens.output,
  },
  children: [],
});

/** The model calls' token counts, as the spans report them (checked against the run's usage by the caller). */
function chatTokens(spans: readonly ReceivedSpan[]): Array<{ input: number; output: number }> {
  return spans.filter((span) => span.name === "chat mock").map((span) => ({ input: Number(span.attributes["gen_ai.usage.input_tokens"]), output: Number(span.attributes["gen_ai.usage.output_tokens"]) }));
}

/**
 * The run's expected tree: `run` is the run span's own attributes (task and message ids), the
 * token counts are each model call's, `usage` their sum (the run's usage, which the Agent's span
 * carries), the Retrieval node shows 2 chunks (top_n 2) and the tool's search 3 (top_n 3).
 */
function expectedRun(run: Record<string, ReceivedValue>, tokens: Array<{ input: number; output: number }>, usage: { prompt_tokens: number; completion_tokens: number }): Tree {
  return {
    name: "canvasflow.run",
    kind: INTERNAL,
    status: 0,
    attributes: { ...run, "canvasflow.status": "ok" },
    children: [
      component("Begin", "begin"),
      component("Retrieval", "Retrieval:KB", [retrieval(2, 2)]),
      component(
        "Agent",
        "Agent:A",
        [
          chat("tool_calls", tokens[0]),
          {
            name: "execute_tool search_my_dateset_0",
            kind: INTERNAL,
            status: 0,
            attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search_my_dateset_0", "gen_ai.tool.call.id": "call_mock_1_0" },
            children: [retrieval(3, 3)],
          },
          chat("stop", tokens[1]),
        ],
        { "gen_ai.usage.input_tokens": usage.prompt_tokens, "gen_ai.usage.output_tokens": usage.completion_tokens },
      ),
      inRound("IterationItem", "IterationItem:I", 0),
      inRound("StringTransform", "StringTransform:T", 0),
      inRound("IterationItem", "IterationItem:I", 1),
      inRound("StringTransform", "StringTransform:T", 1),
      // The round that finds the list done.
      inRound("IterationItem", "IterationItem:I", 2),
      component("Iteration", "Iteration:I"),
      component("Message", "Message:M"),
    ],
  };
}

interface RunEvent {
  event: string;
  task_id: string;
  message_id: string;
  data: { trace_id?: string; error?: string; usage?: { prompt_tokens: number; completion_tokens: number }; outputs?: { content?: string } };
}

/** Runs the canvas with the built CLI, `args` turning tracing on; its events and the spans received. */
async function tracedRun(tracing: (receiver: OtlpReceiver) => string[]): Promise<{ events: RunEvent[]; spans: ReceivedSpan[]; contentTypes: string[] }> {
  const receiver = await startOtlpReceiver();
  const child = spawnCli(["run", canvas, "--query", QUERY, "--mock-llm", "--kb", `shop=${KB_DIR}`, "--events", "ndjson", ...tracing(receiver)], { env: cleanEnv() });
  const { code } = await child.exited;
  expect(code, child.stderr()).toBe(0);
  const events = child
    .stdout()
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as RunEvent);
  return { events, spans: receiver.spans(), contentTypes: [...new Set(receiver.requests.map((request) => request.contentType))] };
}

function checkRun(events: RunEvent[], spans: ReceivedSpan[]): Tree {
  const [started] = events;
  const done = events.at(-1)!;
  expect(started.event).toBe("workflow_started");
  expect(done.event).toBe("workflow_finished");
  expect(done.data.error).toBeUndefined();
  // The Agent's answer says the tool returned something from the knowledge base; the Iteration's list follows.
  expect(done.data.outputs?.content).toMatch(/\| tool search_my_dateset_0 returned: .*shipping\.txt.* \["<a>","<b>"\]$/s);

  // One trace, workflow_started's.
  expect(started.data.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([started.data.trace_id]));
  const roots = spans.filter((span) => span.parentSpanId === "");
  expect(roots.map((span) => span.name)).toEqual(["canvasflow.run"]);
  // Every span is in the tree (none has a parent that was not received).
  const ids = new Set(spans.map((span) => span.spanId));
  expect(spans.filter((span) => span.parentSpanId !== "" && !ids.has(span.parentSpanId))).toEqual([]);
  expect(new Set(spans.map((span) => span.scope))).toEqual(new Set(["canvasflow"]));

  // The model calls' tokens are the mock's usage: their sum is the run's.
  const usage = done.data.usage!;
  const tokens = chatTokens(spans);
  expect(tokens).toHaveLength(2);
  for (const call of tokens) expect(call.input > 0 && call.output > 0, JSON.stringify(call)).toBe(true);
  expect({ input: tokens[0].input + tokens[1].input, output: tokens[0].output + tokens[1].output }).toEqual({ input: usage.prompt_tokens, output: usage.completion_tokens });

  const tree = treeOf(spans, roots[0]);
  const run = { "canvasflow.task_id": started.task_id, "canvasflow.session_id": started.task_id, "canvasflow.message_id": started.message_id };
  expect(tree).toEqual(expectedRun(run, tokens, usage));
  return tree;
}

/** The tree with the run's own ids taken out. */
function withoutIds(tree: Tree): Tree {
  const ids = ["canvasflow.task_id", "canvasflow.session_id", "canvasflow.message_id"];
  return { ...tree, attributes: Object.fromEntries(Object.entries(tree.attributes).filter(([key]) => !ids.includes(key))), children: tree.children.map(withoutIds) };
}

describe("issue 29's acceptance: a canvas with a Retrieval, an Agent calling a tool and an Iteration, exported over OTLP/HTTP", () => {
  it("protobuf (--otlp) and JSON (the config's tracing section): exactly the expected tree, the same for both, in workflow_started's trace, tokens from the mock's usage", async () => {
    const protobuf = await tracedRun((receiver) => ["--otlp", receiver.base]);
    expect(protobuf.contentTypes).toEqual(["application/x-protobuf"]);
    const protobufTree = checkRun(protobuf.events, protobuf.spans);

    const json = await tracedRun((receiver) => ["--config", scratch.write("json.config.json", { tracing: { endpoint: receiver.url, protocol: "http/json" } })]);
    expect(json.contentTypes).toEqual(["application/json"]);
    const jsonTree = checkRun(json.events, json.spans);

    // The same tree; the token counts are the same too (the same prompts to the same mock), only the run's ids differ.
    expect(withoutIds(jsonTree)).toEqual(withoutIds(protobufTree));
    expect(jsonTree.attributes["canvasflow.task_id"]).not.toBe(protobufTree.attributes["canvasflow.task_id"]);
  });
});

describe("issue 29's acceptance: the same run through serve --queue and a worker", () => {
  const prefix = uniqueTestPrefix();
  const children: CliProcess[] = [];
  const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: "accept" });
  afterAll(async () => {
    for (const child of children) if (child.child.exitCode === null) child.child.kill("SIGKILL");
    await Promise.all(children.map((child) => child.exited));
    await clearQueueTest([], [queue], prefix);
  }, 60_000);

  async function started(args: string[], ready: RegExp): Promise<{ child: CliProcess; match: RegExpExecArray }> {
    const child = spawnCli(args, { env: cleanEnv() });
    children.push(child);
    for (let i = 0; i < 600; i++) {
      const match = ready.exec(child.stderr());
      if (match) return { child, match };
      if (child.child.exitCode !== null) throw new Error(`exited (${child.child.exitCode}): ${child.stderr()}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error(`not ready within 30 s: ${child.stderr()}`);
  }

  it("one trace: the server's request span is the root (no client traceparent), canvasflow.run from the worker its child, the components under the run", async () => {
    const receiver = await startOtlpReceiver();
    const server = await started(
      ["serve", "--port", "0", "--queue", TEST_REDIS_URL, "--redis-prefix", prefix, "--queue-name", "accept", "--grace", "0", "--log-level", "warn", "--otlp", receiver.base],
      /serving RAGFlow's agent API at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/,
    );
    const worker = await started(
      ["worker", "--redis", TEST_REDIS_URL, "--prefix", prefix, "--queue", "accept", "--mock-llm", "--kb", `shop=${KB_DIR}`, "--otlp", receiver.base],
      /takes runs from the queue/,
    );

    const base = server.match[1];
    const post = async (path: string, body: unknown) =>
      (await (await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as {
        code: number;
        message?: string;
        data: { id: string; data?: { content?: string } };
      };
    const created = await post("/api/v1/agents", { title: "accept", dsl });
    expect(created.code, created.message).toBe(0);
    const answer = await post(`/api/v1/agents/${created.data.id}/completions`, { question: QUERY });
    expect(answer.code, answer.message).toBe(0);
    expect(answer.data.data?.content).toMatch(/\| tool search_my_dateset_0 returned: .*shipping\.txt.* \["<a>","<b>"\]$/s);
    // The answer comes from the session's log; the job is marked completed a moment later.
    let [job] = await queue.queue.getJobs(["completed"]);
    for (let i = 0; i < 200 && job === undefined; i++) {
      await new Promise((done) => setTimeout(done, 25));
      [job] = await queue.queue.getJobs(["completed"]);
    }
    expect(job).toBeDefined();

    // Each process exports what is left when it stops.
    for (const child of [server.child, worker.child]) child.child.kill("SIGTERM");
    expect((await server.child.exited).code).toBe(0);
    expect((await worker.child.exited).code).toBe(0);
    const spans = receiver.spans();

    const roots = spans.filter((span) => span.parentSpanId === "");
    expect(roots.map((span) => span.name)).toEqual([`POST /api/v1/agents/:agent_id/completions`]);
    const [request] = roots;
    expect(request).toMatchObject({ kind: 2, scope: "canvasflow", status: { code: 0 } });
    expect(request.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/api/v1/agents/:agent_id/completions", "http.response.status_code": 200 });
    // One trace: every span received, the server's and the worker's, is in the request's.
    expect(spans.filter((span) => span.traceId !== request.traceId).map((span) => span.name)).toEqual([]);
    expect(job.data.traceparent).toBe(`00-${request.traceId}-${request.spanId}-01`);

    const tree = treeOf(spans, request);
    // Every span received is in the request's tree.
    const size = (node: Tree): number => 1 + node.children.reduce((n, child) => n + size(child), 0);
    expect(size(tree)).toBe(spans.length);
    expect(tree.children.map((child) => child.name)).toEqual(["canvasflow.run"]);
    const runSpan = tree.children[0];
    // The worker ran it: its tree is the one `canvasflow run` gives, the model calls' tokens adding up to the Agent's.
    const agent = runSpan.children.find((child) => child.name === "canvasflow.component Agent")!;
    const tokens = agent.children.filter((child) => child.name === "chat mock").map((child) => ({ input: Number(child.attributes["gen_ai.usage.input_tokens"]), output: Number(child.attributes["gen_ai.usage.output_tokens"]) }));
    const usage = { prompt_tokens: Number(agent.attributes["gen_ai.usage.input_tokens"]), completion_tokens: Number(agent.attributes["gen_ai.usage.output_tokens"]) };
    expect(tokens.reduce((n, t) => n + t.input, 0)).toBe(usage.prompt_tokens);
    expect(tokens.reduce((n, t) => n + t.output, 0)).toBe(usage.completion_tokens);
    const ids = { "canvasflow.task_id": runSpan.attributes["canvasflow.task_id"], "canvasflow.session_id": runSpan.attributes["canvasflow.task_id"], "canvasflow.message_id": runSpan.attributes["canvasflow.message_id"] };
    expect(runSpan).toEqual(expectedRun(ids, tokens, usage));
  });
});
