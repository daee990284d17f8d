/**
 * A run's trace context across the queue: a queued job carries the traceparent of its parent
 * span (the server request's under `serve --queue`; the span active at `enqueueRun` for a library
 * user), and the worker gives it to the run as `RunRequest.traceContext`, so the worker's run
 * joins the request's trace. The job format's check of the two fields. Real Redis, a worker in
 * this process, an OpenTelemetry SDK registered in it (in-memory exporter).
 */
import { context, propagation, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DurableSession, type DurableRunRequest } from "../../src/durable/session.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { enqueueRun } from "../../src/worker/enqueue.js";
import { readRunJob, RunJobError, type RunJobData } from "../../src/worker/job.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import { createWorker, type RunWorker } from "../../src/worker/worker.js";
import { W3CTraceContextPropagator } from "../../src/tracing/w3c.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { clearQueueTest, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { call, createAgent, startTestServer } from "../helpers/server.js";

const prefix = uniqueTestPrefix();
const queues: RunQueue[] = [];
const workers: RunWorker[] = [];
afterAll(() => clearQueueTest(workers, queues, prefix), 60_000);

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const greet = () => canvasDsl({ begin: node("Begin", {}, ["Message:M"]), "Message:M": node("Message", { content: ["hi {sys.query}"] }) });

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
/** What each durable run was streamed with (the worker's runs). */
let streamed: DurableRunRequest[];

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  streamed = [];
  const stream = DurableSession.prototype.stream;
  vi.spyOn(DurableSession.prototype, "stream").mockImplementation(function (this: DurableSession, request: DurableRunRequest = {}) {
    streamed.push(request);
    return stream.call(this, request);
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

function openQueue(name: string): RunQueue {
  const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: name });
  queues.push(queue);
  return queue;
}

async function startWorker(name: string): Promise<RunWorker> {
  const worker = await createWorker({ redis: TEST_REDIS_URL, prefix, queue: name, lockDurationMs: 10_000 });
  workers.push(worker);
  return worker;
}

/** Resolves when `done` holds (polled), or fails after 10 s. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
}

describe("the trace context of a queued run", () => {
  it("serve --queue: the job carries the request span's traceparent, and the worker gives it to the run", async () => {
    const queue = openQueue("traced");
    await startWorker("traced");
    const server = await startTestServer({ store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), queue });
    const agent = await createAgent(server, greet());
    const answer = await call(server, `/api/v1/agents/${agent}/completions`, { body: { question: "Ada" }, headers: { traceparent: TRACEPARENT, tracestate: "vendor=x" } });
    expect(answer.json.code).toBe(0);
    const request = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER)!;
    expect(request.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    const carrier = { traceparent: `00-4bf92f3577b34da6a3ce929d0e0e4736-${request.spanContext().spanId}-01`, tracestate: "vendor=x" };
    // The answer comes from the session's log; the job is marked completed a moment later.
    let [job] = await queue.queue.getJobs(["completed"]);
    for (let i = 0; i < 200 && job === undefined; i++) {
      await new Promise((done) => setTimeout(done, 25));
      [job] = await queue.queue.getJobs(["completed"]);
    }
    expect(job.data).toMatchObject(carrier);
    await until(() => streamed.length > 0);
    expect(streamed[0]).toMatchObject({ traceContext: carrier, messageId: job.id });
  });

  it("enqueueRun: an explicit traceContext, else the span active when it is called, else none", async () => {
    const queue = openQueue("library");
    const store = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
    try {
      const explicit = await enqueueRun({ session: "trace-explicit", dsl: greet(), query: "a", traceContext: { traceparent: TRACEPARENT } }, { queue, store: store.runs });
      expect((await queue.queue.getJob(explicit.jobId))!.data).toMatchObject({ traceparent: TRACEPARENT });

      const tracer = trace.getTracer("the-application");
      const mine = await tracer.startActiveSpan("handle request", async (span) => {
        try {
          return { span: span.spanContext(), run: await enqueueRun({ session: "trace-active", dsl: greet(), query: "b" }, { queue, store: store.runs }) };
        } finally {
          span.end();
        }
      });
      expect((await queue.queue.getJob(mine.run.jobId))!.data).toMatchObject({ traceparent: `00-${mine.span.traceId}-${mine.span.spanId}-01` });

      const none = await enqueueRun({ session: "trace-none", dsl: greet(), query: "c" }, { queue, store: store.runs });
      const data = (await queue.queue.getJob(none.jobId))!.data as RunJobData;
      expect(data.traceparent).toBeUndefined();
      expect(data.tracestate).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("the job format checks the two fields, naming them", () => {
    expect(readRunJob({ v: 1, session: "s", traceparent: TRACEPARENT, tracestate: "a=1" })).toMatchObject({ traceparent: TRACEPARENT, tracestate: "a=1" });
    const refused = (data: Record<string, unknown>) => {
      try {
        readRunJob({ v: 1, session: "s", ...data });
      } catch (error) {
        expect(error).toBeInstanceOf(RunJobError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refused({ traceparent: "00-nope" })).toBe(`a run job's "traceparent" must be a W3C traceparent (00-<trace id>-<span id>-<flags>), got "00-nope"`);
    expect(refused({ traceparent: TRACEPARENT, tracestate: "x".repeat(513) })).toBe(`a run job's "tracestate" must be a string of at most 512 characters, got a string of 513 characters`);
    expect(refused({ tracestate: "a=1" })).toBe(`a run job's "tracestate" comes with a "traceparent"`);
  });
});
