/** chain: 1000 trivial steps in a line. */
import { canvasflow, chainDsl, chainGraph, langgraph, registerBenchComponents, runToEnd } from "../lib.mjs";

export const N = 1000;
export const plan = { warmup: 20, samples: 15, langgraph: { warmup: 10 } };

export async function canvasflowSide() {
  const api = await canvasflow();
  registerBenchComponents(api);
  const canvas = await api.loadCanvas(chainDsl(N), { maxSteps: N + 10 });
  return { run: () => runToEnd(canvas) };
}

export async function langgraphSide() {
  const lg = await langgraph();
  const app = chainGraph(lg, N);
  return {
    run: async () => {
      const out = await app.invoke({ count: 0 }, { recursionLimit: N + 10 });
      if (out.count !== N) throw new Error(`count ${out.count}`);
    },
  };
}
