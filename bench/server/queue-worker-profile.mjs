/**
 * Where one `canvasflow worker` spends its CPU and its Redis round trips on the I/O-bound canvas of
 * server-queue-throughput: one worker process, RUNS runs one at a time, then its CPU per run (from
 * /proc) and the Redis commands its connections sent per run (MONITOR, filtered by the worker's
 * sockets), by command. Not a benchmark workload (no target): a tool for finding the worker's costs.
 *
 *     node bench/server/queue-worker-profile.mjs [runs] [--cpu-prof DIR] [--perf FILE] [-- worker flags…]
 *
 * --cpu-prof samples the wall clock (a worker preempted on a busy machine is counted in the frame
 * it was in); --perf records the timed runs with Linux perf (on-CPU samples only, JS frames named
 * through --perf-basic-prof): `perf report -i FILE --no-children --sort sym`.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import { canvasflow } from "../lib.mjs";
import { startCli } from "./cli-process.mjs";
import { deleteRedisKeys } from "./process.mjs";
import { ioDsl, ROUNDS, startSlowServer } from "../workloads/server-queue-throughput.mjs";

const REDIS_URL = "redis://127.0.0.1:6379/0";
const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const extra = dash >= 0 ? argv.slice(dash + 1) : [];
const own = dash >= 0 ? argv.slice(0, dash) : argv;
const profIndex = own.indexOf("--cpu-prof");
const profDir = profIndex >= 0 ? own[profIndex + 1] : undefined;
const perfIndex = own.indexOf("--perf");
const perfFile = perfIndex >= 0 ? own[perfIndex + 1] : undefined;
const RUNS = Number(own.find((a, i) => /^\d+$/.test(a) && own[i - 1] !== "--cpu-prof" && own[i - 1] !== "--perf") ?? 40);

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Local ports of the TCP connections `pid` has to Redis. */
function redisPorts(pid) {
  const out = execFileSync("ss", ["-tnpH", "dst", "127.0.0.1:6379"], { encoding: "utf8" });
  const ports = new Set();
  for (const line of out.split("\n")) {
    if (!line.includes(`pid=${pid},`)) continue;
    const local = line.trim().split(/\s+/)[3];
    ports.add(local.slice(local.lastIndexOf(":") + 1));
  }
  return ports;
}

const api = await canvasflow();
const { slow, url } = await startSlowServer();
const prefix = `canvasflow-profile-queue:${process.pid}:`;
const queue = new api.RunQueue({ redis: REDIS_URL, prefix, queue: "prof" });
const server = new api.RedisServerStore({ url: REDIS_URL, prefix });
const worker = await startCli(["worker", "--redis", REDIS_URL, "--prefix", prefix, "--queue", "prof", "--concurrency", "1", "--mock-llm", "--allow-private-network", ...extra], /takes runs from the queue/, {
  execArgv: [...(profDir ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : []), ...(perfFile ? ["--perf-basic-prof"] : [])],
});
const monitor = new Redis(REDIS_URL);
const lines = [];
try {
  const dsl = ioDsl(url);
  const run = async (sessions) => {
    for (const session of sessions) await api.createSessionIfAbsent(server.runs, session, dsl);
    const jobs = [];
    for (const session of sessions) jobs.push(await api.enqueueRun({ session, query: session }, { queue, store: server.runs }));
    for (;;) {
      const counts = await queue.queue.getJobCounts("completed", "failed");
      if (counts.failed > 0) throw new Error(`${counts.failed} jobs failed`);
      if (counts.completed >= jobs.length) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const job of jobs) {
      const end = await api.loggedRunEnd(server.runs, job.session, job.jobId, job.after);
      if (!String(end?.event.data?.outputs?.content).startsWith(`${ROUNDS} rounds; last: `)) throw new Error(`run ${job.jobId}: ${JSON.stringify(end?.event.data)}`);
    }
    await queue.queue.clean(0, 100000, "completed");
  };
  // Warm-up, untimed.
  await run(Array.from({ length: Number(process.env.WARM ?? 5) }, (_, i) => `warm-${i}`));
  const ports = redisPorts(worker.pid);
  const m = await monitor.monitor();
  m.on("monitor", (_time, args, source) => lines.push([source, args[0].toLowerCase(), args]));
  const perf = perfFile ? spawn("perf", ["record", "-F", "997", "-g", "-p", String(worker.pid), "-o", perfFile], { stdio: "ignore" }) : undefined;
  if (perf) await new Promise((resolve) => setTimeout(resolve, 500));
  const cpu0 = cpuSeconds(worker.pid);
  const t0 = performance.now();
  await run(Array.from({ length: RUNS }, (_, i) => `run-${i}`));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(worker.pid) - cpu0;
  if (perf) {
    perf.kill("SIGINT");
    await new Promise((resolve) => perf.on("close", resolve));
  }
  for (const p of redisPorts(worker.pid)) ports.add(p);
  await m.disconnect();
  const mine = lines.filter(([source]) => ports.has(source.slice(source.lastIndexOf(":") + 1)));
  const byCommand = new Map();
  for (const [, cmd, args] of mine) {
    const name = cmd === "evalsha" || cmd === "eval" ? `${cmd} ${String(args[1]).slice(0, 8)} ${String(args[3] ?? "").replace(prefix, "<p>").replace(/:(warm|run)-\d+$/, ":<s>").slice(0, 60)}` : cmd;
    const bytes = args.reduce((sum, a) => sum + String(a).length, 0);
    const seen = byCommand.get(name) ?? [0, 0];
    byCommand.set(name, [seen[0] + 1, seen[1] + bytes]);
  }
  console.log(JSON.stringify({ runs: RUNS, seconds: +seconds.toFixed(2), runs_per_s: +(RUNS / seconds).toFixed(2), cpu_ms_per_run: +((cpu * 1000) / RUNS).toFixed(1), redis_commands_per_run: +(mine.length / RUNS).toFixed(1), connections: ports.size }));
  for (const [name, [count, bytes]] of [...byCommand].sort((a, b) => b[1][0] - a[1][0])) console.log(`  ${(count / RUNS).toFixed(2).padStart(8)} × ${String(Math.round(bytes / count)).padStart(7)} B  ${name}`);
} finally {
  await worker.stop();
  monitor.disconnect();
  await queue.queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  await server.close();
  slow.close();
  await deleteRedisKeys(REDIS_URL, prefix);
}
