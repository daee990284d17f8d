/** throughput: 1000 sequential runs of a 5-step canvas, loaded once. */
import { canvasflow, chainDsl, chainGraph, langgraph, registerBenchComponents, runToEnd } from "../lib.mjs";

const RUNS = 1000;
export const plan = { warmup: 3, samples: 15, langgraph: { warmup: 1, samples: 5 } };

export async function canvasflowSide() {
  const api = await canvasflow();
  registerBenchComponents(api);
  const canvas = await api.loadCanvas(chainDsl(4)); // begin + 4 steps = 5 components
  return {
    run: async () => {
      for (let i = 0; i < RUNS; i++) await runToEnd(canvas);
    },
  };
}

export async function langgraphSide() {
  const lg = await langgraph();
  const app = chainGraph(lg, 5);
  return {
    run: async () => {
      for (let i = 0; i < RUNS; i++) await app.invoke({ count: 0 });
    },
  };
}
