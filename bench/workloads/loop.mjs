/** loop: a Loop of 1000 rounds, against a self-edge with a conditional in LangGraph. */
import { canvasflow, langgraph, node, registerBenchComponents, runToEnd } from "../lib.mjs";

export const ROUNDS = 1000;
export const plan = { warmup: 20, samples: 15, langgraph: { warmup: 10 } };

export function loopDsl(rounds) {
  return {
    components: {
      begin: node("Begin", {}, ["Loop:L"]),
      "Loop:L": node("Loop", { maximum_loop_count: rounds, loop_variables: [], loop_termination_condition: [] }),
      "LoopItem:I": node("LoopItem", {}, ["S:body"], { parent_id: "Loop:L" }),
      "S:body": node("BenchStep", {}, [], { parent_id: "Loop:L" }),
    },
    globals: {},
  };
}

export async function canvasflowSide() {
  const api = await canvasflow();
  registerBenchComponents(api);
  const canvas = await api.loadCanvas(loopDsl(ROUNDS), { maxSteps: 3 * ROUNDS + 10 });
  return { run: () => runToEnd(canvas) };
}

export async function langgraphSide() {
  const lg = await langgraph();
  const State = lg.Annotation.Root({ count: lg.Annotation({ reducer: (_a, b) => b, default: () => 0 }) });
  const graph = new lg.StateGraph(State);
  graph.addNode("step", (s) => ({ count: s.count + 1 }));
  graph.addEdge(lg.START, "step");
  graph.addConditionalEdges("step", (s) => (s.count < ROUNDS ? "step" : lg.END));
  const app = graph.compile();
  return {
    run: async () => {
      const out = await app.invoke({ count: 0 }, { recursionLimit: ROUNDS + 10 });
      if (out.count !== ROUNDS) throw new Error(`count ${out.count}`);
    },
  };
}
