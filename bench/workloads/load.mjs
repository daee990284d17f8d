/**
 * load: a generated 10 000-component DSL. canvasflow loads and validates it (loadCanvas on the
 * JSON text); the ratio to JSON.parse of the same text is reported. LangGraph builds and
 * compiles a StateGraph of the same 10 000 nodes.
 */
import { canvasflow, chainDsl, chainGraph, langgraph, registerBenchComponents } from "../lib.mjs";

const N = 10_000;
export const plan = { warmup: 2, reps: 7 };

export async function canvasflowSide() {
  const api = await canvasflow();
  registerBenchComponents(api);
  const text = JSON.stringify(chainDsl(N - 1)); // begin + 9 999 steps
  return {
    run: async () => {
      const canvas = await api.loadCanvas(text, { maxSteps: N + 10 });
      if (canvas.componentIds.length !== N) throw new Error("wrong size");
    },
    // JSON.parse of the same text, timed the same way (GC first, median of as many repetitions).
    extra: async () => {
      const parses = [];
      for (let i = 0; i < plan.warmup + plan.reps; i++) {
        globalThis.gc?.();
        const started = performance.now();
        JSON.parse(text);
        if (i >= plan.warmup) parses.push(performance.now() - started);
      }
      const sorted = parses.sort((a, b) => a - b);
      return { parse_ms: sorted[Math.floor(sorted.length / 2)], dsl_bytes: text.length };
    },
  };
}

export async function langgraphSide() {
  const lg = await langgraph();
  return { run: async () => chainGraph(lg, N) };
}
