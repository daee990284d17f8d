/**
 * npm run bench [-- --json FILE] [--only a,b] [--rounds N]
 *
 * Runs every workload on canvasflow and on @langchain/langgraph in the same run, interleaved:
 * each round starts one fresh process per side (canvasflow, then LangGraph), each with its own
 * warm-up and timed samples (worker.mjs: a sample repeats short runs for at least 50 ms).
 * Reports min / median / p90 of the per-run time for both sides and the LangGraph/canvasflow
 * ratio of the medians, checks the targets and that canvasflow is steady (median ≤ 1.5× min),
 * and writes the figures as JSON with --json.
 *
 * The server workloads (server-completions, server-streams) are wall-clock load tests of the
 * HTTP server on loopback instead: req/s and latency, each round in fresh processes.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const WORKLOADS = [
  "chain", "fanout", "loop", "throughput", "io-fanout", "memory", "long-loop", "load", "append-scaling", "event-size",
  "durable-memory", "durable-pg-async", "durable-pg-sync", "durable-sqlite-async", "durable-sqlite-sync", "durable-redis", "checkpoint-bytes",
  // The HTTP server under load (kind "server": figures of their own, see runServerWorkload).
  "server-completions", "server-streams",
  // Scaling out on the run queue: worker processes and the queue's added latency (kind "server" too).
  "server-queue-throughput", "server-queue-overhead",
  // Retrieval over a local knowledge base.
  "retrieval",
  // An ingestion pipeline (title_chunker.json) chunking a knowledge base: documents/s, and peak RSS over a large CSV.
  "pipeline-ingest",
  // The edge policy (Dify YAML) beside the frontier policy (RAGFlow DSL) on the same shapes.
  "dify-graph",
  // canvasflow/graph's StateGraph beside LangGraph.js's on the same three graphs (chain, fan-out, loop), per step.
  "graph-builder",
  // What the code sandbox costs a script, against running it unsandboxed.
  "codeexec",
  // Starting canvasflow: importing the core, a one-millisecond canvas, --help (kind "server": figures of their own).
  "startup",
  // The chain and the loop with OpenTelemetry tracing on and a no-op exporter: what a span per step costs.
  "chain-traced", "loop-traced",
];

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

/**
 * A server workload: each round runs it in a fresh process (server-worker.mjs; it forks the
 * server itself), and the workload module names its target and its one-line summary. The target
 * must be met in every round.
 */
async function runServerWorkload(name, rounds) {
  const module = await import(join(here, "workloads", `${name}.mjs`));
  const figures = [];
  for (let r = 0; r < rounds; r++) {
    const result = spawnSync(process.execPath, [join(here, "server-worker.mjs"), name], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`${name} failed with status ${result.status}:\n${result.stderr}`);
    figures.push(JSON.parse(result.stdout.trim().split("\n").at(-1)));
  }
  const targets = figures.map((f) => module.target(f));
  for (const [i, f] of figures.entries()) {
    const [target, met] = targets[i];
    console.log(`${name.padEnd(11)} round ${i + 1}: ${module.describe(f)} · ${met ? "✓" : "✗"} ${target}`);
  }
  return {
    name,
    kind: "server",
    rounds: figures,
    target: targets.map(([target]) => target).join(" | "),
    target_met: targets.every(([, met]) => met),
    load_average: os.loadavg().map((x) => round(x, 2)),
  };
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
function stats(xs) {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return { min: s[0], median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, p90: percentile(s, 0.9), max: s.at(-1) };
}

/** Three significant digits or at least two decimals: 0.287, 2.71, 372.81. */
const fix = (x) => (x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
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
  "append-scaling": (r) => [
    `append ${r.append_ms.join(" / ")} ms at ${r.sizes.join(" / ")} rounds (+= ${r.add_ms.join(" / ")} ms): scaling ${r.scaling_ratio} ≤ 1.5`,
    r.scaling_ratio <= 1.5,
  ],
  "durable-memory": (r) => [
    `ratio ${r.ratio} ≥ 20 vs MemorySaver; ${r.canvasflow_ms} ms = ${r.overhead}× ${r.overhead_basis} ≤ 2×`,
    r.ratio >= 20 && r.overhead <= 2,
  ],
  "durable-pg-async": (r) => [`ratio ${r.ratio} ≥ 20 vs PostgresSaver (async)`, r.ratio >= 20],
  "durable-pg-sync": (r) => [`ratio ${r.ratio} ≥ 5 vs PostgresSaver (sync)`, r.ratio >= 5],
  // The same bars as PostgreSQL's: a local file is no reason to expect less.
  "durable-sqlite-async": (r) => [`ratio ${r.ratio} ≥ 20 vs SqliteSaver (async)`, r.ratio >= 20],
  "durable-sqlite-sync": (r) => [`ratio ${r.ratio} ≥ 5 vs SqliteSaver (sync)`, r.ratio >= 5],
  "durable-redis": (r) => [`${r.canvasflow_ms} ms per 1000-step run with a Redis checkpoint per step (recorded; MemorySaver beside it)`, true],
  "checkpoint-bytes": (r) => [
    `${r.bytes_per_step_round_10} → ${r.bytes_per_step_round_10000} bytes per step at round 10 → 10 000: ratio ${r.bytes_ratio} ≤ 1.2 (LangGraph ${r.lg_bytes_per_step_step_10} → ${r.lg_bytes_per_step_last} at step 10 → ${r.lg_rounds})`,
    r.bytes_ratio <= 1.2,
  ],
  retrieval: (r) => [
    `${r.chunks} chunks: index ${fix(r.index_ms)} ms, re-index after 1% changed ${fix(r.reindex_ms)} ms = ${round(r.reindex_share * 100, 1)}% < 10%; ` +
      `query p50/p99 hybrid ${fix(r.hybrid_p50_ms)}/${fix(r.hybrid_p99_ms)} ms vs MiniSearch keyword-only ${fix(r.keyword_minisearch_p50_ms)}/${fix(r.keyword_minisearch_p99_ms)} ms: p99 ratio ${r.p99_ratio} ≤ 3`,
    r.reindex_share < 0.1 && r.p99_ratio <= 3,
  ],
  "dify-graph": (r) => [
    `edge policy / frontier policy per step: chain ${r.chain_ratio} (${r.chain_us_per_step.dify} vs ${r.chain_us_per_step.ragflow} µs), fan-out ${r.fanout_ratio} (${r.fanout_us_per_step.dify} vs ${r.fanout_us_per_step.ragflow} µs) ≤ 1.5`,
    r.chain_ratio <= 1.5 && r.fanout_ratio <= 1.5,
  ],
  "graph-builder": (r) => [
    `per step, LangGraph / canvasflow at the median: ${r.graphs.map((g) => `${g.graph} ${g.ratio}× (${g.langgraph_us_per_step} vs ${g.canvasflow_us_per_step} µs)`).join(", ")} ≥ 20× each`,
    r.graphs.every((g) => g.ratio >= 20),
  ],
  codeexec: (r) => [
    `trivial script p50 (p90): JavaScript in QuickJS ${fix(r.js_sandbox.p50_ms)} (${fix(r.js_sandbox.p90_ms)}) ms vs called directly ${fix(r.js_direct.p50_ms)} ms; ` +
      `Python in bubblewrap ${fix(r.py_sandbox.p50_ms)} (${fix(r.py_sandbox.p90_ms)}) ms vs unsandboxed ${fix(r.py_trusted.p50_ms)} ms (${r.py_ratio}×); ` +
      `per Iteration item: JavaScript ${fix(r.iteration_js_ms_per_item)} ms, Python ${fix(r.iteration_py_ms_per_item)} ms (unsandboxed ${fix(r.iteration_py_trusted_ms_per_item)} ms); ` +
      `usable per item: JavaScript ≤ 5 ms and Python ≤ 2× unsandboxed`,
    r.iteration_js_ms_per_item <= 5 && r.py_ratio <= 2,
  ],
  "pipeline-ingest": (r) => {
    const [small, large] = r.csv;
    return [
      `${r.files} files: ${fix(r.documents_per_s)} documents/s by title_chunker.json (${r.chunks} chunks, a chat each) vs ${fix(r.reference_documents_per_s)} by the default chunker ` +
        `(in-run reference: updateIndex without a chunker, ${r.reference_chunks} chunks); peak RSS of one run over a ${large.mb} MB CSV ${large.peak_rss_mb} MB < 300 ` +
        `and ≤ 1.2× the ${small.mb} MB CSV's ${small.peak_rss_mb} MB`,
      large.peak_rss_mb < 300 && large.peak_rss_mb <= 1.2 * small.peak_rss_mb,
    ];
  },
  "chain-traced": (r) => tracedTarget(r, "chain"),
  "loop-traced": (r) => tracedTarget(r, "loop"),
  "event-size": (r) => [`NDJSON ${r.bytes_per_item.join(" / ")} bytes per item at ${r.sizes.join(" / ")} items: ratio ${r.size_ratio} ≤ 1.05`, r.size_ratio <= 1.05],
};

/**
 * graph-builder's figures per graph: each side's `extra` timed every graph on its own (samples of
 * ≥ 50 ms, mean per run), in every round; µs per step from the medians of all rounds' samples.
 * The two sides' final states must be the same in every round, or the bench fails.
 */
function graphBuilderFigures(extraByRound) {
  const [reference] = extraByRound.canvasflow;
  for (const side of ["canvasflow", "langgraph"]) {
    for (const [i, e] of extraByRound[side].entries()) {
      for (const graph of Object.keys(reference.final_state)) {
        const [want, got] = [JSON.stringify(reference.final_state[graph]), JSON.stringify(e.final_state?.[graph])];
        if (want !== got) throw new Error(`graph-builder: the final state of ${graph} differs: canvasflow ${want}, ${side} (round ${i + 1}) ${got}`);
      }
    }
  }
  const perStep = (xs, steps) => xs.map((ms) => round((1000 * ms) / steps, 2));
  const graphs = Object.keys(reference.final_state).map((graph) => {
    const steps = reference.steps[graph];
    const cf = stats(extraByRound.canvasflow.flatMap((e) => e.samples[graph]));
    const lg = stats(extraByRound.langgraph.flatMap((e) => e.samples[graph]));
    return {
      graph,
      steps,
      canvasflow_components_per_run: reference.components_per_run[graph],
      canvasflow_us_per_step: round((1000 * cf.median) / steps, 2),
      langgraph_us_per_step: round((1000 * lg.median) / steps, 2),
      ratio: round(lg.median / cf.median, 1),
      canvasflow: { ms_per_run: [cf.min, cf.median, cf.p90].map((x) => round(x)), us_per_step: perStep([cf.min, cf.median, cf.p90], steps), runs_per_sample: extraByRound.canvasflow.map((e) => e.runs_per_sample[graph]) },
      langgraph: { ms_per_run: [lg.min, lg.median, lg.p90].map((x) => round(x)), us_per_step: perStep([lg.min, lg.median, lg.p90], steps), runs_per_sample: extraByRound.langgraph.map((e) => e.runs_per_sample[graph]) },
      canvasflow_load_canvas_ms: round(reference.load_canvas_ms[graph]),
      final_state_checked: true,
    };
  });
  return { graphs };
}

/** Tracing's cost is recorded, not judged: against the untraced workload when it ran too. */
function tracedTarget(r, plain) {
  const spans = `${r.spans_per_run} spans a run`;
  if (r.plain_ms === undefined) return [`${r.canvasflow_ms} ms with tracing on (no-op exporter, ${spans}); run it with --only ${plain},${r.name} for the overhead per step (recorded)`, true];
  return [`${r.canvasflow_ms} ms with tracing on (no-op exporter, ${spans}) vs ${r.plain_ms} ms without (${plain}): ${r.overhead_us_per_step} µs per step (recorded)`, true];
}

/** canvasflow's median sample may be at most this many times its fastest, on every workload. */
const STEADY_LIMIT = 1.5;

const args = parseArgs(process.argv.slice(2));
const started = Date.now();
console.log(`canvasflow ${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version} vs @langchain/langgraph ${versionOf("@langchain/langgraph")} · Node ${process.version} · ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"})`);
console.log("per-run ms over samples of ≥ 50 ms: min / median / p90; ratio = LangGraph median / canvasflow median\n");
const records = [];
for (const name of args.only) {
  if ((await import(join(here, "workloads", `${name}.mjs`))).kind === "server") {
    records.push(await runServerWorkload(name, args.rounds));
    continue;
  }
  let clock = "wall";
  const sides = (await hasLangGraphSide(name)) ? ["canvasflow", "langgraph"] : ["canvasflow"];
  const samples = { canvasflow: [], langgraph: [] };
  const wallSamples = { canvasflow: [], langgraph: [] };
  const runsPerSample = { canvasflow: [], langgraph: [] };
  const waitedShare = { canvasflow: [], langgraph: [] };
  const extra = { canvasflow: {}, langgraph: {} };
  const extraByRound = { canvasflow: [], langgraph: [] };
  for (let r = 0; r < args.rounds; r++) {
    for (const side of sides) {
      const result = runSide(name, side);
      extraByRound[side].push(result.extra);
      samples[side].push(...result.samples);
      wallSamples[side].push(...result.wallSamples);
      runsPerSample[side].push(result.runsPerSample);
      waitedShare[side].push(round(result.waitedShare, 3));
      clock = result.clock;
      extra[side] = { ...extra[side], ...result.extra };
    }
  }
  const cf = stats(samples.canvasflow);
  const lg = stats(samples.langgraph);
  const figures = (s, side) => {
    const wall = stats(wallSamples[side]);
    return {
      min_ms: round(s.min),
      median_ms: round(s.median),
      p90_ms: round(s.p90),
      max_ms: round(s.max),
      samples: samples[side].length,
      runs_per_sample: runsPerSample[side],
      wall: { min_ms: round(wall.min), median_ms: round(wall.median), p90_ms: round(wall.p90), max_ms: round(wall.max) },
      waited_share: waitedShare[side],
    };
  };
  const record = {
    name,
    canvasflow_ms: round(cf.median),
    langgraph_ms: lg ? round(lg.median) : null,
    ratio: lg ? round(lg.median / cf.median, 1) : null,
    canvasflow: figures(cf, "canvasflow"),
    ...(lg ? { langgraph: figures(lg, "langgraph") } : {}),
    steadiness: round(cf.median / cf.min, 2),
    ...(lg ? { langgraph_steadiness: round(lg.median / lg.min, 2) } : {}),
    clock,
  };
  if (name === "io-fanout") record.ideal_ratio = round(cf.median / 10, 2);
  if (name === "long-loop") record.scaling_ratio = round(extra.canvasflow.scaling_ratio, 2);
  if (name === "append-scaling") {
    Object.assign(record, {
      sizes: extra.canvasflow.sizes,
      append_ms: extra.canvasflow.append_ms.map((x) => round(x, 1)),
      add_ms: extra.canvasflow.add_ms.map((x) => round(x, 1)),
      scaling_ratio: round(extra.canvasflow.scaling_ratio, 2),
    });
  }
  if (name === "durable-memory") {
    // The plain run is the chain workload's canvasflow side when it ran (same chain, same method,
    // its own process); in-process alternation skews both sides, so it is only the fallback.
    const chain = records.find((r) => r.name === "chain");
    Object.assign(
      record,
      chain
        ? { overhead: round(cf.median / chain.canvasflow.median_ms, 2), overhead_basis: `the chain workload's plain run (${chain.canvasflow_ms} ms)` }
        : { overhead: round(extra.canvasflow.overhead, 2), overhead_basis: `a plain run in the same process (${round(extra.canvasflow.plain_ms, 2)} ms)` },
    );
  }
  if (name === "chain-traced" || name === "loop-traced") {
    // Against the untraced workload's canvasflow side when it ran (same canvas, same method, its own process).
    const plain = records.find((r) => r.name === name.replace(/-traced$/, ""));
    const { STEPS } = await import(join(here, "workloads", `${name}.mjs`));
    Object.assign(record, {
      steps: STEPS,
      spans_per_run: extra.canvasflow.spans_per_run,
      ...(plain
        ? { plain_ms: plain.canvasflow_ms, overhead_ms: round(cf.median - plain.canvasflow.median_ms), overhead_us_per_step: round(((cf.median - plain.canvasflow.median_ms) * 1000) / STEPS, 2) }
        : {}),
    });
  }
  if (name === "checkpoint-bytes") {
    Object.assign(record, {
      bytes_per_step_round_10: round(extra.canvasflow.bytes_per_step_round_10, 1),
      bytes_per_step_round_10000: round(extra.canvasflow.bytes_per_step_round_10000, 1),
      bytes_ratio: round(extra.canvasflow.bytes_ratio, 3),
      lg_bytes_per_step_step_10: extra.langgraph.lg_bytes_per_step_step_10,
      lg_bytes_per_step_last: extra.langgraph.lg_bytes_per_step_last,
      lg_rounds: extra.langgraph.lg_rounds,
    });
  }
  if (name === "event-size") {
    Object.assign(record, { sizes: extra.canvasflow.sizes, bytes_per_item: extra.canvasflow.bytes_per_item.map((x) => round(x, 1)), size_ratio: round(extra.canvasflow.size_ratio, 3) });
  }
  if (name === "retrieval") {
    // Figures of the last round (each round indexes a fresh folder in a fresh process).
    const e = extra.canvasflow;
    Object.assign(record, {
      chunks: e.chunks,
      files: e.files,
      dimensions: e.dimensions,
      index_ms: round(e.index_ms, 1),
      index_cpu_ms: round(e.index_cpu_ms, 1),
      index_tokens: e.index_tokens,
      reindex_ms: round(e.reindex_ms, 1),
      reindex_cpu_ms: round(e.reindex_cpu_ms, 1),
      reindex_files: e.reindex_files,
      reindex_embedded_chunks: e.reindex_embedded_chunks,
      reindex_share: round(e.reindex_share, 4),
      reindex_cpu_share: round(e.reindex_cpu_share, 4),
      open_ms: round(e.open_ms, 1),
      open_cpu_ms: round(e.open_cpu_ms, 1),
      folder_check_ms: round(e.folder_check_ms, 1),
      minisearch_build_ms: round(e.minisearch_build_ms, 1),
      queries: e.queries,
      queries_with_results: e.queries_with_results,
      hybrid_p50_ms: round(e.hybrid_p50_ms),
      hybrid_p99_ms: round(e.hybrid_p99_ms),
      keyword_minisearch_p50_ms: round(e.keyword_minisearch_p50_ms),
      keyword_minisearch_p99_ms: round(e.keyword_minisearch_p99_ms),
      keyword_ours_p50_ms: round(e.keyword_ours_p50_ms),
      keyword_ours_p99_ms: round(e.keyword_ours_p99_ms),
      p99_ratio: round(e.p99_ratio, 2),
    });
  }
  if (name === "pipeline-ingest") {
    // Documents/s from the runner's samples (every round); the reference's runs and the CSV peaks of every round.
    const rounds = extraByRound.canvasflow;
    const e = extra.canvasflow;
    const files = e.files;
    const referenceCpu = stats(rounds.flatMap((x) => x.reference_cpu_ms));
    const referenceWall = stats(rounds.flatMap((x) => x.reference_wall_ms));
    const wall = stats(wallSamples.canvasflow);
    Object.assign(record, {
      files,
      written: e.written,
      chunks: e.chunks,
      embedded_chunks: e.embedded_chunks,
      documents_per_s: round((files * 1000) / cf.median, 1),
      documents_per_s_wall: round((files * 1000) / wall.median, 1),
      reference_chunks: e.reference_chunks,
      reference_ms: round(referenceCpu.median),
      reference_documents_per_s: round((files * 1000) / referenceCpu.median, 1),
      reference_documents_per_s_wall: round((files * 1000) / referenceWall.median, 1),
      reference_ratio: round(cf.median / referenceCpu.median, 1),
      csv: e.csv.map((last, i) => ({
        mb: last.mb,
        bytes: last.bytes,
        rows: last.rows,
        // The highest of the rounds: the target must hold in every one.
        peak_rss_mb: round(Math.max(...rounds.map((x) => x.csv[i].peak_rss_mb)), 1),
        peak_rss_mb_by_round: rounds.map((x) => round(x.csv[i].peak_rss_mb, 1)),
        rss_before_mb: round(last.rss_before_mb, 1),
        run_ms_by_round: rounds.map((x) => round(x.csv[i].ms, 0)),
        steps_ms: last.steps_ms,
        chunks: last.chunks,
        warnings: last.warnings,
      })),
    });
  }
  if (name === "dify-graph") {
    const e = extra.canvasflow;
    const us = (pair) => ({ dify: round(pair.dify, 2), ragflow: round(pair.ragflow, 2) });
    Object.assign(record, { chain_ratio: round(e.chain_ratio, 2), fanout_ratio: round(e.fanout_ratio, 2), chain_us_per_step: us(e.chain_us_per_step), fanout_us_per_step: us(e.fanout_us_per_step) });
  }
  if (name === "graph-builder") Object.assign(record, graphBuilderFigures(extraByRound));
  if (name === "codeexec") {
    const e = extra.canvasflow;
    const pair = (x) => ({ p50_ms: round(x.p50_ms), p90_ms: round(x.p90_ms) });
    Object.assign(record, {
      js_sandbox: pair(e.js_sandbox),
      js_direct: pair(e.js_direct),
      py_sandbox: pair(e.py_sandbox),
      py_trusted: pair(e.py_trusted),
      py_ratio: round(e.py_sandbox.p50_ms / e.py_trusted.p50_ms, 2),
      iteration_items: e.iteration_items,
      iteration_js_ms_per_item: round(e.iteration_js_ms_per_item),
      iteration_py_ms_per_item: round(e.iteration_py_ms_per_item),
      iteration_py_trusted_ms_per_item: round(e.iteration_py_trusted_ms_per_item),
    });
  }
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
  record.steady = record.steadiness <= STEADY_LIMIT;
  record.load_average = os.loadavg().map((x) => round(x, 2));
  records.push(record);
  const busiest = Math.max(...waitedShare.canvasflow, ...waitedShare.langgraph);
  const fmt = (s) => (s ? `${fix(s.min)} / ${fix(s.median)} / ${fix(s.p90)}` : "—");
  console.log(
    `${name.padEnd(11)} canvasflow ${fmt(cf).padEnd(24)} langgraph ${fmt(lg).padEnd(28)} ratio ${String(record.ratio ?? "—").padEnd(6)} ` +
      `${met ? "✓" : "✗"} ${target} · ${record.steady ? "✓" : "✗"} steady ${record.steadiness} ≤ ${STEADY_LIMIT}` +
      (busiest > 0.05 ? ` · busy machine: up to ${Math.round(busiest * 100)}% of a side's time spent waiting for a CPU` : ""),
  );
  if (name === "graph-builder") {
    for (const g of record.graphs) {
      console.log(
        `  ${g.graph.padEnd(7)} ${String(g.steps).padStart(4)} steps · µs per step, min / median / p90: canvasflow ${g.canvasflow.us_per_step.join(" / ").padEnd(20)} ` +
          `langgraph ${g.langgraph.us_per_step.join(" / ").padEnd(24)} ratio ${g.ratio}× · final state the same on both sides`,
      );
    }
    console.log(
      `  (the line above times the three graphs in a row; a step is one execution of a user's node, on both sides: canvasflow's Begin, START and join ` +
        `components ran too, ${record.graphs.map((g) => `${g.graph} ${g.canvasflow_components_per_run - g.steps}`).join(", ")} a run, and LangGraph's __start__ task: in the time, not counted)`,
    );
  }
}
const byClock = new Map();
for (const record of records.filter((r) => r.clock)) byClock.set(record.clock, [...(byClock.get(record.clock) ?? []), record.name]);
console.log(`\nclock: ${[...byClock].map(([clock, names]) => `${clock} (${names.join(", ")})`).join("; ")}`);
if (args.json) writeFileSync(args.json, `${JSON.stringify(records, null, 2)}\n`);
for (const [key, count] of warningCounts) console.log(`note: ${key} printed ${count} warning line(s) (e.g. MaxListenersExceededWarning)`);
const missed = records.filter((r) => !r.target_met).map((r) => r.name);
const unsteady = records.filter((r) => r.steady === false).map((r) => r.name);
console.log(
  `\n${records.length} workloads in ${((Date.now() - started) / 1000).toFixed(0)} s; targets ${missed.length ? `missed: ${missed.join(", ")}` : "all met"}; ` +
    `canvasflow ${unsteady.length ? `unsteady: ${unsteady.join(", ")}` : "steady everywhere"}${args.json ? `; figures in ${args.json}` : ""}`,
);
