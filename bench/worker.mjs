/**
 * Runs one side of one workload in this (fresh) process: warm-up, then timed repetitions with a
 * GC before each. Prints one JSON line: {times, extra}.
 */
const [workloadName, side] = process.argv.slice(2);
const workload = await import(`./workloads/${workloadName}.mjs`);
const setup = side === "canvasflow" ? workload.canvasflowSide : workload.langgraphSide;
if (!setup) throw new Error(`workload ${workloadName} has no ${side} side`);
const subject = await setup();
const { warmup, reps } = workload.plan;
const gc = globalThis.gc ?? (() => undefined);
for (let i = 0; i < warmup; i++) await subject.run();
const times = [];
for (let i = 0; i < reps; i++) {
  gc();
  const started = performance.now();
  await subject.run();
  const elapsed = performance.now() - started;
  times.push(elapsed);
}
const extra = subject.extra ? await subject.extra() : {};
process.stdout.write(`${JSON.stringify({ times, extra })}\n`);
