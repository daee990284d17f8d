/**
 * long-loop scaling: a loop of 20 000 rounds. The mean time of a round over rounds 10 000–10 100,
 * divided by the mean over rounds 10–110: 1.0 means a step costs the same late as early.
 */
import { canvasflow, node, runToEnd } from "../lib.mjs";

const ROUNDS = 20_000;
export const plan = { warmup: 2, samples: 8 };

export async function canvasflowSide() {
  const api = await canvasflow();
  let ticks = [];
  api.registerComponent({ name: "BenchTick", invoke(ctx) { ticks.push(performance.now()); ctx.setOutput("n", 1); } }, { replace: true });
  const dsl = {
    components: {
      begin: node("Begin", {}, ["Loop:L"]),
      "Loop:L": node("Loop", { maximum_loop_count: ROUNDS }),
      "LoopItem:I": node("LoopItem", {}, ["T:body"], { parent_id: "Loop:L" }),
      "T:body": node("BenchTick", {}, [], { parent_id: "Loop:L" }),
    },
    globals: {},
  };
  const canvas = await api.loadCanvas(dsl, { maxSteps: 3 * ROUNDS + 10 });
  const ratios = [];
  const meanRound = (from, to) => (ticks[to] - ticks[from]) / (to - from);
  return {
    run: async () => {
      ticks = [];
      await runToEnd(canvas);
      if (ticks.length !== ROUNDS) throw new Error(`ticks ${ticks.length}`);
      ratios.push(meanRound(10_000, 10_100) / meanRound(10, 110));
    },
    extra: async () => {
      const sorted = [...ratios].sort((a, b) => a - b);
      return { scaling_ratio: sorted[Math.floor(sorted.length / 2)], scaling_ratios: ratios };
    },
  };
}
