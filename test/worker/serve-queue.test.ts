/**
 * `canvasflow serve --queue` with separate `canvasflow worker` processes: two servers and the
 * workers are child processes of the built CLI on the real Redis (a prefix of this file), and the
 * clients are real HTTP clients reading the servers' SSE streams.
 *
 * - The kill test (issue 11's acceptance): 2 servers, 3 workers, 300 streaming completions of the
 *   I/O-bound canvas (a Loop of 10 rounds, each an Invoke to a loopback server answering after
 *   20 ms, then an LLM call on the mock) spread over both servers; one worker killed with SIGKILL
 *   while it is in the middle of a run. Every stream ends with exactly one last event and [DONE],
 *   shows the uninterrupted run's final message, and carries each of its run's logged events once,
 *   in order: a step seen more often than in the uninterrupted run was named in flight by
 *   workflow_resumed. The number of steps run again is printed.
 * - Pause on one worker, resume on another, through the servers.
 * - Cancel (RAGFlow's cancel route) of a queued job and of a running one.
 * - A canvas whose component kills its worker (process.exit, loaded with --register): the job ends
 *   failed after maxStalledCount + 1 deaths and the client's stream ends with the reason.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { ioCanvas, ROUNDS } from "./io-canvas.js";
import { startLoopbackServer, type LoopbackServer } from "../helpers/http.js";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";
import { fixture } from "../helpers/server.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = any;

const prefix = uniqueTestPrefix();
const store = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
const children: CliProcess[] = [];
const queues: RunQueue[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const folder = scratchDir("cf-serve-queue-");
// The servers' rate limits are off: one client sends every completion.
const config = folder.write("config.json", { server: { rateLimits: { completionsPerMinute: 0, requestsPerMinute: 0, runsPerKey: 0, runsPerServer: 0 } } });
const SERVING = /serving RAGFlow's agent API at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;
const HOST = process.env.HOSTNAME ?? "worker";

afterAll(async () => {
  for (const child of children) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
  for (const queue of queues) {
    await queue.queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
  await store.close();
  const admin = await connectTestRedis();
  await deleteKeys(admin, prefix);
  admin.disconnect();
}, 60_000);

function runQueue(name: string): RunQueue {
  const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: name });
  queues.push(queue);
  return queue;
}

async function waitFor<T>(what: string, child: CliProcess, read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = read();
    if (value !== undefined) return value;
    if (child.child.exitCode !== null) throw new Error(`${what}: the process exited (${child.child.exitCode}): ${child.stderr()}`);
    await sleep(50);
  }
  throw new Error(`${what}: not within 60 s: ${child.stderr()}`);
}

interface Server {
  proc: CliProcess;
  base: string;
}

async function startServer(queue: string, extra: string[] = []): Promise<Server> {
  const proc = spawnCli([
    "serve",
    "--port",
    "0",
    "--queue",
    TEST_REDIS_URL,
    "--redis-prefix",
    prefix,
    "--queue-name",
    queue,
    "--config",
    config,
    "--mock-llm",
    "--register",
    "test/worker/test-components.mjs",
    "--grace",
    "0",
    "--log-level",
    "warn",
    ...extra,
  ]);
  children.push(proc);
  const base = await waitFor("the server's banner", proc, () => SERVING.exec(proc.stderr())?.[1]);
  return { proc, base };
}

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
  await waitFor("the worker's banner", child, () => (child.stderr().includes("takes runs from the queue") ? true : undefined));
  return child;
}

async function stop(child: CliProcess): Promise<void> {
  if (child.child.exitCode !== null || child.child.signalCode !== null) return;
  child.child.kill("SIGTERM");
  await child.exited;
}

async function post(server: Server, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function createAgent(server: Server, dsl: unknown, title: string): Promise<string> {
  const answer = (await (await post(server, "/api/v1/agents", { title, dsl })).json()) as Event;
  if (answer.code !== 0) throw new Error(`create agent: ${JSON.stringify(answer)}`);
  return answer.data.id as string;
}

async function newSession(server: Server, agentId: string): Promise<string> {
  const answer = (await (await post(server, `/api/v1/agents/${agentId}/sessions`, { name: "s" })).json()) as Event;
  return answer.data.id as string;
}

/** A streaming completion, read to its end: its events and whether [DONE] came last. */
async function stream(server: Server, body: Record<string, unknown>): Promise<{ events: Event[]; done: boolean }> {
  const text = await (await post(server, "/api/v1/agents/chat/completions", { ...body, stream: true })).text();
  const parts = text.split("\n\n").filter((part) => part !== "");
  for (const part of parts) if (!part.startsWith("data:")) throw new Error(`not an SSE data frame: ${part.slice(0, 200)}`);
  const data = parts.map((part) => part.slice("data:".length));
  return { events: data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d)), done: data.at(-1) === "[DONE]" && data.indexOf("[DONE]") === data.length - 1 };
}

const TERMINAL = ["workflow_finished", "user_inputs"];
const componentOf = (e: Event) => String(e.data?.component_id);

/** The message text a client shows, dropping what steps re-run after workflow_resumed streamed before it. */
function shownText(events: Event[]): string {
  const chunks: Array<{ text: string; at: number }> = [];
  const startedAt = new Map<string, number>();
  events.forEach((e, at) => {
    if (e.event === "node_started") startedAt.set(componentOf(e), at);
    if (e.event === "node_finished") startedAt.delete(componentOf(e));
    if (e.event === "message") chunks.push({ text: String(e.data.content), at });
    if (e.event === "workflow_resumed") {
      const from = Math.min(...(e.data.in_flight as string[]).map((id) => startedAt.get(id) ?? Number.POSITIVE_INFINITY));
      while (chunks.length > 0 && chunks[chunks.length - 1].at > from) chunks.pop();
    }
  });
  return chunks.map((c) => c.text).join("");
}

function countOf(events: Event[], name: "node_started" | "node_finished"): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of events) if (e.event === name) counts[componentOf(e)] = (counts[componentOf(e)] ?? 0) + 1;
  return counts;
}


/** The run's events in the session's log (what the stream must carry, without session_id). */
async function logged(session: string, messageId: string): Promise<Event[]> {
  return (await store.runs.events(session)).filter((e) => e.event.message_id === messageId).map((e) => e.event);
}

describe("kill test: 2 servers, 3 workers, 300 streamed runs, a worker killed with SIGKILL mid-way", () => {
  const RUNS = 300;
  let slow: LoopbackServer;
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

  it(`${RUNS} runs: each stream ends once, with the uninterrupted final message, and no event twice but re-run steps`, async () => {
    const queue = runQueue("kill");
    const servers = await Promise.all([startServer("kill"), startServer("kill")]);
    // A generous lock: on a busy machine a live worker may renew it late; see docs/workers.md.
    const flags = ["--concurrency", "16", "--stall-timeout", "10", "--max-stalled", "3"];
    const workers = await Promise.all([startWorker("kill", flags), startWorker("kill", flags), startWorker("kill", flags)]);
    const agentId = await createAgent(servers[0], ioCanvas(`${slow.base}/call`, "conversational"), "io-bound");

    const clean = await stream(servers[1], { agent_id: agentId, query: "kill-reference" });
    expect(clean.done).toBe(true);
    const cleanText = shownText(clean.events);
    expect(cleanText).toMatch(new RegExp(`^${ROUNDS} rounds; last: `));
    const cleanCounts = { node_started: countOf(clean.events, "node_started"), node_finished: countOf(clean.events, "node_finished") };
    expect(cleanCounts.node_finished["Invoke:Call"]).toBe(ROUNDS);

    const started = Date.now();
    let ended = 0;
    const runs = Array.from({ length: RUNS }, (_, i) =>
      stream(servers[i % 2], { agent_id: agentId, query: `kill-${i}` }).then((result) => {
        ended++;
        return result;
      }),
    );
    // Once a quarter have ended, kill a worker in the middle of a run: its active job's run has logged events, not its end.
    while (ended < RUNS / 4) await sleep(20);
    const byName = new Map(workers.map((worker) => [`${HOST}:${worker.child.pid}`, worker]));
    let victim: CliProcess | undefined;
    for (let look = 0; !victim; look++) {
      if (look > 1000) throw new Error("no worker was found in the middle of a run");
      for (const job of await queue.queue.getActive()) {
        const own = await logged(job.data.session, job.id!);
        if (own.length >= 3 && !own.some((e) => TERMINAL.includes(e.event)) && byName.has(job.processedBy ?? "")) {
          victim = byName.get(job.processedBy!)!;
          break;
        }
      }
      if (!victim) await sleep(20);
    }
    victim.child.kill("SIGKILL");
    const killedAt = ended;
    const results = await Promise.all(runs);
    const seconds = (Date.now() - started) / 1000;
    expect((await victim.exited).signal).toBe("SIGKILL");

    let restarted = 0;
    let inFlight = 0;
    let resumes = 0;
    for (const [i, { events, done }] of results.entries()) {
      const where = `run ${i}`;
      expect(done, where).toBe(true);
      // Exactly one last event, the stream's last.
      expect(events.filter((e) => TERMINAL.includes(e.event)), where).toHaveLength(1);
      expect(events.at(-1), where).toMatchObject({ event: "workflow_finished" });
      expect(events.at(-1).data.error, where).toBeUndefined();
      const { session_id: session, message_id: messageId } = events[0];
      expect(events.every((e) => e.session_id === session && e.message_id === messageId), where).toBe(true);
      // The stream carries each logged event of the run once, in the log's order: nothing twice.
      expect(events.map(({ session_id: _s, ...event }) => event), where).toEqual(await logged(session, messageId));
      // A step runs more often than uninterrupted only as often as workflow_resumed named it in flight.
      const resumed = events.filter((e) => e.event === "workflow_resumed");
      resumes += resumed.length;
      for (const e of resumed) inFlight += (e.data.in_flight as string[]).length;
      for (const name of ["node_started", "node_finished"] as const) {
        const counts = countOf(events, name);
        for (const [component, times] of Object.entries(cleanCounts[name])) {
          const announced = resumed.filter((e) => (e.data.in_flight as string[]).includes(component)).length;
          expect(counts[component], `${where}: ${name} ${component}`).toBeGreaterThanOrEqual(times);
          expect(counts[component] - times, `${where}: ${component} ran again without workflow_resumed naming it`).toBeLessThanOrEqual(announced);
          if (name === "node_started") restarted += counts[component] - times;
        }
      }
      expect(shownText(events), where).toBe(cleanText);
      for (let round = 0; round < ROUNDS; round++) expect(calls.get(`kill-${i}#${round}`), `${where}: round ${round}`).toBeGreaterThanOrEqual(1);
    }
    const repeatedCalls = [...calls.entries()].filter(([key]) => key.startsWith("kill-") && !key.startsWith("kill-reference")).reduce((sum, [, n]) => sum + n - 1, 0);
    expect(resumes).toBeGreaterThanOrEqual(1);
    const metrics = await (await fetch(`${servers[0].base}/metrics`)).text();
    expect(metrics).toMatch(/canvasflow_queue_stalled_jobs_total [1-9]/);
    expect(metrics).toContain('canvasflow_queue_jobs{state="failed"} 0');
    console.log(
      `serve --queue kill test: ${RUNS} streamed runs of ${ROUNDS} rounds over 2 servers and 3 workers (16 at a time each), one worker killed after ${killedAt} runs had ended; ` +
        `${resumes} runs continued by another worker (workflow_resumed, ${inFlight} steps named in flight), ${restarted} steps re-run, ${repeatedCalls} HTTP calls repeated; ${seconds.toFixed(1)} s`,
    );
    await Promise.all([...servers.map((server) => stop(server.proc)), ...workers.filter((w) => w !== victim).map(stop)]);
  }, 900_000);
});

/** A loopback server that keeps each request to /hold waiting until `release()`; others answer at once. */
async function holdingServer(): Promise<{ server: LoopbackServer; held: ServerResponse[]; release(): void }> {
  const held: ServerResponse[] = [];
  let released = false;
  const server = await startLoopbackServer((request, res) => {
    if (request.path === "/hold" && !released) held.push(res);
    else res.end(JSON.stringify({ ok: request.path }));
  });
  return {
    server,
    held,
    release() {
      released = true;
      for (const res of held.splice(0)) res.end(JSON.stringify({ ok: "released" }));
    },
  };
}

describe("pause, resume and cancel through servers and worker processes", () => {
  it("a run paused on one worker is resumed on another, each turn sent to a different server", async () => {
    runQueue("pause");
    const servers = await Promise.all([startServer("pause"), startServer("pause")]);
    const first = await startWorker("pause", ["--stall-timeout", "5"]);
    const agentId = await createAgent(servers[0], fixture("user-fill-up.json"), "badge");
    const asked = await stream(servers[0], { agent_id: agentId, query: "a badge please" });
    expect(asked.events.at(-1)).toMatchObject({ event: "user_inputs" });
    const session = asked.events[0].session_id;
    await stop(first);
    expect(first.stderr()).toContain(`canvasflow: run ${asked.events[0].message_id}: paused`);

    const second = await startWorker("pause", ["--stall-timeout", "5"]);
    const answered = await stream(servers[1], { agent_id: agentId, session_id: session, inputs: { name: "Ada", colour: "blue", note: "VIP" } });
    expect(shownText(answered.events)).toBe("[blue] Ada VIP");
    expect(answered.events.at(-1)).toMatchObject({ event: "workflow_finished" });
    // The worker logs the run's end after the event log has it: read its log once it has stopped.
    await Promise.all([stop(second), ...servers.map((s) => stop(s.proc))]);
    expect(second.stderr()).toContain(`canvasflow: run ${answered.events[0].message_id}: finished`);
  }, 180_000);

  it("a StateGraph (registered with --register on server and workers) pauses from inside a node on one worker and resumes on another", async () => {
    runQueue("graph");
    const register = ["--register", "test/fixtures/graph/approval.mjs"];
    const server = await startServer("graph", register);
    const first = await startWorker("graph", ["--stall-timeout", "5", ...register]);
    // @ts-expect-error a plain ES module of the fixtures, without types
    const { graph } = (await import("../fixtures/graph/approval.mjs")) as { graph: { dsl: unknown } };
    const agentId = await createAgent(server, graph.dsl, "approval");
    const asked = await stream(server, { agent_id: agentId, query: "", inputs: { topic: { value: "refunds", type: "object" } } });
    expect(asked.done).toBe(true);
    expect(asked.events.filter((e) => e.event === "node_finished").map(componentOf)).toEqual(["begin", "__start__", "draft"]);
    expect(asked.events.at(-1)).toMatchObject({ event: "user_inputs", data: { interrupts: [{ id: "review:0", component_id: "review", value: { question: "Publish this?", draft: "A draft about refunds." } }] } });
    const session = asked.events[0].session_id;
    await stop(first);

    const second = await startWorker("graph", ["--stall-timeout", "5", ...register]);
    const answered = await stream(server, { agent_id: agentId, session_id: session, inputs: { resume: true } });
    expect(answered.events.filter((e) => e.event === "node_finished").map(componentOf)).toEqual(["review", "publish", "publish__state"]);
    expect(shownText(answered.events)).toBe("Published: A draft about refunds.");
    expect(answered.events.at(-1)).toMatchObject({ event: "workflow_finished" });
    await Promise.all([stop(second), stop(server.proc)]);
  }, 180_000);

  it("cancel: a queued job is taken off the queue and a running one stopped on its worker; both streams end cancelled", async () => {
    const queue = runQueue("cancel");
    const hold = await holdingServer();
    const servers = await Promise.all([startServer("cancel"), startServer("cancel")]);
    // A stall timeout far above any pause of a loaded machine: a held job whose lock lapsed would be
    // taken again, and the worker's one slot would then take the job this test keeps queued.
    const worker = await startWorker("cancel", ["--concurrency", "1", "--stall-timeout", "60"]);
    const dsl = canvasDsl({
      begin: node("Begin", { mode: "conversational", prologue: "" }, ["Invoke:Hold"]),
      "Invoke:Hold": node("Invoke", { url: `${hold.server.base}/hold`, method: "post", variables: [{ key: "run", ref: "sys.query" }], headers: "", timeout: 60, datatype: "json" }, ["Message:M"]),
      "Message:M": node("Message", { content: ["held: {Invoke:Hold@result}"] }),
    });
    const agentId = await createAgent(servers[0], dsl, "held");
    const runningSession = await newSession(servers[0], agentId);
    const queuedSession = await newSession(servers[1], agentId);
    const running = stream(servers[0], { agent_id: agentId, session_id: runningSession, query: "r" });
    while (hold.held.length === 0) await sleep(20);
    // The worker's one slot is taken: the next job waits in the queue.
    const queued = stream(servers[1], { agent_id: agentId, session_id: queuedSession, query: "q" });
    while ((await queue.queue.getWaitingCount()) === 0) await sleep(20);

    // Each cancelled through the other server.
    expect(await (await post(servers[0], `/api/v1/tasks/${queuedSession}/cancel`, {})).json()).toEqual({ code: 0, message: "success", data: true });
    const queuedEvents = (await queued).events;
    expect(queuedEvents).toEqual([expect.objectContaining({ event: "workflow_finished", data: expect.objectContaining({ error: "cancelled" }) })]);
    expect(await queue.queue.getWaitingCount()).toBe(0);

    const patched = await fetch(`${servers[1].base}/api/v1/tasks/${runningSession}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ action: "stop" }) });
    expect(await patched.json()).toEqual({ code: 0, message: "success", data: true });
    const runningEvents = (await running).events;
    expect(runningEvents.at(-1)).toMatchObject({ event: "workflow_finished", data: { error: "cancelled" } });
    expect(runningEvents.filter((e) => e.event === "node_finished").map(componentOf)).toEqual(["begin", "Invoke:Hold"]);
    for (let i = 0; i < 100 && !worker.stderr().includes(`run ${runningEvents[0].message_id}: cancelled`); i++) await sleep(50);
    expect(worker.stderr()).toContain(`canvasflow: run ${runningEvents[0].message_id}: cancelled`);
    hold.release();
    await Promise.all([stop(worker), ...servers.map((s) => stop(s.proc))]);
    await hold.server.close();
  }, 180_000);
});

describe("a canvas that always kills its worker", () => {
  it("ends failed after maxStalledCount + 1 deaths; the client's stream ends with the reason", async () => {
    const queue = runQueue("crash");
    const server = await startServer("crash");
    const flags = ["--stall-timeout", "2", "--max-stalled", "1"];
    // A process manager: a worker that dies is replaced, until the test ends.
    let supervising = true;
    const deaths: Array<number | null> = [];
    const supervise = async (): Promise<void> => {
      while (supervising) {
        const worker = await startWorker("crash", flags);
        const exit = await Promise.race([
          worker.exited,
          (async () => {
            while (supervising) await sleep(50);
            worker.child.kill("SIGTERM");
            return worker.exited;
          })(),
        ]);
        if (supervising) deaths.push(exit.code);
      }
    };
    const supervisors = [supervise(), supervise()];
    // The server knows the component from its own --register, as the workers do.
    const agentId = await createAgent(
      server,
      canvasDsl({
        begin: node("Begin", { mode: "conversational", prologue: "" }, ["CrashWorker:Boom"]),
        "CrashWorker:Boom": node("CrashWorker", {}, ["Message:M"]),
        "Message:M": node("Message", { content: ["never shown"] }),
      }),
      "crash",
    );
    const { events, done } = await stream(server, { agent_id: agentId, query: "boom" });
    supervising = false;
    await Promise.all(supervisors);

    expect(deaths).toEqual([70, 70]);
    expect(done).toBe(true);
    expect(events.filter((e) => TERMINAL.includes(e.event))).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ event: "workflow_finished" });
    expect(events.at(-1).data.error).toBe(
      "the run was given up: the worker running it died 2 times (a run is handed to another worker after its worker dies, 1 time at most: maxStalledCount)",
    );
    expect(await queue.queue.getJobState(events[0].message_id)).toBe("failed");
    await stop(server.proc);
  }, 240_000);
});
