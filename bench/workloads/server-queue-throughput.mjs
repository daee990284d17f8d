/**
 * server-queue-throughput: runs per second of the I/O-bound canvas (a Loop of 10 rounds, each an
 * Invoke to a loopback server answering after 20 ms, then an LLM call on the mock LLM) on 1, 2
 * and 3 `canvasflow worker` processes (the built CLI, one run at a time each, --mock-llm), on the
 * real Redis. This process is the loopback server and the client: it creates the sessions first,
 * then enqueues every run at once (`enqueueRun`) and times from the first enqueue to the last job
 * completed. Target: 3 workers ≥ 2.5× the runs per second of 1 (the work waits on I/O, so
 * processes add throughput even on 2 cores), judged on warm workers (see WARM_RUNS_PER_WORKER);
 * the same runs on the fresh workers are reported beside it as `cold`.
 *
 * Checked, not assumed: every job completes (none failed) and its run ends with the canvas's
 * final message ("10 rounds; …") in its session's log.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { canvasflow, node } from "../lib.mjs";
import { startCli } from "../server/cli-process.mjs";
import { deleteRedisKeys, round } from "../server/process.mjs";

export const kind = "server";

const REDIS_URL = "redis://127.0.0.1:6379/0";
const RUNS = 60;
/**
 * Runs at once per worker. One: each worker is then mostly waiting (a run is ~10 × 20 ms of HTTP
 * plus the mock's answers), so the figures show what processes add on an I/O-bound load; with more
 * at once a 2-core machine runs out of CPU first (a run costs the worker ~70 ms of CPU: 40 steps
 * checkpointed and logged to Redis, and the mock LLM answering in the same process).
 */
const CONCURRENCY = 1;
export const ROUNDS = 10;
const WORKER_COUNTS = [1, 2, 3];
/**
 * Runs each worker takes before the timed ones. A fresh worker spends its first few dozen runs
 * compiling its hot code (V8's optimizing compiler and unoptimized code: measured with Linux perf,
 * 120 ms of CPU per run after 5 runs, 76 ms after 65), which a long-lived worker pays once; timed
 * cold, 3 workers (20 runs each) pay it three times over the 60 runs that 1 worker pays it once.
 */
const WARM_RUNS_PER_WORKER = 40;

export function ioDsl(url) {
  return {
    components: {
      begin: node("Begin", { mode: "task", prologue: "" }, ["Loop:L"]),
      "Loop:L": node(
        "Loop",
        {
          loop_variables: [{ variable: "round", input_mode: "constant", type: "number", value: 0 }],
          loop_termination_condition: [{ variable: "Loop:L@round", operator: "≥", input_mode: "constant", value: ROUNDS }],
          logical_operator: "and",
          maximum_loop_count: 100,
          outputs: {},
        },
        ["Message:Done"],
      ),
      "LoopItem:I": node("LoopItem", {}, ["Invoke:Call"], { parent_id: "Loop:L" }),
      "Invoke:Call": node("Invoke", { url, method: "post", variables: [{ key: "round", ref: "Loop:L@round" }], headers: "", timeout: 30, datatype: "json" }, ["LLM:Say"], { parent_id: "Loop:L" }),
      "LLM:Say": node("LLM", { llm_id: "mock", sys_prompt: "Repeat it.", prompts: [{ role: "user", content: "round {Loop:L@round}: {Invoke:Call@result}" }] }, ["VariableAssigner:Next"], { parent_id: "Loop:L" }),
      "VariableAssigner:Next": node("VariableAssigner", { variables: [{ variable: "Loop:L@round", operator: "+=", parameter: 1 }] }, [], { parent_id: "Loop:L" }),
      "Message:Done": node("Message", { content: ["{Loop:L@round} rounds; last: {LLM:Say@content}"] }),
    },
    globals: {},
    history: [],
    path: [],
    retrieval: [],
  };
}

/** A process's user + system CPU seconds so far (Linux /proc; undefined elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Runs enqueued at once, timed from the first enqueue to the last job completed; every run checked
 * to end with the canvas's message. Returns the figures and how many runs each worker took.
 */
async function timedRuns(api, { workers, queue, server, started, dsl, label }) {
  const sessions = Array.from({ length: RUNS }, (_, i) => `tp${workers}-${label}-${i}`);
  // Untimed: the sessions exist before the clock starts.
  for (const session of sessions) await api.createSessionIfAbsent(server.runs, session, dsl);
  await queue.queue.clean(0, 100_000, "completed");
  const cpuBefore = started.map((worker) => cpuSeconds(worker.pid));
  const t0 = performance.now();
  const jobs = await Promise.all(sessions.map((session) => api.enqueueRun({ session, query: session }, { queue, store: server.runs })));
  for (;;) {
    const counts = await queue.queue.getJobCounts("completed", "failed");
    if (counts.failed > 0) throw new Error(`${workers} workers: ${counts.failed} jobs failed`);
    if (counts.completed >= RUNS) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = started.map((worker, i) => (cpuBefore[i] === undefined ? undefined : cpuSeconds(worker.pid) - cpuBefore[i]));
  for (const job of jobs) {
    const end = await api.loggedRunEnd(server.runs, job.session, job.jobId, job.after);
    const content = end?.event.data?.outputs?.content;
    if (end?.event.event !== "workflow_finished" || typeof content !== "string" || !content.startsWith(`${ROUNDS} rounds; last: `)) {
      throw new Error(`${workers} workers: run ${job.jobId} did not finish with the canvas's message: ${JSON.stringify(end?.event.data)}`);
    }
  }
  const perWorker = new Map();
  for (const job of await queue.queue.getJobs(["completed"], 0, -1)) perWorker.set(job.processedBy, (perWorker.get(job.processedBy) ?? 0) + 1);
  const workerCpu = cpu.every((s) => s !== undefined && !Number.isNaN(s)) ? cpu.reduce((a, b) => a + b, 0) : undefined;
  return {
    figures: {
      seconds: round(seconds, 2),
      runs_per_s: round(RUNS / seconds, 1),
      // The workers' CPU per run (from the first enqueue): on a shared 2-core machine, what limits the figures.
      worker_cpu_ms_per_run: workerCpu === undefined ? null : round((workerCpu * 1000) / RUNS, 1),
    },
    perWorker,
  };
}

/**
 * One setting: fresh workers, RUNS runs timed as they come (cold: each new process compiles its
 * code as it goes), more untimed runs until every worker has taken WARM_RUNS_PER_WORKER, then
 * RUNS runs timed again (warm: what long-lived workers give, and what the target is judged on).
 */
async function oneSetting(api, workers, url, prefix) {
  const queueName = `tp${workers}`;
  const queue = new api.RunQueue({ redis: REDIS_URL, prefix, queue: queueName });
  const server = new api.RedisServerStore({ url: REDIS_URL, prefix });
  const started = await Promise.all(
    Array.from({ length: workers }, () =>
      startCli(["worker", "--redis", REDIS_URL, "--prefix", prefix, "--queue", queueName, "--concurrency", String(CONCURRENCY), "--mock-llm", "--allow-private-network"], /takes runs from the queue/),
    ),
  );
  try {
    const context = { workers, queue, server, started, dsl: ioDsl(url) };
    const cold = await timedRuns(api, { ...context, label: "cold" });
    const taken = cold.perWorker;
    for (let pass = 0; pass < 20 && (taken.size < workers || Math.min(...taken.values()) < WARM_RUNS_PER_WORKER); pass++) {
      const { perWorker } = await timedRuns(api, { ...context, label: `warm-up-${pass}` });
      for (const [name, count] of perWorker) taken.set(name, (taken.get(name) ?? 0) + count);
    }
    const warm = await timedRuns(api, { ...context, label: "warm" });
    return { runs: RUNS, ...warm.figures, runs_before: Math.min(...taken.values()), cold: cold.figures };
  } finally {
    await Promise.all(started.map((worker) => worker.stop()));
    await queue.queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await server.close();
  }
}

/** The loopback server the canvas's Invoke calls: it answers each request after 20 ms. */
export async function startSlowServer() {
  const slow = createServer((request, response) => {
    request.resume();
    request.on("end", () => setTimeout(() => response.end(JSON.stringify({ answer: 42 })), 20));
  });
  await new Promise((resolve) => slow.listen(0, "127.0.0.1", resolve));
  return { slow, url: `http://127.0.0.1:${slow.address().port}/call` };
}

export async function measure() {
  const api = await canvasflow();
  const { slow, url } = await startSlowServer();
  const prefix = `canvasflow-bench-queue:${process.pid}:`;
  try {
    const figures = {};
    for (const workers of WORKER_COUNTS) {
      figures[`workers_${workers}`] = await oneSetting(api, workers, url, prefix);
      process.stderr.write(`server-queue-throughput: ${workers} worker(s): ${JSON.stringify(figures[`workers_${workers}`])}\n`);
    }
    return {
      runs: RUNS,
      rounds: ROUNDS,
      concurrency: CONCURRENCY,
      ...figures,
      ratio_2: round(figures.workers_2.runs_per_s / figures.workers_1.runs_per_s, 2),
      ratio_3: round(figures.workers_3.runs_per_s / figures.workers_1.runs_per_s, 2),
      cold_ratio_3: round(figures.workers_3.cold.runs_per_s / figures.workers_1.cold.runs_per_s, 2),
    };
  } finally {
    slow.close();
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}

export function target(figures) {
  return [`3 workers ${figures.ratio_3}× the runs/s of 1 ≥ 2.5×`, figures.ratio_3 >= 2.5];
}

export function describe(figures) {
  const one = (n) => `${n} worker${n === 1 ? "" : "s"} ${figures[`workers_${n}`].runs_per_s} runs/s`;
  const cold = (n) => `${figures[`workers_${n}`].cold.runs_per_s}`;
  return (
    `warm: ${WORKER_COUNTS.map(one).join(" · ")} (${figures.runs} runs of ${figures.rounds} rounds, ${figures.concurrency} at a time per worker) · 2 workers ${figures.ratio_2}× · ` +
    `cold (fresh workers' first runs): ${WORKER_COUNTS.map(cold).join(" / ")} runs/s, 3 workers ${figures.cold_ratio_3}×`
  );
}
