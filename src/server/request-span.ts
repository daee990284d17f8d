/**
 * The server's span of a completion request (HTTP server semantic conventions): `<METHOD> <route>`
 * (e.g. "POST /api/v1/agents/chat/completions"), kind SERVER, its parent the request's
 * `traceparent` (through the propagator registered with the OpenTelemetry API: canvasflow's W3C
 * one when it started tracing, an application's own otherwise). The turn's run, here or on a
 * queue worker, is its child: the completion routes hand `requestTraceContext(request)` to the
 * turn as the run's `traceContext`. The span ends when the response is closed: gone out whole
 * (a stream: at its end), or given up when the client went away (then it is an error).
 *
 * With no SDK registered the API's spans are no-ops: nothing is recorded and no trace context is
 * handed on.
 */
import { TRACER_NAME } from "../tracing/run-spans.js";
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { traceCarrierOf, type TraceCarrier } from "../tracing/w3c.js";

/** Each traced request's span, until it ends. */
const spans = new WeakMap<FastifyRequest, Span>();

/** Headers as the API's default getter reads them (Fastify's are Node's: lower-case names). */
type Headers = FastifyRequest["headers"];

/** Start a span for each request to one of `routes` (as declared, e.g. "/api/v1/agents/:agent_id/completions"). */
export function installRequestSpans(app: FastifyInstance, routes: ReadonlySet<string>): void {
  app.addHook("onRequest", async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === undefined || !routes.has(route)) return;
    const parent = propagation.extract<Headers>(ROOT_CONTEXT, request.headers);
    // Asked for each time: a tracer kept from before would stay bound to a provider since replaced.
    const span = trace.getTracer(TRACER_NAME).startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { "http.request.method": request.method, "http.route": route, "url.path": request.url.split("?")[0], "url.scheme": request.protocol },
      },
      parent,
    );
    spans.set(request, span);
    // A response that never finished (its client went away mid-stream) is only closed.
    reply.raw.once("close", () => end(request, reply.raw.writableFinished ? reply.statusCode : undefined));
  });
  // The response went out whole (a stream: at its end).
  app.addHook("onResponse", async (request, reply) => end(request, reply.statusCode));
}

/** End the request's span, once. */
function end(request: FastifyRequest, status: number | undefined): void {
  const span = spans.get(request);
  if (span === undefined) return;
  spans.delete(request);
  if (status !== undefined) span.setAttribute("http.response.status_code", status);
  if (status === undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: "the client closed the connection before the answer was complete" });
  else if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${status}` });
  span.end();
}

/**
 * The request span as the run's W3C parent; undefined when the request is not traced (not a
 * completion route, or no SDK registered).
 */
export function requestTraceContext(request: FastifyRequest): TraceCarrier | undefined {
  return traceCarrierOf(spans.get(request)?.spanContext());
}
