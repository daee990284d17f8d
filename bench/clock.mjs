/**
 * The bench's clocks. This machine is shared (2 cores, other people's test suites): wall time
 * there measures the neighbours as much as the work. So a CPU-bound workload is timed by the
 * CPU time this process used (`process.cpuUsage()`, user + system, µs-precise). It includes
 * V8's helper threads (parallel scavenges, concurrent marking and compiling): measured here, CPU
 * time was 1.01–1.15× the main thread's busy time, on both sides alike (most on the GC-heavy
 * fan-outs). A workload that waits (timers) is timed by the wall clock.
 *
 * Linux's run-queue wait of the main thread (`/proc/self/task/<tid>/schedstat`) is read too,
 * only to report how busy the machine was: here it is counted in 4 ms ticks, so "wall minus
 * wait" was off by up to 35% in single 50 ms samples.
 */
import { readFileSync } from "node:fs";

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/** Milliseconds the main thread has waited for a CPU so far (0 where Linux does not say). */
export function waitedMs() {
  try {
    return Number(readFileSync(SCHEDSTAT, "utf8").split(" ")[1]) / 1e6;
  } catch {
    return 0;
  }
}

/** Milliseconds of CPU this process has used so far (every thread). */
export function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The clock a workload is timed by: "cpu" (the default) or "wall". */
export function clockFor(name) {
  if (name === "wall") return () => performance.now();
  if (name === "cpu") return cpuMs;
  throw new Error(`unknown clock ${name} (use "cpu" or "wall")`);
}
