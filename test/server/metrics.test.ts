/**
 * /metrics (docs/server.md, Metrics): Prometheus text from a registry per server, scraped after
 * real runs: runs started, finished (completed, paused) and failed (error, cancelled, time_limit),
 * step latency from node_finished's elapsed_time, runs and streams going now, turns waiting to
 * set up, rate-limit rejections. Served to loopback clients without a proxy's forwarding headers, to every client
 * with `metrics.public`, not at all with `metrics.enabled: false`.
 */
import { describe, expect, it } from "vitest";
import { canvasDsl, node } from "../helpers/dsl.js";
import { standIn } from "../helpers/http.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";
import { call, createAgent, frames, holdAgentReads, send, startTestServer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas, userFillUp } from "./canvases.js";

const COMPLETIONS = "/api/v1/agents/chat/completions";

interface StreamedEvent {
  event: string;
  session_id: string;
  data: { component_type?: string; elapsed_time?: number; error?: string };
}

async function scrape(server: TestServer): Promise<string> {
  const answer = await call(server, "/metrics", { key: null });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.text;
}

/** A sample's value, e.g. value(text, "canvasflow_runs_failed_total", { reason: "cancelled" }). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, v]) => `${key}="${v}"`);
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(",") : [];
    if (wanted.length === present.length && wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  throw new Error(`no sample ${name}{${wanted.join(",")}} in:\n${text}`);
}

async function streamed(server: TestServer, body: Record<string, unknown>): Promise<StreamedEvent[]> {
  const text = await (await send(server, COMPLETIONS, { body: { ...body, stream: true } })).text();
  return frames(text)
    .slice(0, -1)
    .map((frame) => JSON.parse(frame.slice("data:".length)) as StreamedEvent);
}

/** A streaming run held in the mock LLM; resolves once the model was asked, with its events to come. */
async function heldRun(server: TestServer, agentId: string, mock: MockLlm) {
  const asked = mock.chatRequests().length;
  const response = await send(server, COMPLETIONS, { body: { agent_id: agentId, query: "slow", stream: true } });
  const text = response.text();
  while (mock.chatRequests().length === asked) await new Promise((resolve) => setTimeout(resolve, 10));
  return { text };
}

describe("/metrics", () => {
  it("counts runs by outcome, steps from node_finished, runs and streams going, and rejections", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "fine" }] });
    const blocked = await standIn((_request, res) => res.end("reached"));
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } }, rateLimits: { runsPerKey: 1 } });
    const before = await scrape(server);
    expect(value(before, "canvasflow_runs_started_total")).toBe(0);
    expect(value(before, "canvasflow_runs_failed_total", { reason: "time_limit" })).toBe(0);
    expect(value(before, "canvasflow_active_streams")).toBe(0);
    expect(value(before, "process_resident_memory_bytes")).toBeGreaterThan(0);

    const events: StreamedEvent[] = [];
    const helloId = await createAgent(server, hello());
    events.push(...(await streamed(server, { agent_id: helloId, query: "Ada" })));
    events.push(...(await streamed(server, { agent_id: helloId, query: "Bob" })));
    events.push(...(await streamed(server, { agent_id: await createAgent(server, userFillUp()), query: "hi" })));
    const invoke = canvasDsl({
      begin: node("Begin", {}, ["Invoke:Local"]),
      "Invoke:Local": node("Invoke", { url: `${blocked.base}/x`, method: "get", timeout: 5 }, ["Message:Show"]),
      "Message:Show": node("Message", { content: ["{Invoke:Local@result}"] }),
    });
    const failed = await streamed(server, { agent_id: await createAgent(server, invoke), query: "go" });
    expect(failed.at(-1)?.data.error).toContain("non-public address");
    events.push(...failed);

    const llmId = await createAgent(server, llmCanvas());
    const held = await heldRun(server, llmId, mock);
    const during = await scrape(server);
    expect(value(during, "canvasflow_active_streams")).toBe(1);
    expect(value(during, "canvasflow_active_runs")).toBe(1);
    // The key's one run is going: the next is refused.
    expect((await call(server, COMPLETIONS, { body: { agent_id: helloId, query: "Cy" } })).status).toBe(429);
    // The agent's only session is the held run's.
    const [session] = (await call(server, `/api/v1/agents/${llmId}/sessions`)).json.data;
    await call(server, `/api/v1/tasks/${session.id}/cancel`, { method: "POST" });
    const cancelled = frames(await held.text)
      .slice(0, -1)
      .map((frame) => JSON.parse(frame.slice("data:".length)) as StreamedEvent);
    expect(cancelled.at(-1)?.data.error).toBe("cancelled");
    events.push(...cancelled);

    const after = await scrape(server);
    expect(value(after, "canvasflow_runs_started_total")).toBe(5);
    expect(value(after, "canvasflow_runs_finished_total", { outcome: "completed" })).toBe(2);
    expect(value(after, "canvasflow_runs_finished_total", { outcome: "paused" })).toBe(1);
    expect(value(after, "canvasflow_runs_failed_total", { reason: "error" })).toBe(1);
    expect(value(after, "canvasflow_runs_failed_total", { reason: "cancelled" })).toBe(1);
    expect(value(after, "canvasflow_runs_failed_total", { reason: "time_limit" })).toBe(0);
    expect(value(after, "canvasflow_active_runs")).toBe(0);
    expect(value(after, "canvasflow_active_streams")).toBe(0);
    expect(value(after, "canvasflow_rate_limit_rejections_total", { limit: "key_runs" })).toBe(1);
    expect(value(after, "canvasflow_rate_limit_rejections_total", { limit: "completions" })).toBe(0);

    // One observation per node_finished, by component type, summing its elapsed_time.
    const steps = events.filter((event) => event.event === "node_finished");
    expect(steps.length).toBeGreaterThanOrEqual(8);
    for (const type of new Set(steps.map((step) => step.data.component_type!))) {
      const ofType = steps.filter((step) => step.data.component_type === type);
      expect(value(after, "canvasflow_step_duration_seconds_count", { component: type }), type).toBe(ofType.length);
      const sum = ofType.reduce((total, step) => total + step.data.elapsed_time!, 0);
      expect(value(after, "canvasflow_step_duration_seconds_sum", { component: type })).toBeCloseTo(sum, 6);
      expect(value(after, "canvasflow_step_duration_seconds_bucket", { component: type, le: "+Inf" })).toBe(ofType.length);
    }
  });

  it("counts the turns waiting for a place to set up (limits.setupsAtOnce)", async () => {
    const server = await startTestServer({ limits: { setupsAtOnce: 1 } });
    const helloId = await createAgent(server, hello());
    // The agent's read is the first step of a setup: held here, the first turn keeps its place.
    const held = holdAgentReads(server.store);
    const turns = [call(server, COMPLETIONS, { body: { agent_id: helloId, query: "Ada" } }), call(server, COMPLETIONS, { body: { agent_id: helloId, query: "Bob" } })];
    await held.started();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(held.reads()).toBe(1);
    expect(value(await scrape(server), "canvasflow_setups_waiting")).toBe(1);
    held.open();
    expect((await Promise.all(turns)).map((answer) => answer.json.code)).toEqual([0, 0]);
    expect(value(await scrape(server), "canvasflow_setups_waiting")).toBe(0);
  });

  it("each server counts its own (a registry per server): a run stopped by its time limit counts on its server only", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "fine" }] });
    const a = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const b = await startTestServer({ canvas: { services: { llm: mock.provider } }, limits: { runMs: 300 }, rateLimits: { requestsPerMinute: 1 } });
    await streamed(a, { agent_id: await createAgent(a, hello()), query: "Ada" });
    const limited = await streamed(b, { agent_id: await createAgent(b, llmCanvas()), query: "slow" });
    expect(limited.at(-1)?.data.error).toMatch(/^run time limit reached/);
    expect((await call(b, "/api/v1/agents")).status).toBe(429);
    const [onA, onB] = [await scrape(a), await scrape(b)];
    expect(value(onA, "canvasflow_runs_finished_total", { outcome: "completed" })).toBe(1);
    expect(value(onA, "canvasflow_runs_failed_total", { reason: "time_limit" })).toBe(0);
    expect(value(onA, "canvasflow_rate_limit_rejections_total", { limit: "requests" })).toBe(0);
    expect(value(onB, "canvasflow_runs_started_total")).toBe(1);
    expect(value(onB, "canvasflow_runs_finished_total", { outcome: "completed" })).toBe(0);
    expect(value(onB, "canvasflow_runs_failed_total", { reason: "time_limit" })).toBe(1);
    expect(value(onB, "canvasflow_rate_limit_rejections_total", { limit: "requests" })).toBe(1);
  });

  it("is refused (403) through a proxy unless metrics.public; metrics.enabled: false takes it away", async () => {
    const server = await startTestServer();
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip"]) {
      const refused = await call(server, "/metrics", { key: null, headers: { [header]: "203.0.113.9" } });
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ code: 403, message: expect.stringContaining("set server.metrics.public to true"), data: null });
    }
    // A key does not open it: the figures cover every tenant.
    expect((await call(server, "/metrics", { headers: { "x-forwarded-for": "203.0.113.9" } })).status).toBe(403);

    const open = await startTestServer({ metrics: { public: true } });
    expect((await call(open, "/metrics", { key: null, headers: { "x-forwarded-for": "203.0.113.9" } })).status).toBe(200);

    const off = await startTestServer({ metrics: { enabled: false } });
    const missing = await call(off, "/metrics", { key: null });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 404, message: "Not Found: /metrics" });
  });
});
