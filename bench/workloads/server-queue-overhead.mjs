/**
 * server-queue-overhead: what the run queue adds to a turn's latency. Two `canvasflow serve`
 * processes (the built CLI) on the real Redis, each with its own key prefix, serve the same
 * trivial agent (Begin → Message "{sys.query}"): one runs turns in its own process (`--redis`),
 * the other enqueues them (`--queue`) for one `canvasflow worker` process and answers from the
 * run's event log. This process sends non-streaming completions (a new session each) one at a
 * time, alternating between the two, and reports each side's p50 and p99 and the differences.
 * Target: the queue adds < 5 ms at the median on loopback.
 *
 * Checked, not assumed: every answer is code 0 with the echoed query.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canvasflow } from "../lib.mjs";
import { startCli } from "../server/cli-process.mjs";
import { echoDsl } from "../server/echo-agent.mjs";
import { deleteRedisKeys, percentile, round } from "../server/process.mjs";

export const kind = "server";

const REDIS_URL = "redis://127.0.0.1:6379/0";
const WARMUP = 100;
const REQUESTS = 600;
const SERVING = /serving RAGFlow's agent API at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;


async function completion(base, query) {
  const at = Date.now();
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/agents/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ agent_id: "echo", query }),
  });
  const body = await response.json();
  const ms = performance.now() - started;
  if (body.code !== 0 || body.data?.data?.content !== query) throw new Error(`a completion failed: ${JSON.stringify(body).slice(0, 300)}`);
  return { ms, at, jobId: body.data.message_id };
}

const summary = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50_ms: round(percentile(sorted, 0.5), 2), p99_ms: round(percentile(sorted, 0.99), 2) };
};

/**
 * Where a queued turn's time goes, from BullMQ's job timestamps (ms, one clock: this machine's):
 * request → job added (the session created, the job enqueued), added → taken by the worker, taken
 * → finished (the run on the worker), finished → answer received (the follower woken, the log
 * read, the session's messages written, the answer sent).
 */
async function queuedPhases(prefix, answers) {
  const api = await canvasflow();
  const queue = new api.RunQueue({ redis: REDIS_URL, prefix });
  try {
    const phases = { enqueue: [], pickup: [], run: [], answer: [] };
    for (const { at, ms, jobId } of answers) {
      const job = await queue.queue.getJob(jobId);
      if (!job?.finishedOn) continue;
      phases.enqueue.push(job.timestamp - at);
      phases.pickup.push(job.processedOn - job.timestamp);
      phases.run.push(job.finishedOn - job.processedOn);
      phases.answer.push(at + ms - job.finishedOn);
    }
    return Object.fromEntries(Object.entries(phases).map(([name, values]) => [name, round(percentile(values.sort((a, b) => a - b), 0.5), 1)]));
  } finally {
    await queue.close();
  }
}

export async function measure() {
  const dir = mkdtempSync(join(tmpdir(), "canvasflow-bench-queue-"));
  const agents = join(dir, "agents");
  mkdirSync(agents);
  writeFileSync(join(agents, "echo.json"), JSON.stringify(echoDsl()));
  // One client sends everything: the per-key limits would measure the limiter.
  const config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify({ server: { rateLimits: { completionsPerMinute: 0, requestsPerMinute: 0, runsPerKey: 0, runsPerServer: 0 } } }));
  const prefix = `canvasflow-bench-overhead:${process.pid}:`;
  const common = ["--port", "0", "--agents", agents, "--config", config, "--log-level", "warn", "--grace", "0"];
  const processes = [];
  try {
    const inProcess = await startCli(["serve", ...common, "--redis", REDIS_URL, "--redis-prefix", `${prefix}a:`], SERVING);
    processes.push(inProcess);
    const queued = await startCli(["serve", ...common, "--queue", REDIS_URL, "--redis-prefix", `${prefix}q:`], SERVING);
    processes.push(queued);
    processes.push(await startCli(["worker", "--redis", REDIS_URL, "--prefix", `${prefix}q:`, "--concurrency", "4"], /takes runs from the queue/));
    const sides = { in_process: inProcess.match[1], queued: queued.match[1] };
    const times = { in_process: [], queued: [] };
    const answers = [];
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      // Alternating, so both sides see the same moments of a busy machine.
      for (const [name, base] of i % 2 === 0 ? Object.entries(sides) : Object.entries(sides).reverse()) {
        const answer = await completion(base, `q${i}`);
        if (i >= WARMUP) times[name].push(answer.ms);
        if (i >= WARMUP && name === "queued") answers.push(answer);
      }
    }
    const inProc = summary(times.in_process);
    const phases = await queuedPhases(`${prefix}q:`, answers);
    const viaQueue = summary(times.queued);
    return {
      requests: REQUESTS,
      in_process: inProc,
      queued: viaQueue,
      added_p50_ms: round(viaQueue.p50_ms - inProc.p50_ms, 2),
      added_p99_ms: round(viaQueue.p99_ms - inProc.p99_ms, 2),
      queued_phases_p50_ms: phases,
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await deleteRedisKeys(REDIS_URL, prefix);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function target(figures) {
  return [`the queue adds ${figures.added_p50_ms} ms at p50 < 5 ms`, figures.added_p50_ms < 5];
}

export function describe(figures) {
  const side = (name) => `${name.replace("_", "-")} p50 ${figures[name].p50_ms} ms p99 ${figures[name].p99_ms} ms`;
  const phases = Object.entries(figures.queued_phases_p50_ms).map(([name, ms]) => `${name} ${ms}`).join(", ");
  return `${side("in_process")} · ${side("queued")} · added p50 ${figures.added_p50_ms} ms, p99 ${figures.added_p99_ms} ms (${figures.requests} turns each, one at a time; queued p50 ms: ${phases})`;
}
