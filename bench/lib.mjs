/**
 * Shared pieces of the benchmark workloads: the canvasflow side (built from dist through the
 * public API) and the LangGraph side, plus small timing helpers.
 */
import { setTimeout as sleep } from "node:timers/promises";

export { sleep };

/** The package's entries (package.json exports), as built in dist/. */
const ENTRIES = ["index.js", "server/index.js", "worker/index.js", "backends/redis/index.js", "backends/postgres/index.js", "backends/sqlite/index.js", "dify/index.js", "render/index.js", "knowledge/index.js", "testing/index.js", "graph/index.js"];

/** The canvasflow package as users get it (the build in dist/): every entry's exports in one object. */
export async function canvasflow() {
  return Object.assign({}, ...(await Promise.all(ENTRIES.map((entry) => import(`../dist/src/${entry}`)))));
}

export async function langgraph() {
  return import("@langchain/langgraph");
}

/** A trivial step: the same work on both sides (write one small value). */
export const STEP = {
  name: "BenchStep",
  invoke(ctx) {
    ctx.setOutput("n", 1);
  },
};

/** A step that awaits a 10 ms timer. */
export const SLEEP_STEP = {
  name: "BenchSleep",
  async invoke(ctx) {
    await sleep(10);
    ctx.setOutput("n", 1);
  },
};

/** A join that reads every listed source's output and checks it has all of them. */
export const COLLECT = {
  name: "BenchCollect",
  references(params) {
    return params.sources.map((s) => ({ kind: "component", expr: `${s}@n`, componentId: s, variable: "n", path: [] }));
  },
  invoke(ctx) {
    const items = ctx.params.sources.map((s) => ctx.get(`${s}@n`));
    if (items.length !== ctx.params.expected || items.some((x) => x !== 1)) throw new Error(`collected ${items.length} items`);
    ctx.setOutput("items", items);
  },
};

export function registerBenchComponents(api) {
  for (const def of [STEP, SLEEP_STEP, COLLECT]) api.registerComponent(def, { replace: true });
}

export function node(name, params = {}, downstream = [], extra = {}) {
  return { obj: { component_name: name, params }, downstream, upstream: [], ...extra };
}

/** A linear canvas: begin → BenchStep:0 → … → BenchStep:(n-1). */
export function chainDsl(n, stepName = "BenchStep") {
  const components = { begin: node("Begin", {}, n > 0 ? ["S:0"] : []) };
  for (let i = 0; i < n; i++) components[`S:${i}`] = node(stepName, {}, i + 1 < n ? [`S:${i + 1}`] : []);
  return { components, globals: {}, history: [], path: [], retrieval: [] };
}

/** Run a canvas turn and consume every event; fail loudly if the run failed. */
export async function runToEnd(canvas, request = {}) {
  let last;
  let count = 0;
  for await (const event of canvas.run(request)) {
    last = event;
    count++;
  }
  if (last?.event !== "workflow_finished" || last.data.error) throw new Error(`run did not finish cleanly: ${JSON.stringify(last?.data)}`);
  return count;
}

/** LangGraph: a linear StateGraph of n nodes that each increment a counter (compiled with `compileOptions`, e.g. a checkpointer). */
export function chainGraph(lg, n, compileOptions = {}) {
  const State = lg.Annotation.Root({ count: lg.Annotation({ reducer: (_a, b) => b, default: () => 0 }) });
  const graph = new lg.StateGraph(State);
  for (let i = 0; i < n; i++) graph.addNode(`n${i}`, (s) => ({ count: s.count + 1 }));
  graph.addEdge(lg.START, "n0");
  for (let i = 1; i < n; i++) graph.addEdge(`n${i - 1}`, `n${i}`);
  graph.addEdge(`n${n - 1}`, lg.END);
  return graph.compile(compileOptions);
}

/** A small deterministic generator (mulberry32): the same figures' inputs in every run. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
