/**
 * What a checkpoint per step costs in memory, apart from the full bench: the 1000-step chain as a
 * durable session on InProcessSnapshotStore (sync) and as a plain run, alternating, CPU time, after a
 * warm-up. Prints the medians and their ratio (durable-memory's `overhead`, which must be ≤ 2).
 *
 *     node bench/durable-overhead.mjs [pairs]
 */
import { cpuMs } from "./clock.mjs";
import { runToEnd } from "./lib.mjs";
import { durableAndPlainChain, runDurable } from "./workloads/durable-memory.mjs";

const PAIRS = Number(process.argv[2] ?? 60);
const { session, plain } = await durableAndPlainChain();
const warmUntil = cpuMs() + 1500;
while (cpuMs() < warmUntil) {
  await runDurable(session);
  await runToEnd(plain);
}
const durable = [];
const bare = [];
for (let i = 0; i < PAIRS; i++) {
  // Several runs per sample, so a sample carries its share of garbage collection.
  let started = cpuMs();
  for (let j = 0; j < 5; j++) await runDurable(session);
  durable.push((cpuMs() - started) / 5);
  started = cpuMs();
  for (let j = 0; j < 5; j++) await runToEnd(plain);
  bare.push((cpuMs() - started) / 5);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(JSON.stringify({ durable_ms: +median(durable).toFixed(3), plain_ms: +median(bare).toFixed(3), overhead: +(median(durable) / median(bare)).toFixed(2) }));
