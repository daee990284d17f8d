/**
 * npm run bench [-- --json FILE] [--only a,b] [--rounds N]
 *
 * Runs every workload on canvasflow and on @langchain/langgraph in the same run, interleaved:
 * each round starts one fresh process per side (canvasflow, then LangGraph), each with its own
 * warm-up and timed repetitions. Reports min / median / max and the LangGraph/canvasflow ratio
 * of the medians, checks the targets, and writes the figures as JSON with --json.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const WORKLOADS = ["chain", "fanout", "loop", "throughput", "io-fanout", "memory", "long-loop", "load"];

function parseArgs(argv) {
  const args = { json: undefined, only: WORKLOADS, rounds: 2 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--json") args.json = argv[++i];
    else if (flag === "--only") args.only = argv[++i].split(",");
    else if (flag === "--rounds") args.rounds = Number(argv[++i]);
    else throw new Error(`unknown argument ${flag} (use --json FILE, --only a,b, --rounds N)`);
  }
  for (const name of args.only) if (!WORKLOADS.includes(name)) throw new Error(`unknown workload ${name}`);
  if (!Number.isInteger(args.rounds) || args.rounds < 1) throw new Error("--rounds must be a positive integer");
  return args;
}

/** Warnings a side prints (LangGraph's 100-wide fan-outs print one per step), counted rather than echoed. */
const warningCounts = new Map();

function runSide(workload, side) {
  const result = spawnSync(process.execPath, ["--expose-gc", join(here, "worker.mjs"), workload, side], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const noise = (result.stderr ?? "").split("\n").filter((line) => line.trim() !== "");
  const warnings = noise.filter((line) => /Warning:/.test(line));
  if (warnings.length > 0) {
    const key = `${side} ${workload}`;
    warningCounts.set(key, (warningCounts.get(key) ?? 0) + warnings.length);
  }
  if (result.status !== 0) {
    throw new Error(`${workload} (${side}) failed with status ${result.status}:\n${noise.filter((l) => !/Warning|--trace-warnings/.test(l)).join("\n")}`);
  }
  return JSON.parse(result.stdout.trim().split("\n").at(-1));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const stats = (xs) => (xs.length ? { min: Math.min(...xs), median: median(xs), max: Math.max(...xs) } : undefined);
const round = (x, digits = 3) => (x === undefined || x === null ? null : Number(x.toFixed(digits)));

async function hasLangGraphSide(name) {
  const module = await import(join(here, "workloads", `${name}.mjs`));
  return typeof module.langgraphSide === "function";
}

function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return "missing";
  }
}

const TARGETS = {
  chain: (r) => [`ratio ${r.ratio} ≥ 50`, r.ratio >= 50],
  fanout: (r) => [`ratio ${r.ratio} ≥ 20`, r.ratio >= 20],
  loop: (r) => [`ratio ${r.ratio} ≥ 50`, r.ratio >= 50],
  throughput: (r) => [`ratio ${r.ratio} ≥ 20`, r.ratio >= 20],
  "io-fanout": (r) => [`${r.canvasflow_ms} ms = ${r.ideal_ratio}× the ideal 10 ms ≤ 1.5×`, r.ideal_ratio <= 1.5],
  memory: (r) => [
    `snapshot ${r.snapshot_bytes_loop_100} B after 100 rounds vs ${r.snapshot_bytes_loop_10000} B after 10 000 (no growth)`,
    r.snapshot_bytes_loop_10000 <= r.snapshot_bytes_loop_100 * 1.05 + 64,
  ],
  "long-loop": (r) => [`scaling ${r.scaling_ratio} ≤ 1.5`, r.scaling_ratio <= 1.5],
  load: (r) => [`load/parse ${r.parse_ratio} ≤ 20`, r.parse_ratio <= 20],
};

const args = parseArgs(process.argv.slice(2));
const started = Date.now();
console.log(`canvasflow ${versionOf("..") === "missing" ? JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version : ""} vs @langchain/langgraph ${versionOf("@langchain/langgraph")} · Node ${process.version} · ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"})`);
const records = [];
for (const name of args.only) {
  const sides = (await hasLangGraphSide(name)) ? ["canvasflow", "langgraph"] : ["canvasflow"];
  const times = { canvasflow: [], langgraph: [] };
  const extra = { canvasflow: {}, langgraph: {} };
  for (let r = 0; r < args.rounds; r++) {
    for (const side of sides) {
      const result = runSide(name, side);
      times[side].push(...result.times);
      extra[side] = { ...extra[side], ...result.extra };
    }
  }
  const cf = stats(times.canvasflow);
  const lg = stats(times.langgraph);
  const record = {
    name,
    canvasflow_ms: round(cf.median),
    langgraph_ms: lg ? round(lg.median) : null,
    ratio: lg ? round(lg.median / cf.median, 1) : null,
    canvasflow: { min_ms: round(cf.min), median_ms: round(cf.median), max_ms: round(cf.max), reps: times.canvasflow.length },
    ...(lg ? { langgraph: { min_ms: round(lg.min), median_ms: round(lg.median), max_ms: round(lg.max), reps: times.langgraph.length } } : {}),
  };
  if (name === "io-fanout") record.ideal_ratio = round(cf.median / 10, 2);
  if (name === "long-loop") record.scaling_ratio = round(extra.canvasflow.scaling_ratio, 2);
  if (name === "load") {
    record.parse_ratio = round(cf.median / extra.canvasflow.parse_ms, 1);
    record.parse_ms = round(extra.canvasflow.parse_ms);
    record.dsl_bytes = extra.canvasflow.dsl_bytes;
  }
  if (name === "memory") {
    Object.assign(record, {
      snapshot_bytes: extra.canvasflow.snapshot_bytes,
      snapshot_bytes_loop_100: extra.canvasflow.snapshot_bytes_loop_100,
      snapshot_bytes_loop_10000: extra.canvasflow.snapshot_bytes_loop_10000,
      canvasflow_memory: { peak_heap_mb: extra.canvasflow.peak_heap_mb, peak_rss_mb: extra.canvasflow.peak_rss_mb, peak_array_buffers_mb: extra.canvasflow.peak_array_buffers_mb },
      langgraph_memory: { peak_heap_mb: extra.langgraph.peak_heap_mb, peak_rss_mb: extra.langgraph.peak_rss_mb, peak_array_buffers_mb: extra.langgraph.peak_array_buffers_mb },
    });
  }
  const [target, met] = TARGETS[name](record);
  record.target = target;
  record.target_met = met;
  records.push(record);
  const fmt = (s) => (s ? `${s.min.toFixed(2)} / ${s.median.toFixed(2)} / ${s.max.toFixed(2)}` : "—");
  console.log(
    `${name.padEnd(11)} canvasflow ms min/med/max ${fmt(cf).padEnd(26)} langgraph ${fmt(lg).padEnd(30)} ratio ${record.ratio ?? "—"}  ${met ? "✓" : "✗"} ${target}`,
  );
}
if (args.json) writeFileSync(args.json, `${JSON.stringify(records, null, 2)}\n`);
for (const [key, count] of warningCounts) console.log(`note: ${key} printed ${count} warning line(s) (e.g. MaxListenersExceededWarning)`);
const missed = records.filter((r) => !r.target_met).map((r) => r.name);
console.log(`\n${records.length} workloads in ${((Date.now() - started) / 1000).toFixed(0)} s; targets ${missed.length ? `missed: ${missed.join(", ")}` : "all met"}${args.json ? `; figures in ${args.json}` : ""}`);
