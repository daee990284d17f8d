/**
 * startup: what starting canvasflow costs, each figure the median of 10 fresh processes, beside
 * its peer in the same run (issue 25):
 * - `import("canvasflow")` (the core entry, as built in dist/) against `import("@langchain/langgraph")`:
 *   wall time of the import and the process's RSS after it;
 * - `canvasflow run fixtures/switch.json` (a canvas that runs in a millisecond) against `node -e 0`:
 *   wall time of the whole process;
 * - `canvasflow --help`: wall time of the whole process.
 * Targets: the core imports in ≤ 150 ms and ≤ 60 MB RSS; run ≤ 300 ms; --help ≤ 150 ms.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const kind = "server";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CORE = new URL("../../dist/bundle/index.js", import.meta.url).href;
const BIN = fileURLToPath(new URL("../../dist/bundle/cli/bin.js", import.meta.url));
const RUNS = 10;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const round = (x, digits = 1) => Number(x.toFixed(digits));

/** An import in a fresh process: the import's own milliseconds and the RSS after it (MB). */
function importCost(specifier) {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(JSON.stringify({ ms: performance.now() - t, rss: process.memoryUsage().rss / 1048576 }));`;
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const out = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
    if (out.status !== 0) throw new Error(`import ${specifier} failed: ${out.stderr}`);
    samples.push(JSON.parse(out.stdout.trim().split("\n").at(-1)));
  }
  return { ms: round(median(samples.map((s) => s.ms))), rss_mb: round(median(samples.map((s) => s.rss))) };
}

/** A whole process, spawn to exit, in milliseconds (the exit code is not checked: `run` of a canvas that asks for input exits 3). */
function processMs(args) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const out = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
    if (out.error) throw out.error;
    if (out.status !== 0 && out.status !== 3) throw new Error(`${args.join(" ")} exited ${out.status}: ${out.stderr}`);
    samples.push(performance.now() - start);
  }
  return round(median(samples));
}

export async function measure() {
  return {
    runs: RUNS,
    import_core: importCost(CORE),
    import_langgraph: importCost("@langchain/langgraph"),
    run_switch_ms: processMs([BIN, "run", "fixtures/switch.json"]),
    node_e0_ms: processMs(["-e", "0"]),
    help_ms: processMs([BIN, "--help"]),
  };
}

export function target(f) {
  const met = f.import_core.ms <= 150 && f.import_core.rss_mb <= 60 && f.run_switch_ms <= 300 && f.help_ms <= 150;
  return [`core import ${f.import_core.ms} ms ≤ 150, ${f.import_core.rss_mb} MB ≤ 60; run ${f.run_switch_ms} ms ≤ 300; --help ${f.help_ms} ms ≤ 150`, met];
}

export function describe(f) {
  return `import canvasflow ${f.import_core.ms} ms ${f.import_core.rss_mb} MB · langgraph ${f.import_langgraph.ms} ms ${f.import_langgraph.rss_mb} MB · run switch.json ${f.run_switch_ms} ms · node -e 0 ${f.node_e0_ms} ms · --help ${f.help_ms} ms`;
}
