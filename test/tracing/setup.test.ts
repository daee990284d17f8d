/**
 * startTracing (src/tracing/setup.ts) against a loopback OTLP/HTTP receiver: spans arrive over
 * protobuf and over JSON with their ids, parents, attributes, status and links; the standard
 * OTEL_* variables are honoured; export headers reach the receiver and never a message; an SDK
 * the application registered first is left alone (canvasflow's spans go to it).
 */
import { context, propagation, ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { sdkRegistered, startTracing, type Tracing } from "../../src/tracing/setup.js";
import { startOtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.js";

let running: Tracing | undefined;

afterEach(async () => {
  await running?.shutdown();
  running = undefined;
  trace.disable();
  context.disable();
  propagation.disable();
});

/** A parent and a child span with every kind of attribute, the child failed and linked to another trace. */
function makeSpans(): { parent: string; child: string; traceId: string } {
  const tracer = trace.getTracer("canvasflow-test");
  const parent = tracer.startSpan("canvasflow.run", { attributes: { "canvasflow.task_id": "t-1", "gen_ai.usage.input_tokens": 12, ratio: 0.5, ok: true, tags: ["a", "b"] } });
  const linked = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 };
  const child = tracer.startSpan("canvasflow.component LLM", { links: [{ context: linked, attributes: { "canvasflow.link": "continued" } }] }, trace.setSpan(ROOT_CONTEXT, parent));
  child.setStatus({ code: SpanStatusCode.ERROR, message: "boom" });
  child.end();
  parent.end();
  return { parent: parent.spanContext().spanId, child: child.spanContext().spanId, traceId: parent.spanContext().traceId };
}

function expectTree(spans: ReceivedSpan[], ids: { parent: string; child: string; traceId: string }, serviceName = "canvasflow") {
  const run = spans.find((span) => span.name === "canvasflow.run")!;
  const component = spans.find((span) => span.name === "canvasflow.component LLM")!;
  expect(run).toMatchObject({
    traceId: ids.traceId,
    spanId: ids.parent,
    parentSpanId: "",
    attributes: { "canvasflow.task_id": "t-1", "gen_ai.usage.input_tokens": 12, ratio: 0.5, ok: true, tags: ["a", "b"] },
    scope: "canvasflow-test",
  });
  expect(run.resource["service.name"]).toBe(serviceName);
  expect(component).toMatchObject({
    traceId: ids.traceId,
    spanId: ids.child,
    parentSpanId: ids.parent,
    status: { code: 2, message: "boom" },
    links: [{ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", attributes: { "canvasflow.link": "continued" } }],
  });
}

describe("startTracing", () => {
  it.each([
    ["http/protobuf", "application/x-protobuf"],
    ["http/json", "application/json"],
  ] as const)("exports spans over %s to the endpoint, with the headers", async (protocol, contentType) => {
    const receiver = await startOtlpReceiver();
    running = await startTracing({ endpoint: receiver.url, protocol, headers: { authorization: "Bearer s3cret-token" }, env: {} });
    expect(running).toMatchObject({ started: true, endpoint: receiver.url, protocol });
    const ids = makeSpans();
    await running.shutdown();
    expect(receiver.requests.map((request) => request.contentType)).toEqual([contentType]);
    expect(receiver.requests[0].headers.authorization).toBe("Bearer s3cret-token");
    expectTree(receiver.spans(), ids);
    // Unregistered again: a later start works.
    expect(sdkRegistered()).toBe(false);
  });

  it("honours OTEL_EXPORTER_OTLP_ENDPOINT (with /v1/traces), _HEADERS, _PROTOCOL and OTEL_SERVICE_NAME", async () => {
    const receiver = await startOtlpReceiver();
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.base}/`,
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Basic%20cGs6c2s=,x-tenant=acme",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "support-bot",
    };
    running = await startTracing({ env });
    expect(running).toMatchObject({ started: true, endpoint: receiver.url, protocol: "http/json" });
    const ids = makeSpans();
    await running.shutdown();
    expect(receiver.requests[0]).toMatchObject({ contentType: "application/json", headers: { authorization: "Basic cGs6c2s=", "x-tenant": "acme" } });
    expectTree(receiver.spans(), ids, "support-bot");
  });

  it("takes OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as the traces URL itself; what it is given wins over the variables", async () => {
    const receiver = await startOtlpReceiver();
    const other = await startOtlpReceiver();
    running = await startTracing({ env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_ENDPOINT: other.base } });
    makeSpans();
    await running.shutdown();
    expect(receiver.spans()).toHaveLength(2);
    running = await startTracing({ endpoint: other.url, serviceName: "given", env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "from-env" } });
    makeSpans();
    await running.shutdown();
    expect(other.spans().map((span) => span.resource["service.name"])).toEqual(["given", "given"]);
    expect(receiver.spans()).toHaveLength(2);
  });

  it("records a share of new traces with sampleRatio; a sampled parent's children are kept", async () => {
    const receiver = await startOtlpReceiver();
    running = await startTracing({ endpoint: receiver.url, sampleRatio: 0, env: {} });
    const tracer = trace.getTracer("canvasflow-test");
    tracer.startSpan("dropped").end();
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1, isRemote: true });
    tracer.startSpan("kept", {}, parent).end();
    await running.shutdown();
    expect(receiver.spans().map((span) => [span.name, span.parentSpanId])).toEqual([["kept", "00f067aa0ba902b7"]]);
  });

  it("says why an export failed, with the headers' values masked", async () => {
    // A collector that refuses the request and echoes the token it was sent.
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(400, { "content-type": "text/plain" }).end(`bad key: ${String(req.headers.authorization).split(" ")[1]}`));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const messages: string[] = [];
      running = await startTracing({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, headers: { authorization: "Bearer s3cret-token" }, onError: (message) => messages.push(message), env: {} });
      makeSpans();
      await running.forceFlush();
      await running.shutdown();
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.join("\n")).not.toContain("s3cret-token");
      expect(messages.join("\n")).toMatch(/^HTTP 400 [A-Za-z ]+: bad key: \*\*\*$/m);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it("refuses a protocol it does not speak, naming the variable", async () => {
    await expect(startTracing({ env: { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" } })).rejects.toThrow('OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, got "grpc" (canvasflow exports over OTLP/HTTP only, not gRPC)');
    await expect(startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: "localhost:4318" } })).rejects.toThrow("OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL");
    expect(sdkRegistered()).toBe(false);
  });

  it("starts nothing when the application registered an SDK: canvasflow's spans go to it", async () => {
    const receiver = await startOtlpReceiver();
    const exporter = new InMemorySpanExporter();
    const theirs = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(theirs);
    running = await startTracing({ endpoint: receiver.url, env: {} });
    expect(running.started).toBe(false);
    makeSpans();
    await running.shutdown();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["canvasflow.component LLM", "canvasflow.run"]);
    expect(receiver.requests).toEqual([]);
    // Still theirs after canvasflow's shutdown.
    expect(sdkRegistered()).toBe(true);
    await theirs.shutdown();
  });
});
