/**
 * Runs one side of one workload in this (fresh) process and prints one JSON line:
 * {samples, wallSamples, runsPerSample, waitedShare, clock, warmup: {runs, ms}, extra}. Each
 * sample is the mean time of one run over a stretch of runs.
 *
 * How, and why (the method and the figures are in docs/performance.md):
 * - Warm-up lasts at least `warmupMs` and `warmup` runs. Counting runs alone was not enough: the
 *   engine's async generator is deoptimized and re-optimized several times while V8 learns the
 *   shapes it sees, and a 3 ms run settles only after some 20–40 runs.
 * - A sample runs the workload back to back for at least `sampleMs` (50 ms): the number of runs
 *   per sample is fixed after the warm-up, from the warm-up's own times. A 0.3 ms run timed alone
 *   is 0.3 ms or 5 ms depending on whether a scavenge or a 20 ms mark-compact fell into it; a
 *   50 ms sample carries its fair share of collection instead of all or nothing.
 * - No forced GC, neither after the warm-up nor between samples: a full GC shrinks V8's young
 *   generation, and the sample after it paid for regrowing it (up to 2× on a 0.3 ms run). Each
 *   sample carries the collections its own allocations cause.
 * - The machine is shared (2 cores, other people's test suites), so a CPU-bound workload is timed
 *   by the CPU time this process used, and one that waits on timers (io-fanout) by the wall
 *   clock (clock.mjs). Both sides are measured the same way; wall times and the share of time
 *   spent waiting for a CPU are reported too.
 */
import { clockFor, waitedMs } from "./clock.mjs";

const DEFAULTS = { warmup: 5, warmupMs: 1000, samples: 15, sampleMs: 50, clock: "cpu" };

const [workloadName, side] = process.argv.slice(2);
const workload = await import(`./workloads/${workloadName}.mjs`);
const setup = side === "canvasflow" ? workload.canvasflowSide : workload.langgraphSide;
if (!setup) throw new Error(`workload ${workloadName} has no ${side} side`);
const { canvasflow: _cf, langgraph: _lg, ...shared } = workload.plan ?? {};
const plan = { ...DEFAULTS, ...shared, ...(workload.plan?.[side] ?? {}) };
const now = clockFor(plan.clock);
const subject = await setup();

// The warm-up's length is counted on the samples' clock, so a busy machine does not shorten it.
const warmupStarted = now();
const warmupTimes = [];
while (warmupTimes.length < plan.warmup || now() - warmupStarted < plan.warmupMs) {
  const started = now();
  await subject.run();
  warmupTimes.push(now() - started);
}
const warmupMs = now() - warmupStarted;
// Sized from the later half of the warm-up, by its fastest quarter: a collection makes single
// runs slower, never faster.
const later = warmupTimes.slice(Math.floor(warmupTimes.length / 2)).sort((a, b) => a - b);
const runsPerSample = Math.max(1, Math.ceil(plan.sampleMs / later[Math.floor(later.length / 4)]));

const samples = [];
const wallSamples = [];
let totalWall = 0;
let totalWaited = 0;
for (let i = 0; i < plan.samples; i++) {
  const waitedBefore = waitedMs();
  const wallBefore = performance.now();
  const started = now();
  for (let r = 0; r < runsPerSample; r++) await subject.run();
  samples.push((now() - started) / runsPerSample);
  const wall = performance.now() - wallBefore;
  wallSamples.push(wall / runsPerSample);
  totalWall += wall;
  totalWaited += Math.min(wall, waitedMs() - waitedBefore);
}
const extra = subject.extra ? await subject.extra() : {};
const waitedShare = totalWaited / totalWall;
process.stdout.write(`${JSON.stringify({ samples, wallSamples, runsPerSample, waitedShare, clock: plan.clock, warmup: { runs: warmupTimes.length, ms: warmupMs }, extra })}\n`);
