/**
 * Runs one side of one workload in this (fresh) process: warm-up, one full GC, then the timed
 * repetitions back to back. Prints one JSON line: {times, extra}.
 *
 * There is no forced GC between repetitions: a full GC shrinks V8's young generation, and the
 * next run pays for regrowing it. A 4 ms run is hit hard by that, a 700 ms run hardly at all, so
 * forcing it would measure the GC policy rather than the engine. Both sides are timed the same
 * way, with whatever collection their own allocations cause.
 */
const [workloadName, side] = process.argv.slice(2);
const workload = await import(`./workloads/${workloadName}.mjs`);
const setup = side === "canvasflow" ? workload.canvasflowSide : workload.langgraphSide;
if (!setup) throw new Error(`workload ${workloadName} has no ${side} side`);
const subject = await setup();
const { warmup, reps } = workload.plan;
for (let i = 0; i < warmup; i++) await subject.run();
globalThis.gc?.();
const times = [];
for (let i = 0; i < reps; i++) {
  const started = performance.now();
  await subject.run();
  times.push(performance.now() - started);
}
const extra = subject.extra ? await subject.extra() : {};
process.stdout.write(`${JSON.stringify({ times, extra })}\n`);
