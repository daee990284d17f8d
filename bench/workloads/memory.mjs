/**
 * memory: peak heap, RSS and arrayBuffers while running the 1000-step chain, plus the byte size of
 * the final run-state snapshot — and whether that size grows with the steps taken (a loop of 100
 * rounds against one of 10 000 holds the same outputs).
 */
import { canvasflow, chainDsl, langgraph, registerBenchComponents, runToEnd } from "../lib.mjs";
import { loopDsl } from "./loop.mjs";

const N = 1000;
export const plan = { warmup: 2, samples: 10, langgraph: { warmup: 1, samples: 5 } };

const peak = { heap: 0, arrayBuffers: 0 };
function sample() {
  const m = process.memoryUsage();
  if (m.heapUsed > peak.heap) peak.heap = m.heapUsed;
  if (m.arrayBuffers > peak.arrayBuffers) peak.arrayBuffers = m.arrayBuffers;
}
const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
function memoryReport() {
  return { peak_heap_mb: mb(peak.heap), peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024), peak_array_buffers_mb: mb(peak.arrayBuffers) };
}

export async function canvasflowSide() {
  const api = await canvasflow();
  registerBenchComponents(api);
  let count = 0;
  api.registerComponent({ name: "BenchSampledStep", invoke(ctx) { if (++count % 10 === 0) sample(); ctx.setOutput("n", 1); } }, { replace: true });
  const canvas = await api.loadCanvas(chainDsl(N, "BenchSampledStep"), { maxSteps: N + 10 });
  return {
    run: () => runToEnd(canvas),
    async extra() {
      const snapshot = JSON.stringify(canvas.toJSON()).length;
      const sizes = {};
      for (const rounds of [100, 10_000]) {
        const loop = await api.loadCanvas(loopDsl(rounds), { maxSteps: 3 * rounds + 10 });
        await runToEnd(loop);
        sizes[rounds] = JSON.stringify(loop.toJSON()).length;
      }
      return { ...memoryReport(), snapshot_bytes: snapshot, snapshot_bytes_loop_100: sizes[100], snapshot_bytes_loop_10000: sizes[10_000] };
    },
  };
}

export async function langgraphSide() {
  const lg = await langgraph();
  const State = lg.Annotation.Root({ count: lg.Annotation({ reducer: (_a, b) => b, default: () => 0 }) });
  const graph = new lg.StateGraph(State);
  for (let i = 0; i < N; i++) {
    graph.addNode(`n${i}`, (s) => {
      if ((s.count + 1) % 10 === 0) sample();
      return { count: s.count + 1 };
    });
  }
  graph.addEdge(lg.START, "n0");
  for (let i = 1; i < N; i++) graph.addEdge(`n${i - 1}`, `n${i}`);
  graph.addEdge(`n${N - 1}`, lg.END);
  const app = graph.compile();
  return {
    run: () => app.invoke({ count: 0 }, { recursionLimit: N + 10 }),
    extra: async () => memoryReport(),
  };
}
