/**
 * The server's request spans (src/server/request-span.ts) with an OpenTelemetry SDK registered in
 * this process (an in-memory exporter, the AsyncLocalStorage context manager, canvasflow's W3C
 * propagator): each completion route (RAGFlow's two, OpenAI's, Dify's) makes `<METHOD> <route>`,
 * a child of the request's `traceparent`, and hands it to the run as `RunRequest.traceContext`;
 * other routes make none; a stream whose client leaves ends its span as an error; with no SDK
 * nothing is handed on. Queued turns: in
 * test/worker/trace-context.test.ts.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DurableSession, type DurableRunRequest } from "../../src/durable/session.js";
import { W3CTraceContextPropagator } from "../../src/tracing/w3c.js";
import { corpusPath } from "../helpers/corpus.js";
import { scratchDir } from "../helpers/scratch.js";
import { call, createAgent, injectTestServer, send, startTestServer } from "../helpers/server.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { hello } from "./canvases.js";

const INCOMING_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const INCOMING_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${INCOMING_TRACE}-${INCOMING_SPAN}-01`;

let exporter: InMemorySpanExporter | undefined;
let provider: BasicTracerProvider | undefined;
/** What each run was given (DurableSession.run's request). */
let runRequests: DurableRunRequest[] = [];

function registerSdk(): void {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
}

beforeEach(() => {
  runRequests = [];
  const run = DurableSession.prototype.run;
  vi.spyOn(DurableSession.prototype, "run").mockImplementation(function (this: DurableSession, request: DurableRunRequest = {}) {
    runRequests.push(request);
    return run.call(this, request);
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await provider?.shutdown();
  provider = undefined;
  exporter = undefined;
  trace.disable();
  context.disable();
  propagation.disable();
});

const serverSpans = () => exporter!.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);

/** `parent` null: a root span. */
function expectRequestSpan(span: ReadableSpan | undefined, name: string, route: string, parent: string | null = INCOMING_SPAN): ReadableSpan {
  expect(span?.name).toBe(name);
  expect(span!.parentSpanContext?.spanId).toBe(parent ?? undefined);
  if (parent !== null) expect(span!.spanContext().traceId).toBe(INCOMING_TRACE);
  expect(span!.attributes).toMatchObject({ "http.request.method": "POST", "http.route": route, "http.response.status_code": 200 });
  expect(span!.status.code).toBe(SpanStatusCode.UNSET);
  return span!;
}

/** The run's traceContext: the request span's. */
function expectRunParent(span: ReadableSpan, index = 0): void {
  const { traceId, spanId } = span.spanContext();
  expect(runRequests[index]?.traceContext).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
}

describe("a completion request's span", () => {
  it("RAGFlow's routes: `POST <route>`, a child of the request's traceparent, the parent of the run", async () => {
    registerSdk();
    const server = await injectTestServer();
    const agent = await createAgent(server, hello());
    const answer = await call(server, `/api/v1/agents/${agent}/completions`, { body: { question: "Ada" }, headers: { traceparent: TRACEPARENT, tracestate: "vendor=x" } });
    expect(answer.json.code).toBe(0);
    const span = expectRequestSpan(serverSpans()[0], "POST /api/v1/agents/:agent_id/completions", "/api/v1/agents/:agent_id/completions");
    expect(span.attributes["url.path"]).toBe(`/api/v1/agents/${agent}/completions`);
    const { traceId, spanId } = span.spanContext();
    expect(runRequests[0].traceContext).toEqual({ traceparent: `00-${traceId}-${spanId}-01`, tracestate: "vendor=x" });

    // The canonical route, streamed: the span ends when the stream has.
    await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agent, question: "Bo", stream: true }, headers: { traceparent: TRACEPARENT } });
    expectRunParent(expectRequestSpan(serverSpans()[1], "POST /api/v1/agents/chat/completions", "/api/v1/agents/chat/completions"), 1);
    // Only the completion routes: creating the agent made no span.
    expect(serverSpans()).toHaveLength(2);
  });

  it("OpenAI's route; without a traceparent the request span is the root of the run's trace", async () => {
    registerSdk();
    const server = await injectTestServer();
    const agent = await createAgent(server, hello());
    const answer = await call(server, `/api/v1/agents_openai/${agent}/chat/completions`, { body: { model: "m", messages: [{ role: "user", content: "Ada" }] } });
    expect(answer.status).toBe(200);
    const span = expectRequestSpan(serverSpans()[0], "POST /api/v1/agents_openai/:agent_id/chat/completions", "/api/v1/agents_openai/:agent_id/chat/completions", null);
    expectRunParent(span);
  });

  it("a refused request is a span too (its status), and starts no run", async () => {
    registerSdk();
    const server = await injectTestServer();
    const answer = await call(server, "/api/v1/agents/chat/completions", { body: { question: "Ada" }, key: "wrong", headers: { traceparent: TRACEPARENT } });
    expect(answer.status).toBe(401);
    expect(serverSpans().map((span) => [span.name, span.attributes["http.response.status_code"], span.parentSpanContext?.spanId])).toEqual([["POST /api/v1/agents/chat/completions", 401, INCOMING_SPAN]]);
    expect(runRequests).toEqual([]);
  });

  it("Dify's run route", async () => {
    registerSdk();
    const dir = scratchDir("cf-request-span-dify-").dir;
    mkdirSync(join(dir, "agents"));
    writeFileSync(join(dir, "agents", "hello.yml"), readFileSync(corpusPath("dify", "conditional_hello_branching_workflow.yml")));
    const server = await startTestServer({ agentsDir: join(dir, "agents"), difyApp: "hello" });
    const answer = await call(server, "/v1/workflows/run", { body: { inputs: { query: "hello world" }, user: "ada", response_mode: "blocking" }, headers: { traceparent: TRACEPARENT } });
    expect(answer.status).toBe(200);
    expectRunParent(expectRequestSpan(serverSpans()[0], "POST /v1/workflows/run", "/v1/workflows/run"));
  });

  it("a stream whose client goes away ends its span as an error", async () => {
    registerSdk();
    // Says something, then waits until the run is stopped.
    const Wait: ComponentDefinition = {
      name: "Wait",
      async invoke(ctx) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 10_000);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
      },
    };
    const server = await startTestServer({ registry: registryWith(Wait) });
    const agent = await createAgent(
      server,
      canvasDsl({ begin: node("Begin", {}, ["Message:Hi"]), "Message:Hi": node("Message", { content: ["hi"] }, ["Wait:W"]), "Wait:W": node("Wait", {}, []) }),
    );
    const client = new AbortController();
    const response = await send(server, `/api/v1/agents/${agent}/completions`, { body: { question: "Ada", stream: true }, headers: { traceparent: TRACEPARENT }, signal: client.signal });
    const reader = response.body!.getReader();
    await reader.read();
    client.abort();
    for (let i = 0; i < 500 && serverSpans().length === 0; i++) await new Promise((done) => setTimeout(done, 10));
    const [span] = serverSpans();
    expect(span.parentSpanContext?.spanId).toBe(INCOMING_SPAN);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "the client closed the connection before the answer was complete" });
    expect(span.attributes["http.response.status_code"]).toBeUndefined();
  });

  it("with no SDK registered, nothing is handed to the run", async () => {
    const server = await injectTestServer();
    const agent = await createAgent(server, hello());
    const answer = await call(server, `/api/v1/agents/${agent}/completions`, { body: { question: "Ada" }, headers: { traceparent: TRACEPARENT } });
    expect(answer.json.code).toBe(0);
    expect(runRequests).toHaveLength(1);
    expect(runRequests[0].traceContext).toBeUndefined();
  });
});
