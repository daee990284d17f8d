/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) on the OpenTelemetry API alone: the
 * `traceparent` / `tracestate` carrier a run's parent travels in (RunRequest.traceContext, a
 * queued job's data), and the propagator canvasflow registers when it starts tracing itself
 * (setup.ts). The SDK's own propagator lives in @opentelemetry/core, which canvasflow does not
 * depend on.
 */
import { createTraceState, isSpanContextValid, trace, type Context, type SpanContext, type TextMapGetter, type TextMapPropagator, type TextMapSetter } from "@opentelemetry/api";

/** A span context as W3C headers. */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** Longest tracestate kept (32 members of up to 256 characters, the specification's bound, is more than any vendor sends). */
export const MAX_TRACESTATE_LENGTH = 512;

/** Whether a text is a traceparent canvasflow can continue (version 00, ids not all zeros). */
export function isTraceparent(text: unknown): text is string {
  return typeof text === "string" && parseTraceparent(text) !== undefined;
}

/** The remote span context a traceparent (and tracestate) name; undefined when it is not valid. */
export function parseTraceparent(traceparent: string, tracestate?: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(traceparent.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is invalid; version 00 has exactly four fields (later versions may add some).
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  const context: SpanContext = { traceId, spanId, traceFlags: parseInt(flags, 16) & 1, isRemote: true };
  if (!isSpanContextValid(context)) return undefined;
  if (tracestate !== undefined && tracestate.trim() !== "" && tracestate.length <= MAX_TRACESTATE_LENGTH) context.traceState = createTraceState(tracestate);
  return context;
}

/** The carrier of a span context; undefined for an invalid one (no SDK registered, or none given). */
export function traceCarrierOf(spanContext: SpanContext | undefined): TraceCarrier | undefined {
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, "0");
  const state = spanContext.traceState?.serialize();
  return { traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`, ...(state ? { tracestate: state } : {}) };
}

/** The W3C propagator: reads and writes `traceparent` and `tracestate`. */
export class W3CTraceContextPropagator implements TextMapPropagator {
  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const headers = traceCarrierOf(trace.getSpanContext(context));
    if (!headers) return;
    setter.set(carrier, "traceparent", headers.traceparent);
    if (headers.tracestate !== undefined) setter.set(carrier, "tracestate", headers.tracestate);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const one = (key: string) => {
      const value = getter.get(carrier, key);
      return Array.isArray(value) ? value.join(",") : value;
    };
    const traceparent = getter.get(carrier, "traceparent");
    // Several traceparent headers: none is taken.
    if (typeof traceparent !== "string" && !(Array.isArray(traceparent) && traceparent.length === 1)) return context;
    const parent = parseTraceparent(Array.isArray(traceparent) ? traceparent[0] : traceparent, one("tracestate"));
    return parent ? trace.setSpanContext(context, parent) : context;
  }

  fields(): string[] {
    return ["traceparent", "tracestate"];
  }
}
