/**
 * Workers as real child processes (`canvasflow worker`, the built CLI) on the real Redis:
 * - the kill test: three workers, runs of an I/O-bound canvas (a Loop of rounds, each an Invoke
 *   to a loopback server answering after 20 ms, then an LLM call on the mock), one worker killed
 *   with SIGKILL mid-way: every run ends with the uninterrupted run's final message, every
 *   follower sees exactly one last event, and no event twice except the steps re-run after
 *   workflow_resumed (their number is printed);
 * - pause on one worker, resume on another;
 * - cancel a queued job and a running one;
 * - a canvas that always kills its worker (a component registered with --register) ends failed
 *   after maxStalledCount + 1 deaths, with a clear error as the run's last event;
 * - SIGTERM: the worker takes no more jobs, suspends its run between two steps, hands it back and
 *   exits; another worker finishes it with nothing redone.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRegistry } from "../../src/components/builtins.js";
import { cancelQueuedRun } from "../../src/worker/cancel.js";
import { enqueueRun } from "../../src/worker/enqueue.js";
import { followEvents } from "../../src/durable/follow.js";
import { queueMetrics } from "../../src/worker/metrics.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import type { ComponentRegistry } from "../../src/components/registry.js";
import type { StoredEvent } from "../../src/backends/contracts.js";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { ioCanvas, ROUNDS } from "./io-canvas.js";
import { startLoopbackServer, type LoopbackServer } from "../helpers/http.js";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";

const prefix = uniqueTestPrefix();
const server = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
const queues: RunQueue[] = [];
const children: CliProcess[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function runQueue(name: string): RunQueue {
  const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: name });
  queues.push(queue);
  return queue;
}

afterAll(async () => {
  for (const child of children) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
  for (const queue of queues) {
    await queue.queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
  await server.close();
  const admin = await connectTestRedis();
  await deleteKeys(admin, prefix);
  admin.disconnect();
}, 60_000);

/** A worker child on `queue`; resolves once it takes jobs. */
async function startWorker(queue: string, extra: string[] = []): Promise<CliProcess> {
  const child = spawnCli([
    "worker",
    "--redis",
    TEST_REDIS_URL,
    "--prefix",
    prefix,
    "--queue",
    queue,
    "--mock-llm",
    "--allow-private-network",
    "--register",
    "test/worker/test-components.mjs",
    ...extra,
  ]);
  children.push(child);
  for (let i = 0; i < 600; i++) {
    if (child.stderr().includes("takes runs from the queue")) return child;
    if (child.child.exitCode !== null) throw new Error(`the worker exited (${child.child.exitCode}): ${child.stderr()}`);
    await sleep(50);
  }
  throw new Error(`the worker did not start within 30 s: ${child.stderr()}`);
}

async function follow(session: string, jobId: string, after: string | undefined): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for await (const logged of followEvents(server.runs, session, { ...(after === undefined ? {} : { after }), messageId: jobId, pollMs: 50 })) out.push(logged);
  return out;
}

const kind = (e: StoredEvent) => String(e.event.event);
const componentOf = (e: StoredEvent) => String((e.event.data as { component_id?: unknown }).component_id);

/**
 * What a client shows of a run's messages: the message events, except those of steps that were
 * in flight when a worker died (workflow_resumed names them, and they stream again).
 */
function shownText(events: StoredEvent[]): string {
  const chunks: Array<{ text: string; at: number }> = [];
  const startedAt = new Map<string, number>();
  events.forEach((e, at) => {
    if (kind(e) === "node_started") startedAt.set(componentOf(e), at);
    if (kind(e) === "node_finished") startedAt.delete(componentOf(e));
    if (kind(e) === "message") chunks.push({ text: String((e.event.data as { content: unknown }).content), at });
    if (kind(e) === "workflow_resumed") {
      const inFlight = (e.event.data as { in_flight: string[] }).in_flight;
      const from = Math.min(...inFlight.map((id) => startedAt.get(id) ?? Number.POSITIVE_INFINITY));
      while (chunks.length > 0 && chunks[chunks.length - 1].at > from) chunks.pop();
    }
  });
  return chunks.map((c) => c.text).join("");
}

function countOf(events: StoredEvent[], name: "node_started" | "node_finished"): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of events) if (kind(e) === name) counts[componentOf(e)] = (counts[componentOf(e)] ?? 0) + 1;
  return counts;
}


/** begin → Invoke (a server that holds the answer until told) → Message. */
function heldCanvas(url: string): CanvasDsl {
  return canvasDsl({
    begin: node("Begin", { mode: "task", prologue: "" }, ["Invoke:Hold"]),
    "Invoke:Hold": node("Invoke", { url, method: "post", variables: [{ key: "run", ref: "sys.query" }], headers: "", timeout: 60, datatype: "json" }, ["Invoke:After"]),
    "Invoke:After": node("Invoke", { url: `${url}/after`, method: "post", variables: [{ key: "run", ref: "sys.query" }], headers: "", timeout: 60, datatype: "json" }, ["Message:M"]),
    "Message:M": node("Message", { content: ["held: {Invoke:Hold@result}"] }),
  });
}

/** A loopback server that keeps each request to /hold waiting until `release()`; others answer at once. */
async function holdingServer(): Promise<{ server: LoopbackServer; held: ServerResponse[]; release(): void; close(): Promise<void> }> {
  const held: ServerResponse[] = [];
  let released = false;
  const loopback = await startLoopbackServer((request, res) => {
    if (request.path === "/hold" && !released) held.push(res);
    else res.end(JSON.stringify({ ok: request.path }));
  });
  return {
    server: loopback,
    held,
    release() {
      released = true;
      for (const res of held.splice(0)) res.end(JSON.stringify({ ok: "released" }));
    },
    close: () => loopback.close(),
  };
}

describe("kill test: a worker killed with SIGKILL mid-way loses nothing", () => {
  const RUNS = 60;
  let slow: LoopbackServer;
  /** Requests per run and round. */
  const calls = new Map<string, number>();

  beforeAll(async () => {
    slow = await startLoopbackServer((request, res) => {
      const { round, run } = JSON.parse(request.body) as { round: number; run: string };
      calls.set(`${run}#${round}`, (calls.get(`${run}#${round}`) ?? 0) + 1);
      setTimeout(() => res.end(JSON.stringify({ answer: round * 7 })), 20);
    });
  });
  afterAll(async () => {
    await slow.close();
  });

  it(`${RUNS} runs on 3 workers, one killed: every run ends once with the uninterrupted final message`, async () => {
    const queue = runQueue("kill");
    // A generous lock: on a busy machine a live worker may renew it late, and the job is then
    // (rightly) handed on, which only makes the run wait for its lease; see docs/workers.md.
    const flags = ["--concurrency", "8", "--stall-timeout", "10", "--max-stalled", "3"];
    const workers = await Promise.all([startWorker("kill", flags), startWorker("kill", flags), startWorker("kill", flags)]);
    const dsl = ioCanvas(`${slow.base}/call`, "task");

    // The uninterrupted run.
    const reference = await enqueueRun({ session: "kill-reference", dsl, query: "kill-reference" }, { queue, store: server.runs });
    const clean = await follow("kill-reference", reference.jobId, reference.after);
    const cleanText = shownText(clean);
    const cleanCounts = { node_started: countOf(clean, "node_started"), node_finished: countOf(clean, "node_finished") };
    expect(cleanText).toMatch(new RegExp(`^${ROUNDS} rounds; last: `));
    expect(cleanCounts.node_finished["Invoke:Call"]).toBe(ROUNDS);

    const started = Date.now();
    const runs = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const session = `kill-${i}`;
        return enqueueRun({ session, dsl, query: session }, { queue, store: server.runs });
      }),
    );
    let ended = 0;
    const followed = runs.map((run) =>
      follow(run.session, run.jobId, run.after).then((events) => {
        ended++;
        return events;
      }),
    );
    // Once a quarter of the runs have ended, kill a worker that is in the middle of a run: one whose
    // active job's run has logged events but not its end.
    while (ended < RUNS / 4) await sleep(20);
    const byName = new Map(workers.map((worker) => [`${process.env.HOSTNAME ?? "worker"}:${worker.child.pid}`, worker]));
    let victim: CliProcess | undefined;
    for (let look = 0; !victim; look++) {
      if (look > 1000) throw new Error("no worker was found in the middle of a run");
      for (const job of await queue.queue.getActive()) {
        const log = await server.runs.events(job.data.session, job.data.after === undefined ? {} : { after: job.data.after });
        const own = log.filter((e) => e.event.message_id === job.id);
        if (own.length >= 3 && !own.some((e) => ["workflow_finished", "user_inputs"].includes(kind(e))) && byName.has(job.processedBy ?? "")) {
          victim = byName.get(job.processedBy!)!;
          break;
        }
      }
      if (!victim) await sleep(20);
    }
    victim.child.kill("SIGKILL");
    const killedAt = ended;
    const results = await Promise.all(followed);
    const seconds = (Date.now() - started) / 1000;
    expect((await victim.exited).signal).toBe("SIGKILL");

    let restarted = 0;
    let inFlight = 0;
    let resumes = 0;
    for (const [i, events] of results.entries()) {
      const run = runs[i];
      const where = `run ${i} (${run.jobId})`;
      // Exactly one last event for the run in the whole log, and it is the end the follower saw.
      const log = (await server.runs.events(run.session)).filter((e) => e.event.message_id === run.jobId);
      expect(log.filter((e) => ["workflow_finished", "user_inputs"].includes(kind(e))), where).toHaveLength(1);
      expect(events.at(-1)?.event, where).toMatchObject({ event: "workflow_finished" });
      expect((events.at(-1)!.event.data as { error?: string }).error, where).toBeUndefined();
      // Nothing seen twice…
      expect(new Set(events.map((e) => e.id)).size, where).toBe(events.length);
      // …except the steps in flight when the worker died, which workflow_resumed names: each starts
      // (and finishes) at most once more than in the uninterrupted run for each time it was named.
      const resumed = events.filter((e) => kind(e) === "workflow_resumed");
      resumes += resumed.length;
      for (const e of resumed) inFlight += (e.event.data as { in_flight: string[] }).in_flight.length;
      for (const name of ["node_started", "node_finished"] as const) {
        const counts = countOf(events, name);
        for (const [component, times] of Object.entries(cleanCounts[name])) {
          const announced = resumed.filter((e) => (e.event.data as { in_flight: string[] }).in_flight.includes(component)).length;
          expect(counts[component], `${where}: ${name} ${component}`).toBeGreaterThanOrEqual(times);
          expect(counts[component] - times, `${where}: ${component} ran again without workflow_resumed naming it`).toBeLessThanOrEqual(announced);
          if (name === "node_started") restarted += counts[component] - times;
        }
      }
      expect(shownText(events), where).toBe(cleanText);
      for (let round = 0; round < ROUNDS; round++) expect(calls.get(`${run.session}#${round}`), `${where}: round ${round}`).toBeGreaterThanOrEqual(1);
    }
    const repeatedCalls = [...calls.entries()].filter(([key]) => key.startsWith("kill-") && !key.startsWith("kill-reference")).reduce((sum, [, n]) => sum + n - 1, 0);
    expect(resumes).toBeGreaterThanOrEqual(1);
    const metrics = await queueMetrics(queue);
    expect(metrics.stalled).toBeGreaterThanOrEqual(1);
    expect(metrics.failed).toBe(0);
    console.log(
      `kill test: ${RUNS} runs of ${ROUNDS} rounds on 3 workers (8 at a time each), one killed after ${killedAt} runs had ended; ` +
        `${resumes} runs continued by another worker (workflow_resumed, ${inFlight} steps named in flight), ${restarted} steps started again, ` +
        `${repeatedCalls} HTTP calls repeated; ${metrics.stalled} jobs found stalled; ${seconds.toFixed(1)} s`,
    );
  }, 300_000);
});

describe("pause, resume and cancel across worker processes", () => {
  it("a run that pauses on one worker is resumed by the next job on another", async () => {
    const queue = runQueue("pause");
    const first = await startWorker("pause", ["--stall-timeout", "5"]);
    const asked = await enqueueRun({ session: "pause-1", dsl: "fixtures/user-fill-up.json", query: "a badge please" }, { queue, store: server.runs });
    const paused = await follow("pause-1", asked.jobId, asked.after);
    expect(kind(paused.at(-1)!)).toBe("user_inputs");
    const pausedJob = await queue.queue.getJob(asked.jobId);
    expect(pausedJob?.processedBy).toBe(`${process.env.HOSTNAME ?? "worker"}:${first.child.pid}`);
    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
    expect(first.stderr()).toContain(`canvasflow: run ${asked.jobId}: paused`);

    const second = await startWorker("pause", ["--stall-timeout", "5"]);
    const answered = await enqueueRun({ session: "pause-1", inputs: { name: "Ada", colour: "blue", note: "VIP" } }, { queue, store: server.runs });
    const done = await follow("pause-1", answered.jobId, answered.after);
    expect(shownText(done)).toBe("[blue] Ada VIP");
    expect((await queue.queue.getJob(answered.jobId))?.processedBy).toBe(`${process.env.HOSTNAME ?? "worker"}:${second.child.pid}`);
    second.child.kill("SIGTERM");
    await second.exited;
  }, 120_000);

  it("cancel: a job still queued is removed (its follower sees it end); a running one ends cancelled on its worker", async () => {
    const queue = runQueue("cancel");
    const hold = await holdingServer();
    const worker = await startWorker("cancel", ["--concurrency", "1", "--stall-timeout", "5"]);
    const dsl = heldCanvas(`${hold.server.base}/hold`);
    const running = await enqueueRun({ session: "cancel-running", dsl, query: "r" }, { queue, store: server.runs });
    // The worker's one slot is taken by the held run: the next job waits in the queue.
    while (hold.held.length === 0) await sleep(20);
    const queued = await enqueueRun({ session: "cancel-queued", dsl, query: "q" }, { queue, store: server.runs });
    expect(await queue.queue.getJobState(queued.jobId)).toBe("waiting");
    const options = { queue, store: server.runs, cancel: server.cancel };
    expect(await cancelQueuedRun({ session: "cancel-queued" }, options)).toEqual({ outcome: "removed", jobId: queued.jobId });
    const queuedEvents = await follow("cancel-queued", queued.jobId, queued.after);
    expect(queuedEvents.map((e) => e.event)).toEqual([expect.objectContaining({ event: "workflow_finished", data: expect.objectContaining({ error: "cancelled" }) })]);

    expect(await cancelQueuedRun({ jobId: running.jobId }, options)).toEqual({ outcome: "signalled", jobId: running.jobId });
    const runningEvents = await follow("cancel-running", running.jobId, running.after);
    expect(runningEvents.at(-1)?.event).toMatchObject({ event: "workflow_finished", data: { error: "cancelled" } });
    // The held request was dropped by the cancelled run, not answered.
    expect(runningEvents.filter((e) => kind(e) === "node_finished").map(componentOf)).toEqual(["begin", "Invoke:Hold"]);
    for (let i = 0; i < 100 && !worker.stderr().includes(`run ${running.jobId}: cancelled`); i++) await sleep(50);
    expect(worker.stderr()).toContain(`canvasflow: run ${running.jobId}: cancelled`);
    hold.release();
    worker.child.kill("SIGTERM");
    await worker.exited;
    await hold.close();
  }, 120_000);

  it("SIGTERM: the worker takes no more jobs, suspends its run between two steps and exits; another finishes it with nothing redone", async () => {
    const queue = runQueue("sigterm");
    const hold = await holdingServer();
    const first = await startWorker("sigterm", ["--concurrency", "1", "--grace", "0.5", "--stall-timeout", "5"]);
    const run = await enqueueRun({ session: "sigterm-1", dsl: heldCanvas(`${hold.server.base}/hold`), query: "s" }, { queue, store: server.runs });
    while (hold.held.length === 0) await sleep(20);
    first.child.kill("SIGTERM");
    // Past the grace, the step in flight still finishes; the run stops after it.
    await sleep(1500);
    hold.release();
    const exit = await first.exited;
    expect(exit.code).toBe(0);
    expect(first.stderr()).toContain("canvasflow: stopping: no new runs; 1 still going (0.5 s to finish)");
    expect(first.stderr()).toContain("canvasflow: stopped");
    expect(await queue.queue.getJobState(run.jobId)).toBe("waiting");

    const second = await startWorker("sigterm", ["--stall-timeout", "5"]);
    const events = await follow("sigterm-1", run.jobId, run.after);
    expect(events.filter((e) => kind(e) === "workflow_resumed").map((e) => e.event.data)).toEqual([expect.objectContaining({ in_flight: ["Invoke:After"] })]);
    expect(events.filter((e) => kind(e) === "node_finished").map(componentOf)).toEqual(["begin", "Invoke:Hold", "Invoke:After", "Message:M"]);
    expect(hold.server.requests.filter((r) => r.path === "/hold")).toHaveLength(1);
    expect(shownText(events)).toBe(`held: ${JSON.stringify({ ok: "released" })}`);
    second.child.kill("SIGTERM");
    await second.exited;
    await hold.close();
  }, 120_000);
});

describe("a canvas that always kills its worker", () => {
  it("ends failed after maxStalledCount + 1 deaths, with the reason as the run's last event", async () => {
    const queue = runQueue("crash");
    const flags = ["--stall-timeout", "2", "--max-stalled", "1"];
    // A process manager: a worker that dies is replaced, until the test ends.
    let supervising = true;
    const deaths: Array<number | null> = [];
    const supervise = async (): Promise<void> => {
      while (supervising) {
        const worker = await startWorker("crash", flags);
        const exit = await Promise.race([worker.exited, (async () => {
          while (supervising) await sleep(50);
          worker.child.kill("SIGTERM");
          return worker.exited;
        })()]);
        if (supervising) deaths.push(exit.code);
      }
    };
    const supervisors = [supervise(), supervise()];
    const dsl = canvasDsl({
      begin: node("Begin", { mode: "task", prologue: "" }, ["CrashWorker:Boom"]),
      "CrashWorker:Boom": node("CrashWorker", {}, ["Message:M"]),
      "Message:M": node("Message", { content: ["never shown"] }),
    });
    // The enqueuing side validates the canvas with the same components the workers load.
    const registry = builtinRegistry();
    const components = (await import(new URL("./test-components.mjs", import.meta.url).href)) as { register(registry: ComponentRegistry): void };
    components.register(registry);
    const before = await queueMetrics(queue);
    const run = await enqueueRun({ session: "crash-1", dsl, query: "boom" }, { queue, store: server.runs, registry, attempts: 1 });
    const events = await follow("crash-1", run.jobId, run.after);
    supervising = false;
    await Promise.all(supervisors);

    expect(deaths).toEqual([70, 70]);
    const last = events.at(-1)!;
    expect(last.event).toMatchObject({ event: "workflow_finished", message_id: run.jobId });
    expect((last.event.data as { error: string }).error).toBe(
      "the run was given up: the worker running it died 2 times (a run is handed to another worker after its worker dies, 1 time at most: maxStalledCount)",
    );
    expect(events.filter((e) => kind(e) === "workflow_resumed")).toHaveLength(1);
    expect(await queue.queue.getJobState(run.jobId)).toBe("failed");
    const after = await queueMetrics(queue);
    expect(after.failed).toBe(before.failed + 1);
    expect(after.stalled).toBe(before.stalled + 2);
    // The session goes on from before the failed turn.
    const log = await server.runs.events("crash-1");
    expect(log.filter((e) => e.event.message_id === run.jobId && kind(e) === "workflow_finished")).toHaveLength(1);
  }, 180_000);
});
