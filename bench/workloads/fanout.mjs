/** fanout: 1 → 100 parallel trivial steps → 1 join that collects all 100 results. */
import { canvasflow, langgraph, node, registerBenchComponents, runToEnd } from "../lib.mjs";

const WIDTH = 100;
export const plan = { warmup: 20, samples: 15 };

export async function canvasflowSide() {
  const api = await canvasflow();
  registerBenchComponents(api);
  const ids = Array.from({ length: WIDTH }, (_, i) => `P:${i}`);
  const components = { begin: node("Begin", {}, ["S:start"]), "S:start": node("BenchStep", {}, ids) };
  for (const id of ids) components[id] = node("BenchStep", {}, ["C:join"]);
  components["C:join"] = node("BenchCollect", { sources: ids, expected: WIDTH });
  const canvas = await api.loadCanvas({ components, globals: {} }, { concurrency: WIDTH });
  return { run: () => runToEnd(canvas) };
}

export async function langgraphSide() {
  const lg = await langgraph();
  const State = lg.Annotation.Root({ items: lg.Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const graph = new lg.StateGraph(State);
  const ids = Array.from({ length: WIDTH }, (_, i) => `p${i}`);
  graph.addNode("start", () => ({}));
  for (const id of ids) graph.addNode(id, () => ({ items: [1] }));
  graph.addNode("join", (s) => {
    if (s.items.length !== WIDTH) throw new Error(`collected ${s.items.length}`);
    return {};
  });
  graph.addEdge(lg.START, "start");
  for (const id of ids) graph.addEdge("start", id);
  graph.addEdge(ids, "join");
  graph.addEdge("join", lg.END);
  const app = graph.compile();
  return { run: () => app.invoke({ items: [] }) };
}
