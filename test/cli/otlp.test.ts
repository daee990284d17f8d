/**
 * Tracing turned on for `canvasflow run` (the built CLI in a child process): by `--otlp URL`, by
 * the config's `tracing` section and by the OTEL_* variables, the spans made during the run reach
 * a loopback OTLP receiver before the process ends (the batch's 5 s delay is not waited for: the
 * spans left are exported on exit). Export headers reach the receiver and never the output.
 * The canvas's own component (`--register`) makes a span through the OpenTelemetry API, as any
 * library a component uses would.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { canvasDsl, node } from "../helpers/dsl.js";
import { spawnCli } from "../helpers/cli-process.js";
import { startOtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.js";
import { scratchDir } from "../helpers/scratch.js";

const scratch = scratchDir("canvasflow-otlp-cli-");
// Resolved from the project, wherever the module is: the same API (and globals) canvasflow uses.
const spanModule = scratch.write(
  "span-component.mjs",
  `import { createRequire } from "node:module";
const { trace } = createRequire(${JSON.stringify(resolve("package.json"))})("@opentelemetry/api");
export function register(registry) {
  registry.register({
    name: "MakesSpan",
    invoke(ctx) {
      trace.getTracer("test-component").startActiveSpan("test.work", { attributes: { "test.query": String(ctx.query) } }, (span) => span.end());
      ctx.setOutput("content", "done");
    },
  });
}
`,
);
const canvas = scratch.write(
  "canvas.json",
  canvasDsl({
    begin: node("Begin", {}, ["MakesSpan:S"]),
    "MakesSpan:S": node("MakesSpan", {}, ["Message:Out"], { upstream: ["begin"] }),
    "Message:Out": node("Message", { content: ["{MakesSpan:S@content}"] }, [], { upstream: ["MakesSpan:S"] }),
  }),
);

const SECRET = "pk-lf-1234:sk-lf-abcdefgh";

/** The test process's environment without any OTEL_* variable, plus `extra`. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("OTEL_")));
  return { ...env, ...extra };
}

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(["run", canvas, "--query", "hi", "--register", spanModule, "--events", "ndjson", ...args], { env });
  const { code } = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

const workSpan = (spans: ReceivedSpan[]) => spans.find((span) => span.name === "test.work");

describe("canvasflow run with tracing", () => {
  it("--otlp URL: the run's spans are exported before the process ends, with the OTEL_EXPORTER_OTLP_HEADERS; no secret is printed", async () => {
    const receiver = await startOtlpReceiver();
    const env = cleanEnv({ OTEL_EXPORTER_OTLP_HEADERS: `authorization=Basic%20${encodeURIComponent(Buffer.from(SECRET).toString("base64"))}`, OTEL_SERVICE_NAME: "cli-test" });
    const result = await run(["--otlp", receiver.base], env);
    expect(result.code, result.stderr).toBe(0);
    // Received before the exit, not waited for.
    const span = workSpan(receiver.spans());
    expect(span).toMatchObject({ attributes: { "test.query": "hi" }, scope: "test-component", resource: { "service.name": "cli-test" } });
    expect(receiver.requests[0]).toMatchObject({ contentType: "application/x-protobuf", headers: { authorization: `Basic ${Buffer.from(SECRET).toString("base64")}` } });
    expect(result.stderr).toBe(`canvasflow: tracing: spans go to ${receiver.url} (http/protobuf)\n`);
    for (const text of [result.stdout, result.stderr]) {
      expect(text).not.toContain(Buffer.from(SECRET).toString("base64"));
      expect(text).not.toContain("authorization");
    }
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1)!)).toMatchObject({ event: "workflow_finished" });
  });

  it("the config's tracing section turns it on: JSON, its service name, a header read from ${VAR}", async () => {
    const receiver = await startOtlpReceiver();
    const config = scratch.write("tracing.config.json", { tracing: { endpoint: receiver.url, protocol: "http/json", serviceName: "from-config", headers: { "x-api-key": "${TRACE_KEY}" } } });
    const result = await run(["--config", config], cleanEnv({ TRACE_KEY: SECRET }));
    expect(result.code, result.stderr).toBe(0);
    expect(workSpan(receiver.spans())).toMatchObject({ resource: { "service.name": "from-config" } });
    expect(receiver.requests[0]).toMatchObject({ contentType: "application/json", headers: { "x-api-key": SECRET } });
    expect(result.stderr + result.stdout).not.toContain(SECRET);
  });

  it("OTEL_EXPORTER_OTLP_ENDPOINT alone turns it on; the config's enabled: false turns it off", async () => {
    const receiver = await startOtlpReceiver();
    const env = cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.base, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
    const on = await run([], env);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stderr).toBe(`canvasflow: tracing: spans go to ${receiver.url} (http/json)\n`);
    expect(workSpan(receiver.spans())).toBeDefined();

    const off = await run(["--config", scratch.write("off.config.json", { tracing: { enabled: false } })], env);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).toBe("");
    expect(receiver.requests).toHaveLength(1);
  });

  it("settings that cannot be used are a usage error naming the flag, key or variable; nothing runs", async () => {
    const badFlag = await run(["--otlp", "localhost:4318"], cleanEnv());
    expect(badFlag).toMatchObject({ code: 2, stdout: "" });
    expect(badFlag.stderr).toContain('--otlp must be an http:// or https:// URL, got "localhost:4318"');

    const badVariable = await run([], cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }));
    expect(badVariable).toMatchObject({ code: 2, stdout: "" });
    expect(badVariable.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, got "grpc"');

    const unset = await run(["--config", scratch.write("unset.config.json", { tracing: { enabled: true, headers: { authorization: "Bearer ${NOT_SET_ANYWHERE}" } } })], cleanEnv());
    expect(unset).toMatchObject({ code: 2, stdout: "" });
    expect(unset.stderr).toContain("tracing.headers.authorization reads the environment variable NOT_SET_ANYWHERE, which is not set");
  });

  it("a collector that refuses the spans is reported once, the header masked; the run's outcome is its own", async () => {
    const receiver = await startOtlpReceiver();
    // The receiver answers 404 to any other path.
    const result = await run(["--otlp", `${receiver.base}/elsewhere/v1/traces`], cleanEnv({ OTEL_EXPORTER_OTLP_HEADERS: `authorization=${SECRET}` }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^canvasflow: tracing: an export failed: HTTP 404/m);
    expect(result.stderr).not.toContain(SECRET);
    expect(result.stderr).not.toContain("sk-lf-abcdefgh");
  });
});
