/**
 * graph-builder: canvasflow/graph's StateGraph (compiled to an ordinary RAGFlow canvas) beside
 * LangGraph.js's StateGraph, on the same three graphs built with each library's own StateGraph
 * API and running the same node functions (defined once, below):
 *
 * - chain: 1000 function nodes in a line, each adding 1 to a number key (canvasflow: reducer
 *   "last"; LangGraph: a plain `Annotation()`, its last-value channel);
 * - fanout: one node fans out to 100 branches, each appending its index to a list key (canvasflow:
 *   `state.list()`, reducer "extend"; LangGraph: a concat reducer), then a waiting edge
 *   (`addEdge([...100 branches], "join")` on both sides) to a join writing the list's length;
 * - loop: one node increments a counter, a conditional edge goes back to it until the counter
 *   reaches 1000, then END (LangGraph: recursionLimit raised; canvasflow: maxSteps).
 *
 * A run is what LangGraph's `invoke` on a graph compiled without a checkpointer is: a fresh state
 * each time. canvasflow's graph is compiled once (`StateGraph.compile()`, then `compileCanvas`
 * of its DSL: validation and the canvas graph, as a server does once per agent), and each run is
 * a new session of it (`Canvas.fromCompiled`) run with `canvas.run({ inputs })`, every event
 * consumed, the state read back with `compiled.values(canvas.globals)`. (One canvas run twice
 * would be a thread: the fan-out's list would keep growing.)
 *
 * Steps are the user's node executions on both sides: chain 1000, fanout 102 (the fan node, 100
 * branches, the join node), loop 1000. The plumbing is in the time but not counted: canvasflow's
 * Begin, START component and the waiting edge's join component (chain and loop: 2 more component
 * executions, fanout: 3), LangGraph's `__start__` task and its channels.
 *
 * Every run checks its final state against the expected one and fails loudly otherwise; `extra`
 * returns each graph's final state, and the driver fails if the two sides' differ. The timed run
 * of the worker is the three graphs in a row; `extra` then times each graph on its own, in
 * samples of at least 50 ms (mean per run), the graphs alternating, 15 samples each.
 */
import { cpuMs } from "../clock.mjs";
import { canvasflow, langgraph } from "../lib.mjs";

export const CHAIN = 1000;
export const WIDTH = 100;
export const ROUNDS = 1000;
export const GRAPHS = ["chain", "fanout", "loop"];
/** The user's node executions per run (what "a step" is, on both sides). */
export const STEPS = { chain: CHAIN, fanout: WIDTH + 2, loop: ROUNDS };
/** canvasflow's own component executions per run besides the user's nodes (Begin, START, the join). */
export const PLUMBING = { chain: 2, fanout: 3, loop: 2 };

const SAMPLES = 15;
const SAMPLE_MS = 50;
export const plan = { warmup: 10, samples: 15, langgraph: { warmup: 3 } };

// ---- the node functions, the same on both sides (END is "__end__" in both libraries) ----

const END = "__end__";
const increment = (s) => ({ n: s.n + 1 });
const fan = () => ({});
const branch = (i) => () => ({ list: [i] });
const join = (s) => ({ size: s.list.length });
const tick = (s) => ({ count: s.count + 1 });
const again = (s) => (s.count < ROUNDS ? "tick" : END);

/** Zero-padded, so the branches' names sort as their indexes do (LangGraph applies a step's writes in task-name order). */
const branchNames = Array.from({ length: WIDTH }, (_, i) => `b${String(i).padStart(3, "0")}`);
const chainNames = Array.from({ length: CHAIN }, (_, i) => `n${String(i).padStart(4, "0")}`);

const INPUTS = { chain: { n: 0 }, fanout: { list: [] }, loop: { count: 0 } };
const EXPECTED = {
  chain: { n: CHAIN },
  fanout: { list: Array.from({ length: WIDTH }, (_, i) => i), size: WIDTH },
  loop: { count: ROUNDS },
};

/** Fails loudly unless the run's final state is the expected one (key for key, item for item). */
function check(side, graph, values) {
  const expected = EXPECTED[graph];
  const keys = Object.keys(values ?? {});
  let same = keys.length === Object.keys(expected).length;
  for (const key of keys) {
    const [a, b] = [values[key], expected[key]];
    if (Array.isArray(b)) same &&= Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
    else same &&= a === b;
  }
  if (!same) throw new Error(`graph-builder ${graph} (${side}): final state ${JSON.stringify(values)}, expected ${JSON.stringify(expected)}`);
  return values;
}

/** Sorted keys, for the driver's comparison of the two sides. */
const canonical = (values) => Object.fromEntries(Object.keys(values).sort().map((k) => [k, values[k]]));

/** Each graph in samples of ≥ 50 ms, alternating; per graph the mean run time of each sample (CPU ms). */
async function timeEach(runs) {
  const perSample = {};
  for (const graph of GRAPHS) {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const started = cpuMs();
      await runs[graph]();
      times.push(cpuMs() - started);
    }
    perSample[graph] = Math.max(1, Math.ceil(SAMPLE_MS / Math.max(0.001, Math.min(...times))));
  }
  const samples = Object.fromEntries(GRAPHS.map((g) => [g, []]));
  for (let s = 0; s < SAMPLES; s++) {
    for (const graph of GRAPHS) {
      const started = cpuMs();
      for (let r = 0; r < perSample[graph]; r++) await runs[graph]();
      samples[graph].push((cpuMs() - started) / perSample[graph]);
    }
  }
  return { samples, runs_per_sample: perSample };
}

// ---- canvasflow ----

export async function canvasflowSide() {
  const api = await canvasflow();
  const { StateGraph, state, START } = api;

  const chain = new StateGraph(state({ n: state.number() }), { id: "bench_chain" });
  for (const name of chainNames) chain.addNode(name, increment);
  chain.addEdge(START, chainNames[0]);
  for (let i = 1; i < CHAIN; i++) chain.addEdge(chainNames[i - 1], chainNames[i]);
  chain.addEdge(chainNames.at(-1), END);

  const fanout = new StateGraph(state({ list: state.list(), size: state.number() }), { id: "bench_fanout" });
  fanout.addNode("fan", fan);
  branchNames.forEach((name, i) => fanout.addNode(name, branch(i)));
  fanout.addNode("join", join);
  fanout.addEdge(START, "fan");
  for (const name of branchNames) fanout.addEdge("fan", name);
  fanout.addEdge(branchNames, "join");
  fanout.addEdge("join", END);

  const loop = new StateGraph(state({ count: state.number() }), { id: "bench_loop" });
  loop.addNode("tick", tick);
  loop.addEdge(START, "tick");
  loop.addConditionalEdges("tick", again);

  const compiled = { chain: chain.compile(), fanout: fanout.compile(), loop: loop.compile() };
  const options = { chain: { maxSteps: CHAIN + 10 }, fanout: { concurrency: WIDTH }, loop: { maxSteps: ROUNDS + 10 } };
  const made = {};
  for (const graph of GRAPHS) {
    const graphCompiled = compiled[graph];
    const canvasCompiled = api.compileCanvas(await api.readSource(graphCompiled.dsl), graphCompiled.registry());
    const inputs = graphCompiled.inputs(INPUTS[graph]);
    made[graph] = { graphCompiled, canvasCompiled, inputs, options: options[graph] };
  }

  let events = {};
  let last = {};
  /** One run of a graph: a new session of the compiled canvas, every event consumed, the state checked. */
  const runOnce = async (graph, count = false) => {
    const { graphCompiled, canvasCompiled, inputs, options: runOptions } = made[graph];
    const canvas = api.Canvas.fromCompiled(canvasCompiled, runOptions);
    let final;
    for await (const event of canvas.run({ inputs })) {
      final = event;
      if (count && event.event === "node_finished") events[graph] = (events[graph] ?? 0) + 1;
    }
    if (final?.event !== "workflow_finished" || final.data.error) throw new Error(`graph-builder ${graph} (canvasflow): the run did not finish cleanly: ${JSON.stringify(final?.data)}`);
    last[graph] = check("canvasflow", graph, graphCompiled.values(canvas.globals));
  };
  // The components each run executes (the user's nodes and the plumbing), counted once.
  for (const graph of GRAPHS) await runOnce(graph, true);
  for (const graph of GRAPHS) {
    if (events[graph] !== STEPS[graph] + PLUMBING[graph]) throw new Error(`graph-builder ${graph} (canvasflow): ${events[graph]} components ran, expected ${STEPS[graph]} nodes + ${PLUMBING[graph]} plumbing`);
  }

  // For scale: what loading the graph's DSL from scratch each run (loadCanvas) adds.
  const loadTimes = {};
  const measureLoad = async () => {
    for (const graph of GRAPHS) {
      const { graphCompiled } = made[graph];
      const registry = graphCompiled.registry();
      const times = [];
      for (let i = 0; i < 10; i++) {
        const started = cpuMs();
        await api.loadCanvas(graphCompiled.dsl, { registry, ...made[graph].options });
        times.push(cpuMs() - started);
      }
      loadTimes[graph] = times.sort((a, b) => a - b)[5];
    }
  };

  const runs = Object.fromEntries(GRAPHS.map((g) => [g, () => runOnce(g)]));
  return {
    run: async () => {
      for (const graph of GRAPHS) await runOnce(graph);
    },
    extra: async () => {
      const timed = await timeEach(runs);
      await measureLoad();
      return {
        ...timed,
        steps: STEPS,
        components_per_run: events,
        load_canvas_ms: loadTimes,
        final_state: Object.fromEntries(GRAPHS.map((g) => [g, canonical(last[g])])),
      };
    },
  };
}

// ---- LangGraph ----

export async function langgraphSide() {
  const lg = await langgraph();
  const { Annotation, StateGraph, START } = lg;
  if (lg.END !== END) throw new Error(`LangGraph's END is ${lg.END}`);

  const chain = new StateGraph(Annotation.Root({ n: Annotation() }));
  for (const name of chainNames) chain.addNode(name, increment);
  chain.addEdge(START, chainNames[0]);
  for (let i = 1; i < CHAIN; i++) chain.addEdge(chainNames[i - 1], chainNames[i]);
  chain.addEdge(chainNames.at(-1), END);

  const fanout = new StateGraph(Annotation.Root({ list: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }), size: Annotation() }));
  fanout.addNode("fan", fan);
  branchNames.forEach((name, i) => fanout.addNode(name, branch(i)));
  fanout.addNode("join", join);
  fanout.addEdge(START, "fan");
  for (const name of branchNames) fanout.addEdge("fan", name);
  fanout.addEdge(branchNames, "join");
  fanout.addEdge("join", END);

  const loop = new StateGraph(Annotation.Root({ count: Annotation() }));
  loop.addNode("tick", tick);
  loop.addEdge(START, "tick");
  loop.addConditionalEdges("tick", again);

  const apps = { chain: chain.compile(), fanout: fanout.compile(), loop: loop.compile() };
  const config = { chain: { recursionLimit: CHAIN + 10 }, fanout: {}, loop: { recursionLimit: ROUNDS + 10 } };
  const last = {};
  const runOnce = async (graph) => {
    last[graph] = check("langgraph", graph, await apps[graph].invoke(INPUTS[graph], config[graph]));
  };
  for (const graph of GRAPHS) await runOnce(graph);

  const runs = Object.fromEntries(GRAPHS.map((g) => [g, () => runOnce(g)]));
  return {
    run: async () => {
      for (const graph of GRAPHS) await runOnce(graph);
    },
    extra: async () => ({
      ...(await timeEach(runs)),
      steps: STEPS,
      final_state: Object.fromEntries(GRAPHS.map((g) => [g, canonical(last[g])])),
    }),
  };
}
