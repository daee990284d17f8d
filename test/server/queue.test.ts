/**
 * `createServer({ queue })` (what `canvasflow serve --queue` runs): turns are enqueued and run by
 * workers (`createWorker`, in this process here; in child processes in test/worker/serve-queue.test.ts),
 * and the SSE, JSON and WebSocket answers follow the runs' event logs. Real Redis under a prefix
 * of this file, real loopback clients.
 */
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { builtinRegistry } from "../../src/components/builtins.js";
import { createWorker, type RunWorker } from "../../src/worker/worker.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import type { ComponentRegistry } from "../../src/components/registry.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { clearQueueTest, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { call, createAgent, frames, send, startTestServer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas, userFillUp } from "./canvases.js";

const prefix = uniqueTestPrefix();
const queues: RunQueue[] = [];
const workers: RunWorker[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = any;

afterAll(() => clearQueueTest(workers, queues, prefix), 60_000);

function openQueue(name: string): RunQueue {
  const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: name });
  queues.push(queue);
  return queue;
}

async function queuedServer(name: string, options: { registry?: ComponentRegistry; llm?: boolean; dashboard?: { key: string; path?: string } } = {}): Promise<{ server: TestServer; queue: RunQueue; services: Record<string, unknown> }> {
  const queue = openQueue(name);
  const services = options.llm ? { llm: (await startMockLlm()).provider } : {};
  const server = await startTestServer({ store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), queue, canvas: { services }, ...(options.registry ? { registry: options.registry } : {}), ...(options.dashboard ? { dashboard: options.dashboard } : {}) });
  return { server, queue, services };
}

async function startWorker(name: string, options: { registry?: ComponentRegistry; services?: Record<string, unknown> } = {}): Promise<RunWorker> {
  const worker = await createWorker({ redis: TEST_REDIS_URL, prefix, queue: name, canvas: { services: options.services ?? {} }, ...(options.registry ? { registry: options.registry } : {}), lockDurationMs: 10_000 });
  workers.push(worker);
  return worker;
}

/** A native stream's events (parsed) and whether it ended with [DONE]. */
function streamed(text: string): { events: Event[]; done: boolean } {
  const parts = frames(text).map((frame) => frame.replace(/^data:/, ""));
  const done = parts.at(-1) === "[DONE]";
  return { events: parts.filter((part) => part !== "[DONE]").map((part) => JSON.parse(part)), done };
}

const content = (events: Event[]) => events.filter((e) => e.event === "message").map((e) => e.data.content).join("");

async function waitForState(queue: RunQueue, state: string): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const jobs = await queue.queue.getJobs([state as "waiting"]);
    if (jobs.length > 0) return jobs[0].id!;
    await sleep(20);
  }
  throw new Error(`no job became ${state}`);
}

describe("serve with a run queue", () => {
  it("a streamed turn runs on a worker and streams from its log; the next turn of the session continues it", async () => {
    const { server, queue } = await queuedServer("stream");
    const worker = await startWorker("stream");
    const agentId = await createAgent(server, hello());
    const first = streamed((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", stream: true } })).text);
    expect(first.done).toBe(true);
    expect(first.events.map((e) => e.event).filter((e) => e.startsWith("workflow"))).toEqual(["workflow_started", "workflow_finished"]);
    expect(content(first.events)).toBe("Hello, Ada! This is turn 1.");
    const sessionId = first.events[0].session_id as string;
    const jobId = first.events[0].message_id as string;
    // The run's message id is its job's id; the worker ran it, with the session id as task id.
    expect((await queue.queue.getJob(jobId))?.processedBy).toBe(worker.name);
    expect(first.events.every((e) => e.task_id === sessionId && e.message_id === jobId)).toBe(true);

    const second = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Bob", session_id: sessionId } });
    expect(second.json).toMatchObject({ code: 0, data: { event: "message_end", session_id: sessionId, data: { content: "Hello, Bob! This is turn 2." } } });
    // The session's record gets both turns, as in-process.
    const record = await call(server, `/api/v1/agents/${agentId}/sessions?id=${sessionId}`);
    expect(record.json.data[0].message.slice(1).map((m: Event) => m.content)).toEqual(["Ada", "Hello, Ada! This is turn 1.", "Bob", "Hello, Bob! This is turn 2."]);
  }, 60_000);

  it("the OpenAI-compatible route and the WebSocket transport go through the queue too", async () => {
    const { server, services } = await queuedServer("formats", { llm: true });
    await startWorker("formats", { services });
    const agentId = await createAgent(server, llmCanvas());
    const openAi = await call(server, `/api/v1/agents_openai/${agentId}/chat/completions`, { body: { model: "agent", messages: [{ role: "user", content: "hello" }] } });
    expect(openAi.status).toBe(200);
    expect(openAi.json.object).toBe("chat.completion");
    expect(openAi.json.choices[0].message.content.length).toBeGreaterThan(0);

    const socket = new WebSocket(`${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`, { headers: { authorization: `Bearer ${server.key}` } });
    const got: Event[] = [];
    const done = new Promise<void>((resolve) => socket.on("message", (data) => (got.push(JSON.parse(String(data))), got.at(-1).type === "done" && resolve())));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ type: "run", query: "hello" }));
    await done;
    socket.close();
    expect(got.at(-2)).toMatchObject({ event: "workflow_finished" });
    expect(got.at(-2).data.error).toBeUndefined();
    expect(got.at(-1)).toEqual({ type: "done", session_id: got[0].session_id });
    expect(content(got)).toBe(openAi.json.choices[0].message.content);
  }, 60_000);

  it("a turn that pauses ends its job paused; the next request with inputs enqueues the job that resumes it", async () => {
    const { server, queue } = await queuedServer("pause");
    await startWorker("pause");
    const agentId = await createAgent(server, userFillUp());
    const asked = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "a badge" } });
    expect(asked.json).toMatchObject({ code: 0, data: { event: "user_inputs" } });
    expect((await queue.queue.getJob(asked.json.data.message_id))?.returnvalue).toMatchObject({ status: "paused" });
    const sessionId = asked.json.data.session_id;
    const answered = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: sessionId, inputs: { name: "Ada", colour: "blue", note: "VIP" } } });
    expect(answered.json).toMatchObject({ code: 0, data: { data: { content: "[blue] Ada VIP" } } });
  }, 60_000);

  it("one run per session; a cancel takes a waiting job off the queue and its stream ends cancelled; /metrics counts the queue", async () => {
    // No worker: the job waits.
    const { server, queue } = await queuedServer("cancel");
    const agentId = await createAgent(server, hello());
    const created = await call(server, `/api/v1/agents/${agentId}/sessions`, { body: { name: "s" } });
    const sessionId = created.json.data.id as string;
    const streaming = call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", session_id: sessionId, stream: true } });
    const jobId = await waitForState(queue, "waiting");
    const again = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Bob", session_id: sessionId } });
    expect(again.json).toMatchObject({ code: 103, message: "a run is already in progress on this session" });
    const metrics = await call(server, "/metrics");
    expect(metrics.text).toContain('canvasflow_queue_jobs{state="waiting"} 1');
    expect(metrics.text).toContain("canvasflow_queue_stalled_jobs_total 0");

    expect((await call(server, `/api/v1/tasks/${sessionId}/cancel`, { body: {} })).json).toEqual({ code: 0, message: "success", data: true });
    const { events, done } = streamed((await streaming).text);
    expect(done).toBe(true);
    expect(events).toEqual([expect.objectContaining({ event: "workflow_finished", message_id: jobId, session_id: sessionId, data: expect.objectContaining({ error: "cancelled" }) })]);
    expect(await queue.queue.getJob(jobId)).toBeUndefined();
    // The session takes its next turn.
    await startWorker("cancel");
    const next = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Cy", session_id: sessionId } });
    expect(next.json.data.data.content).toBe("Hello, Cy! This is turn 1.");
  }, 60_000);

  it("a client that goes away cancels its queued run (the worker stops it)", async () => {
    const { server, queue } = await queuedServer("gone", { llm: true });
    const script = { rules: [{ match: ".", reply: "never", delay_ms: 60_000 }] };
    const mock = await startMockLlm(script);
    await startWorker("gone", { services: { llm: mock.provider } });
    const agentId = await createAgent(server, llmCanvas());
    const controller = new AbortController();
    const response = await send(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "hi", stream: true }, signal: controller.signal });
    const jobId = await waitForState(queue, "active");
    while (mock.chatRequests().length === 0) await sleep(20);
    controller.abort();
    await response.text().catch(() => undefined);
    for (let i = 0; i < 500 && (await queue.queue.getJob(jobId))?.returnvalue == null; i++) await sleep(20);
    expect((await queue.queue.getJob(jobId))?.returnvalue).toMatchObject({ status: "cancelled" });
  }, 60_000);

  it("a job that fails before its run starts gives the client a clear error, not a hang", async () => {
    // The server knows a component its workers do not: the worker cannot open the session and fails the job.
    const registry = builtinRegistry();
    registry.register({ name: "ServerOnly", invoke: (ctx) => ctx.setOutput("content", "x") });
    const { server, queue } = await queuedServer("fail", { registry });
    await startWorker("fail");
    const agentId = await createAgent(server, canvasDsl({ begin: node("Begin", { mode: "task", prologue: "" }, ["ServerOnly:S"]), "ServerOnly:S": node("ServerOnly", {}, []) }));
    const { events, done } = streamed((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "x", stream: true } })).text);
    expect(done).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: "workflow_finished" });
    expect(events[0].data.error).toMatch(/^the run could not be completed: its job failed: session "[0-9a-f]{32}": its canvas cannot run on this worker: .*ServerOnly/);
    expect(await queue.queue.getJobState(events[0].message_id)).toBe("failed");
    const answer = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "x" } });
    expect(answer.json.code).toBe(100);
    expect(answer.json.message).toMatch(/its job failed/);
  }, 60_000);

  it("the queue dashboard is served only to its admin key (bearer or Basic), read-only; a tenant's API key does not open it", async () => {
    const adminKey = "dashboard-admin-key-0123456789";
    const { server, queue } = await queuedServer("dashboard", { dashboard: { key: adminKey } });
    const agentId = await createAgent(server, hello());
    const created = await call(server, `/api/v1/agents/${agentId}/sessions`, { body: { name: "s" } });
    const streaming = call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", session_id: created.json.data.id, stream: true } });
    const jobId = await waitForState(queue, "waiting");

    for (const key of [null, server.key, "wrong-key-wrong-key-wrong"]) {
      const refused = await call(server, "/admin/queues/api/queues", { key });
      expect(refused.status, String(key)).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
      expect(refused.json).toMatchObject({ code: 401, message: expect.stringContaining("admin key") });
    }
    const page = await call(server, "/admin/queues", { key: null, headers: { authorization: `Basic ${Buffer.from(`admin:${adminKey}`).toString("base64")}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const api = await call(server, "/admin/queues/api/queues?activeQueue=dashboard&status=waiting", { key: adminKey });
    expect(api.status).toBe(200);
    const listed = api.json.queues.find((q: Event) => q.name === "dashboard");
    expect(listed.readOnlyMode).toBe(true);
    expect(listed.jobs.map((job: Event) => job.id)).toContain(jobId);
    // Read-only: a job cannot be removed through it.
    const removed = await call(server, "/admin/queues/api/queues/dashboard/empty", { method: "PUT", key: adminKey });
    expect(removed.status).toBeGreaterThanOrEqual(400);
    expect(await queue.queue.getJobState(jobId)).toBe("waiting");
    await call(server, `/api/v1/tasks/${created.json.data.id}/cancel`, { body: {} });
    await streaming;
  }, 60_000);

  it("the dashboard needs a queue and a long enough key", async () => {
    const { createServer, InProcessServerStore } = await import("../../src/server/index.js");
    expect(() => createServer({ store: new InProcessServerStore(), dashboard: { key: "k".repeat(20) } })).toThrow("createServer: dashboard needs queue");
    expect(() => createServer({ store: new InProcessServerStore(), queue: openQueue("x"), dashboard: { key: "short" } })).toThrow(/dashboard.key must be a string of at least 16 characters/);
    expect(() => createServer({ store: new InProcessServerStore(), queue: openQueue("x"), dashboard: { key: "k".repeat(20), path: "/api/v1/q" } })).toThrow(/dashboard.path must be a path/);
  });
});
