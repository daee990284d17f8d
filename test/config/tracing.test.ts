/** The config's `tracing` section: its validation, and whether and where a command traces (src/config/tracing.ts). */
import { describe, expect, it } from "vitest";
import { ConfigError, validateConfig } from "../../src/config/load.js";
import { tracingPlan } from "../../src/config/tracing.js";
import type { TracingConfig } from "../../src/config/types.js";

function issuesOf(tracing: unknown): Array<{ pointer: string; message: string }> {
  try {
    validateConfig({ tracing }, "cfg.json", "/tmp");
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error("expected the config to be rejected");
}

describe("the tracing section", () => {
  it("accepts every key", () => {
    const tracing: TracingConfig = {
      enabled: true,
      endpoint: "https://cloud.langfuse.com/api/public/otel",
      headers: { Authorization: "Basic ${LANGFUSE_AUTH}" },
      protocol: "http/json",
      serviceName: "support-bot",
      recordContent: true,
      contentLimit: 2000,
      sampleRatio: 0.25,
    };
    expect(validateConfig({ tracing }, "cfg.json", "/tmp").tracing).toEqual(tracing);
  });

  it("names the key of each problem", () => {
    expect(issuesOf({ enable: true, protocol: "grpc", contentLimit: 0, sampleRatio: 2, headers: { ok: 1 }, recordContent: "yes" })).toEqual([
      { pointer: "/tracing/enable", message: 'has the unknown property "enable"' },
      { pointer: "/tracing/headers/ok", message: "must be string" },
      { pointer: "/tracing/protocol", message: 'must be one of "http/protobuf", "http/json"' },
      { pointer: "/tracing/recordContent", message: "must be boolean" },
      { pointer: "/tracing/contentLimit", message: "must be >= 1" },
      { pointer: "/tracing/sampleRatio", message: "must be <= 1" },
    ]);
    expect(issuesOf({ headers: { "bad header": "x" } })).toEqual([{ pointer: "/tracing/headers/bad header", message: "is not an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)" }]);
    expect(issuesOf({ endpoint: "localhost:4318" })).toEqual([{ pointer: "/tracing/endpoint", message: 'must be an http:// or https:// URL, got "localhost:4318"' }]);
  });
});

describe("tracingPlan", () => {
  const env = {};

  it("is off with no flag, no section and no variable", () => {
    expect(tracingPlan(undefined, { env })).toBeUndefined();
    expect(tracingPlan({ recordContent: true }, { env })).toBeUndefined();
  });

  it("--otlp turns it on and names the endpoint, over the config and the variables", () => {
    const plan = tracingPlan({ enabled: false, endpoint: "http://config:4318" }, { otlp: "http://flag:4318", env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" } });
    expect(plan).toEqual({
      otlp: { endpoint: "http://flag:4318/v1/traces", headers: {}, protocol: "http/protobuf", serviceName: "canvasflow" },
      service: { recordContent: false, contentLimit: 4000 },
    });
    expect(() => tracingPlan(undefined, { otlp: "flag:4318", env })).toThrow('--otlp must be an http:// or https:// URL, got "flag:4318"');
  });

  it("the section turns it on with an endpoint or enabled: true; enabled: false wins over the variables", () => {
    expect(tracingPlan({ endpoint: "http://localhost:6006/v1/traces" }, { env })?.otlp.endpoint).toBe("http://localhost:6006/v1/traces");
    expect(tracingPlan({ enabled: true }, { env })?.otlp.endpoint).toBe("http://localhost:4318/v1/traces");
    expect(tracingPlan({ enabled: false }, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" } })).toBeUndefined();
  });

  it("the variables alone turn it on; the section's keys win over them", () => {
    const variables = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318", OTEL_EXPORTER_OTLP_HEADERS: "authorization=Basic%20abc,x-a=1", OTEL_SERVICE_NAME: "from-env", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
    expect(tracingPlan(undefined, { env: variables })?.otlp).toEqual({ endpoint: "http://env:4318/v1/traces", headers: { authorization: "Basic abc", "x-a": "1" }, protocol: "http/json", serviceName: "from-env" });
    expect(tracingPlan({ serviceName: "bot", protocol: "http/protobuf", headers: { "x-a": "2" }, recordContent: true, contentLimit: 100, sampleRatio: 0.5 }, { env: variables })).toEqual({
      otlp: { endpoint: "http://env:4318/v1/traces", headers: { authorization: "Basic abc", "x-a": "2" }, protocol: "http/protobuf", serviceName: "bot" },
      sampleRatio: 0.5,
      service: { recordContent: true, contentLimit: 100 },
    });
    expect(tracingPlan(undefined, { env: { ...variables, OTEL_SDK_DISABLED: "true" } })).toBeUndefined();
  });

  it("reads ${VAR} in header values from the environment; an unset one names the key, not a value", () => {
    const plan = tracingPlan({ enabled: true, headers: { Authorization: "Basic ${AUTH}", "x-team": "${TEAM:-core}" } }, { env: { AUTH: "cGs6c2s=" } });
    expect(plan?.otlp.headers).toEqual({ Authorization: "Basic cGs6c2s=", "x-team": "core" });
    expect(() => tracingPlan({ enabled: true, headers: { Authorization: "Basic ${AUTH}" } }, { env })).toThrow("tracing.headers.Authorization reads the environment variable AUTH, which is not set");
  });

  it("refuses a variable it cannot use, naming it", () => {
    expect(() => tracingPlan(undefined, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" } })).toThrow(
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http/protobuf or http/json, got "grpc" (canvasflow exports over OTLP/HTTP only, not gRPC)',
    );
  });
});
