/** W3C trace context on the API alone (src/tracing/w3c.ts) and the OTLP settings of the standard variables (settings.ts). */
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { isTraceparent, parseTraceparent, traceCarrierOf, W3CTraceContextPropagator } from "../../src/tracing/w3c.js";
import { endpointFromEnv, envTurnsTracingOn, masked, otlpSettings, parseOtlpHeaders, tracesUrl } from "../../src/tracing/settings.js";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("traceparent", () => {
  it("reads a version-00 traceparent and its tracestate, and writes it back", () => {
    const context = parseTraceparent(TRACEPARENT, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");
    expect(context).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1, isRemote: true });
    expect(traceCarrierOf(context)).toEqual({ traceparent: TRACEPARENT, tracestate: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE" });
    expect(traceCarrierOf(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"))).toEqual({ traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00" });
  });

  it("refuses what the specification calls invalid", () => {
    for (const bad of [
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
      "",
    ]) {
      expect(isTraceparent(bad), bad).toBe(false);
    }
    expect(isTraceparent(42)).toBe(false);
    // A later version may carry more fields.
    expect(isTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more")).toBe(true);
    expect(traceCarrierOf(undefined)).toBeUndefined();
    expect(traceCarrierOf(trace.wrapSpanContext({ traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 }).spanContext())).toBeUndefined();
  });

  it("the propagator extracts the parent from headers and injects it", () => {
    const propagator = new W3CTraceContextPropagator();
    const extracted = propagator.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT, tracestate: "a=1" }, defaultTextMapGetter);
    expect(trace.getSpanContext(extracted)).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", isRemote: true });
    const out: Record<string, string> = {};
    propagator.inject(extracted, out, defaultTextMapSetter);
    expect(out).toEqual({ traceparent: TRACEPARENT, tracestate: "a=1" });
    // Nothing, or a bad one: the context as it was.
    expect(propagator.extract(ROOT_CONTEXT, {}, defaultTextMapGetter)).toBe(ROOT_CONTEXT);
    expect(propagator.extract(ROOT_CONTEXT, { traceparent: "nope" }, defaultTextMapGetter)).toBe(ROOT_CONTEXT);
    expect(propagator.fields()).toEqual(["traceparent", "tracestate"]);
  });
});

describe("OTLP settings", () => {
  it("appends /v1/traces to an endpoint unless it ends so", () => {
    expect(tracesUrl("http://localhost:4318", "--otlp")).toBe("http://localhost:4318/v1/traces");
    expect(tracesUrl("http://localhost:6006/v1/traces", "--otlp")).toBe("http://localhost:6006/v1/traces");
    expect(tracesUrl("https://cloud.langfuse.com/api/public/otel/", "--otlp")).toBe("https://cloud.langfuse.com/api/public/otel/v1/traces");
    expect(() => tracesUrl("localhost:4318", "--otlp")).toThrow('--otlp must be an http:// or https:// URL, got "localhost:4318"');
  });

  it("reads the standard variables: the traces endpoint as is, the general one with /v1/traces", () => {
    expect(endpointFromEnv({})).toBeUndefined();
    expect(endpointFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe("http://collector:4318/v1/traces");
    expect(endpointFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t:4318/custom" })).toBe("http://t:4318/custom");
    expect(envTurnsTracingOn({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toBe(true);
    expect(envTurnsTracingOn({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(envTurnsTracingOn({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBe(false);
    expect(otlpSettings({}, {})).toEqual({ endpoint: "http://localhost:4318/v1/traces", headers: {}, protocol: "http/protobuf", serviceName: "canvasflow" });
    expect(
      otlpSettings({ headers: { "x-b": "given" } }, { OTEL_EXPORTER_OTLP_HEADERS: "x-a=1,x-b=2", OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-a=3", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
    ).toMatchObject({ headers: { "x-a": "3", "x-b": "given" }, protocol: "http/json" });
  });

  it("reads headers as key=value pairs, percent-decoded; a bad list is refused without showing it", () => {
    expect(parseOtlpHeaders("Authorization=Basic%20cGs6c2s%3D , x-id = 7,", "V")).toEqual({ Authorization: "Basic cGs6c2s=", "x-id": "7" });
    expect(() => parseOtlpHeaders("Authorization Basic secret", "OTEL_EXPORTER_OTLP_HEADERS")).toThrow(/^OTEL_EXPORTER_OTLP_HEADERS must be a list of key=value pairs separated by commas$/);
    expect(() => parseOtlpHeaders("a=%E0%A4%A", "V")).toThrow("V: the value of a is not validly percent-encoded");
  });

  it("masks the user, password and query of a URL", () => {
    expect(masked("https://pk:sk@collector.example/v1/traces?key=abc")).toBe("https://***:***@collector.example/v1/traces?***");
    expect(masked("http://localhost:4318/v1/traces")).toBe("http://localhost:4318/v1/traces");
  });
});
