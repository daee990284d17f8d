/**
 * Tracing turned on for `canvasflow run` (the built CLI in a child process): by `--otlp URL`, by
 * the config's `tracing` section and by the OTEL_* variables, the spans made during the run reach
 * a loopback OTLP receiver before the process ends (the batch's 5 s delay is not waited for: the
 * spans left are exported on exit). Export headers reach the receiver and never the output.
 * The canvas's own component (`--register`) makes a span through the OpenTelemetry API, as any
 * library a component uses would. And `serve --queue --otlp` with a `worker --otlp`: the server's
 * request span (a child of the client's traceparent) and the worker's spans are exported, the
 * last ones when each process stops.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canvasDsl, node } from "../helpers/dsl.js";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { startOtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.js";
import { clearQueueTest, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";
import { RunQueue } from "../../src/worker/run-queue.js";

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

describe("canvasflow serve --queue and worker with --otlp", () => {
  const prefix = uniqueTestPrefix();
  const children: CliProcess[] = [];
  const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: "traced" });
  afterAll(async () => {
    for (const child of children) if (child.child.exitCode === null) child.child.kill("SIGKILL");
    await Promise.all(children.map((child) => child.exited));
    await clearQueueTest([], [queue], prefix);
  }, 60_000);

  async function started(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: CliProcess; match: RegExpExecArray }> {
    const child = spawnCli(args, { env });
    children.push(child);
    for (let i = 0; i < 600; i++) {
      const match = ready.exec(child.stderr());
      if (match) return { child, match };
      if (child.child.exitCode !== null) throw new Error(`exited (${child.child.exitCode}): ${child.stderr()}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error(`not ready within 30 s: ${child.stderr()}`);
  }

  it("the request span is a child of the client's traceparent; the job carries it to the worker; both processes export on stopping", async () => {
    const receiver = await startOtlpReceiver();
    const env = cleanEnv({ OTEL_SERVICE_NAME: "queued" });
    const common = ["--register", spanModule, "--otlp", receiver.base];
    const server = await started(
      ["serve", "--port", "0", "--queue", TEST_REDIS_URL, "--redis-prefix", prefix, "--queue-name", "traced", "--grace", "0", "--log-level", "warn", ...common],
      env,
      /serving RAGFlow's agent API at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/,
    );
    const worker = await started(["worker", "--redis", TEST_REDIS_URL, "--prefix", prefix, "--queue", "traced", ...common], env, /takes runs from the queue/);
    for (const child of [server.child, worker.child]) expect(child.stderr()).toContain(`canvasflow: tracing: spans go to ${receiver.url} (http/protobuf)\n`);

    const base = server.match[1];
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
      (await (await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })).json()) as { code: number; data: { id: string } };
    const agent = (await post("/api/v1/agents", { title: "traced", dsl: JSON.parse(readFileSync(canvas, "utf8")) })).data.id;
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    expect((await post(`/api/v1/agents/${agent}/completions`, { question: "queued" }, { traceparent })).code).toBe(0);
    // The answer comes from the session's log; the job is marked completed a moment later.
    let [job] = await queue.queue.getJobs(["completed"]);
    for (let i = 0; i < 200 && job === undefined; i++) {
      await new Promise((done) => setTimeout(done, 25));
      [job] = await queue.queue.getJobs(["completed"]);
    }

    for (const child of [server.child, worker.child]) child.child.kill("SIGTERM");
    expect((await server.child.exited).code).toBe(0);
    expect((await worker.child.exited).code).toBe(0);
    const spans = receiver.spans();
    const request = spans.find((span) => span.name === "POST /api/v1/agents/:agent_id/completions");
    expect(request).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "00f067aa0ba902b7", kind: 2, resource: { "service.name": "queued" } });
    expect(request!.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/api/v1/agents/:agent_id/completions", "http.response.status_code": 200 });
    expect(job.data.traceparent).toBe(`00-4bf92f3577b34da6a3ce929d0e0e4736-${request!.spanId}-01`);
    // The worker ran the canvas, and its spans went out when it stopped.
    expect(workSpan(spans)).toMatchObject({ attributes: { "test.query": "queued" }, resource: { "service.name": "queued" } });
  });
});
