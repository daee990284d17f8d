/**
 * load: a generated 10 000-component DSL. canvasflow loads and validates it (loadCanvas on the
 * JSON text); the ratio to JSON.parse of the same text is reported. LangGraph builds and
 * compiles a StateGraph of the same 10 000 nodes.
 */
import { cpuMs } from "../clock.mjs";
import { canvasflow, chainDsl, chainGraph, langgraph, registerBenchComponents } from "../lib.mjs";

const N = 10_000;
// A canvasflow load (~50 ms) keeps the whole DSL alive while it builds it, so its scavenges copy
// megabytes (~10 ms each, two or three per load) and a mark-compact comes every ~8 loads: a
// sample spans about four loads, so it carries a typical share of that.
export const plan = { warmup: 2, samples: 7, canvasflow: { sampleMs: 200 } };

export async function canvasflowSide() {
  const api = await canvasflow();
  registerBenchComponents(api);
  const text = JSON.stringify(chainDsl(N - 1)); // begin + 9 999 steps
  return {
    run: async () => {
      const canvas = await api.loadCanvas(text, { maxSteps: N + 10 });
      if (canvas.componentIds.length !== N) throw new Error("wrong size");
    },
    // JSON.parse of the same text, on the same clock: GC first, then the median of 9 timed parses after 2 untimed.
    extra: async () => {
      const parses = [];
      for (let i = 0; i < 11; i++) {
        globalThis.gc?.();
        const started = cpuMs();
        JSON.parse(text);
        if (i >= 2) parses.push(cpuMs() - started);
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
