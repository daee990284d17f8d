/**
 * The run queue in one process, against the real Redis: enqueue, a worker runs the turn with its
 * events in the session's log as they happen, pause and resume through the queue, cancel of a
 * waiting job and of a running one, the job format's checks, graceful close (suspend and hand
 * back), and the queue's numbers. Child-process workers (kill -9) are in workers.test.ts.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { cancelQueuedRun } from "../../src/worker/cancel.js";
import { createWorker, type RunWorker } from "../../src/worker/worker.js";
import { enqueueRun } from "../../src/worker/enqueue.js";
import { followEvents } from "../../src/durable/follow.js";
import { queueMetrics } from "../../src/worker/metrics.js";
import { readRunJob } from "../../src/worker/job.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import type { StoredEvent } from "../../src/backends/contracts.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { registryWith } from "../helpers/registry.js";

const prefix = uniqueTestPrefix();
const redis = sharedTestRedis();
const server = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix });
const workers: RunWorker[] = [];

/** A step that waits until its gate opens (or 10 s), so a test can act while a run is under way. */
const gates = new Map<string, () => void>();
const opened = new Set<string>();
const Gate: ComponentDefinition = {
  name: "Gate",
  async invoke(ctx) {
    const name = String(ctx.params.name);
    await new Promise<void>((resolve, reject) => {
      if (opened.has(name)) return resolve();
      const timer = setTimeout(resolve, 10_000);
      gates.set(name, () => {
        clearTimeout(timer);
        resolve();
      });
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(ctx.signal.reason as Error);
      });
    });
    ctx.setOutput("content", `passed ${name}`);
  },
};
const registry = registryWith(Gate);
const openGate = (name: string) => {
  opened.add(name);
  gates.get(name)?.();
};

/** begin → Gate(name) → Message. */
const gated = (name: string) =>
  canvasDsl({
    begin: node("Begin", {}, ["Gate:G"]),
    "Gate:G": node("Gate", { name }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{sys.query}: {Gate:G@content}"] }),
  });

async function startWorker(extra: Partial<Parameters<typeof createWorker>[0]> = {}): Promise<RunWorker> {
  const worker = await createWorker({ redis: TEST_REDIS_URL, prefix, registry, lockDurationMs: 4000, graceMs: 5000, ...extra });
  workers.push(worker);
  return worker;
}

async function follow(session: string, jobId: string, after: string | undefined): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for await (const logged of followEvents(server.runs, session, { ...(after === undefined ? {} : { after }), messageId: jobId, pollMs: 10 })) out.push(logged);
  return out;
}

const eventNames = (events: StoredEvent[]) => events.map((e) => e.event.event);
const text = (events: StoredEvent[]) => events.filter((e) => e.event.event === "message").map((e) => (e.event.data as { content: string }).content).join("");
let sessions = 0;
const freshSession = () => `queue-session-${++sessions}`;

beforeEach(async () => {
  await redis.get();
});

afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close({ graceMs: 0 });
});

afterAll(async () => {
  await queue.queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  await server.close();
  const admin = await redis.get();
  await deleteKeys(admin, prefix);
  await redis.close();
});

async function jobResult(jobId: string): Promise<unknown> {
  for (let i = 0; i < 500; i++) {
    if ((await queue.queue.getJobState(jobId)) === "completed") return (await queue.queue.getJob(jobId))!.returnvalue;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${jobId} did not complete`);
}

describe("run queue in one process", () => {
  it("enqueues a new session's turn; a worker runs it; its events reach the log as they happen; the job returns how it ended", async () => {
    await startWorker();
    const session = freshSession();
    openGate("first");
    const run = await enqueueRun({ session, dsl: gated("first"), query: "hi", tenant: "t1", agent: "a1" }, { queue, store: server.runs, registry });
    expect(run).toMatchObject({ session, created: true, after: undefined });
    const events = await follow(session, run.jobId, run.after);
    expect(eventNames(events)[0]).toBe("workflow_started");
    expect(eventNames(events).at(-1)).toBe("workflow_finished");
    expect(events.every((e) => e.event.message_id === run.jobId)).toBe(true);
    expect(text(events)).toBe("hi: passed first");
    expect(await jobResult(run.jobId)).toEqual({ status: "finished", lastEventId: events.at(-1)!.id });
    // The job carries the session and the turn, not the canvas.
    const job = await queue.queue.getJob(run.jobId);
    expect(job!.data).toEqual({ v: 1, session, query: "hi", tenant: "t1", agent: "a1" });

    // The next turn: the session exists (no dsl), its events come after the first turn's.
    const second = await enqueueRun({ session, query: "again" }, { queue, store: server.runs });
    expect(second.after).toBe(events.at(-1)!.id);
    const next = await follow(session, second.jobId, second.after);
    expect(text(next)).toBe("again: passed first");
  });

  it("a live follower sees the step under way before the run ends", async () => {
    await startWorker();
    const session = freshSession();
    const run = await enqueueRun({ session, dsl: gated("live"), query: "q" }, { queue, store: server.runs, registry });
    const seen: string[] = [];
    for await (const logged of followEvents(server.runs, session, { messageId: run.jobId, pollMs: 10 })) {
      seen.push(String(logged.event.event));
      if (logged.event.event === "node_started" && (logged.event.data as { component_id: string }).component_id === "Gate:G") openGate("live");
    }
    expect(seen).toContain("workflow_finished");
  });

  it("pause finishes the job as paused; the next enqueue with inputs resumes it on another worker", async () => {
    const first = await startWorker({ name: "first" });
    const session = freshSession();
    const asked = await enqueueRun({ session, dsl: "fixtures/user-fill-up.json", query: "a badge please" }, { queue, store: server.runs });
    const paused = await follow(session, asked.jobId, asked.after);
    expect(eventNames(paused).at(-1)).toBe("user_inputs");
    expect(await jobResult(asked.jobId)).toMatchObject({ status: "paused" });
    await first.close();
    await startWorker({ name: "second" });
    const answered = await enqueueRun({ session, inputs: { name: "Ada", colour: "blue", note: "VIP" } }, { queue, store: server.runs });
    const done = await follow(session, answered.jobId, answered.after);
    expect(text(done)).toBe("[blue] Ada VIP");
    const job = await queue.queue.getJob(answered.jobId);
    expect(job?.processedBy).toBe("second");
  });

  it("cancel: a waiting job is removed and its follower sees it end; a running one ends cancelled", async () => {
    const session = freshSession();
    // No worker yet: the job waits.
    const waiting = await enqueueRun({ session, dsl: gated("never"), query: "q" }, { queue, store: server.runs, registry });
    expect(await cancelQueuedRun({ session }, { queue, store: server.runs, cancel: server.cancel, registry })).toEqual({ outcome: "removed", jobId: waiting.jobId });
    const ended = await follow(session, waiting.jobId, waiting.after);
    expect(ended.map((e) => e.event)).toEqual([expect.objectContaining({ event: "workflow_finished", message_id: waiting.jobId, data: expect.objectContaining({ error: "cancelled" }) })]);
    expect(await queue.queue.getJob(waiting.jobId)).toBeUndefined();

    await startWorker();
    const running = await enqueueRun({ session, query: "q2" }, { queue, store: server.runs });
    const events: StoredEvent[] = [];
    for await (const logged of followEvents(server.runs, session, { after: running.after, messageId: running.jobId, pollMs: 10 })) {
      events.push(logged);
      if (logged.event.event === "node_started" && (logged.event.data as { component_id: string }).component_id === "Gate:G") {
        expect((await cancelQueuedRun({ jobId: running.jobId }, { queue, store: server.runs, cancel: server.cancel, registry })).outcome).toBe("signalled");
      }
    }
    expect(events.at(-1)?.event).toMatchObject({ event: "workflow_finished", data: { error: "cancelled" } });
    expect(await jobResult(running.jobId)).toMatchObject({ status: "cancelled" });
    expect(await cancelQueuedRun({ jobId: running.jobId }, { queue, store: server.runs, cancel: server.cancel, registry })).toEqual({ outcome: "finished", jobId: running.jobId });
    expect(await cancelQueuedRun({ jobId: "no-such-job" }, { queue, store: server.runs, cancel: server.cancel, registry })).toEqual({ outcome: "none", jobId: "no-such-job" });
  });

  it("close: a run that does not finish within the grace is suspended, its job handed back, and another worker finishes it with nothing redone", async () => {
    const first = await startWorker({ name: "closing" });
    const session = freshSession();
    const run = await enqueueRun({ session, dsl: twoGates("suspend-a", "suspend-b"), query: "q" }, { queue, store: server.runs, registry });
    // Wait until the first gate is under way, then close with a short grace; the gate opens after it.
    for await (const logged of followEvents(server.runs, session, { messageId: run.jobId, pollMs: 10, untilRunEnds: false })) {
      if (logged.event.event === "node_started" && (logged.event.data as { component_id: string }).component_id === "Gate:A") break;
    }
    const closing = first.close({ graceMs: 200 });
    setTimeout(() => openGate("suspend-a"), 600);
    await closing;
    expect(await queue.queue.getJobState(run.jobId)).toBe("waiting");
    openGate("suspend-b");
    await startWorker({ name: "after" });
    const events = await follow(session, run.jobId, run.after);
    const names = eventNames(events);
    expect(names.filter((n) => n === "workflow_resumed")).toHaveLength(1);
    expect(names.filter((n) => n === "workflow_finished")).toHaveLength(1);
    const finishedSteps = events.filter((e) => e.event.event === "node_finished").map((e) => (e.event.data as { component_id: string }).component_id);
    expect(finishedSteps).toEqual(["begin", "Gate:A", "Gate:B", "Message:M"]);
    expect(text(events)).toBe("q: passed suspend-a, passed suspend-b");
  });

  it("counts the queue's jobs by state", async () => {
    const session = freshSession();
    const before = await queueMetrics(queue);
    await enqueueRun({ session, dsl: gated("metrics"), query: "q" }, { queue, store: server.runs, registry });
    const waiting = await queueMetrics(queue);
    expect(waiting.waiting).toBe(before.waiting + 1);
    openGate("metrics");
    await startWorker();
    for (let i = 0; i < 500 && (await queueMetrics(queue)).completed === before.completed; i++) await new Promise((r) => setTimeout(r, 20));
    const after = await queueMetrics(queue);
    expect(after).toMatchObject({ waiting: before.waiting, active: 0, completed: before.completed + 1, failed: before.failed, stalled: before.stalled });
  });

  it("refuses jobs that are not run jobs, naming the field", () => {
    expect(() => readRunJob({ v: 1, session: "" })).toThrow(`a run job's "session": session key must not be empty`);
    expect(() => readRunJob({ v: 2, session: "s" })).toThrow(`a run job's "v" must be 1 (the job format this worker reads), got 2`);
    expect(() => readRunJob({ v: 1, session: "s", dsl: {} })).toThrow(`a run job has unknown field "dsl"`);
    expect(() => readRunJob({ v: 1, session: "s", inputs: [] })).toThrow(`a run job's "inputs" must be an object, got a list`);
    expect(() => readRunJob({ v: 1, session: "s", after: "yesterday" })).toThrow(`a run job's "after" must be an event id (<run>-<n>), got "yesterday"`);
    expect(() => readRunJob({ v: 1, session: "s", query: "x".repeat(2 * 1024 * 1024) })).toThrow(/a run job is \d+ bytes as JSON; the limit is 1048576/);
  });
});

/** begin → Gate A → Gate B → Message. */
function twoGates(a: string, b: string) {
  return canvasDsl({
    begin: node("Begin", {}, ["Gate:A"]),
    "Gate:A": node("Gate", { name: a }, ["Gate:B"]),
    "Gate:B": node("Gate", { name: b }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{sys.query}: {Gate:A@content}, {Gate:B@content}"] }),
  });
}
