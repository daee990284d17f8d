/** io-fanout: 100 parallel steps, each awaiting a 10 ms timer, with concurrency ≥ 100 on both sides. */
import { canvasflow, langgraph, node, registerBenchComponents, runToEnd, sleep } from "../lib.mjs";

const WIDTH = 100;
export const IDEAL_MS = 10;
// Timed by the wall clock: what it measures is waiting (bench/clock.mjs).
export const plan = { warmup: 10, samples: 15, clock: "wall" };

export async function canvasflowSide() {
  const api = await canvasflow();
  registerBenchComponents(api);
  const ids = Array.from({ length: WIDTH }, (_, i) => `W:${i}`);
  const components = { begin: node("Begin", {}, ids) };
  for (const id of ids) components[id] = node("BenchSleep");
  const canvas = await api.loadCanvas({ components, globals: {} }, { concurrency: WIDTH });
  return { run: () => runToEnd(canvas) };
}

export async function langgraphSide() {
  const lg = await langgraph();
  const State = lg.Annotation.Root({ done: lg.Annotation({ reducer: (a, b) => a + b, default: () => 0 }) });
  const graph = new lg.StateGraph(State);
  const ids = Array.from({ length: WIDTH }, (_, i) => `w${i}`);
  for (const id of ids) {
    graph.addNode(id, async () => {
      await sleep(10);
      return { done: 1 };
    });
    graph.addEdge(lg.START, id);
    graph.addEdge(id, lg.END);
  }
  const app = graph.compile();
  return {
    run: async () => {
      const out = await app.invoke({ done: 0 }, { maxConcurrency: WIDTH });
      if (out.done !== WIDTH) throw new Error(`done ${out.done}`);
    },
  };
}
