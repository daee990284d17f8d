/**
 * dify-graph: the edge-state policy (Dify graphs) against the frontier policy (RAGFlow canvases)
 * on the same shapes, in the same process: a 1000-node chain, and a 100-way fan-out joined by
 * one node. The Dify side is Dify YAML (parsed and loaded like any .yml); both sides run the same
 * trivial step (write one output), so the difference is the scheduling: edge states, readiness
 * and skip bookkeeping against extending a frontier. Target: the edge policy at most 1.5× the
 * frontier policy per step.
 *
 * The timed runs are the Dify ones (chain, then fan-out); `extra` alternates the four runs and
 * reports the per-step ratios from their medians.
 */
import { stringify } from "yaml";
import { cpuMs } from "../clock.mjs";
import { canvasflow, chainDsl, COLLECT, node, runToEnd, STEP } from "../lib.mjs";

const CHAIN = 1000;
const WIDTH = 100;
export const plan = { warmup: 10, samples: 15 };

/** A Dify app export of these nodes and edges. */
function difyYaml(nodes, edges) {
  return stringify({
    app: { mode: "workflow", name: "bench" },
    kind: "app",
    version: "0.3.1",
    workflow: {
      conversation_variables: [],
      environment_variables: [],
      graph: {
        nodes: nodes.map(({ id, type, ...data }) => ({ id, type: "custom", data: { type, title: id, ...data } })),
        edges: edges.map(([source, target]) => ({ id: `${source}-source-${target}-target`, source, target, sourceHandle: "source", targetHandle: "target" })),
      },
    },
  });
}

/** start → n0 → … → n999 (variable aggregators, which run BenchStep here). */
function chainYaml(n) {
  const nodes = [{ id: "start", type: "start", variables: [] }];
  const edges = [];
  for (let i = 0; i < n; i++) {
    nodes.push({ id: `n${i}`, type: "variable-aggregator", variables: [], output_type: "string" });
    edges.push([i === 0 ? "start" : `n${i - 1}`, `n${i}`]);
  }
  return difyYaml(nodes, edges);
}

/** start → s → p0…p99 → join (the join collects all 100 outputs). */
function fanoutYaml(width) {
  const ids = Array.from({ length: width }, (_, i) => `p${i}`);
  const nodes = [{ id: "start", type: "start", variables: [] }, { id: "s", type: "variable-aggregator", variables: [] }];
  const edges = [["start", "s"]];
  for (const id of ids) {
    nodes.push({ id, type: "variable-aggregator", variables: [] });
    edges.push(["s", id], [id, "join"]);
  }
  nodes.push({ id: "join", type: "template-transform", template: "", variables: [], sources: ids, expected: width });
  return difyYaml(nodes, edges);
}

/** The RAGFlow fan-out of the fanout workload: begin → S:start → P:0…P:99 → C:join. */
function fanoutDsl(width) {
  const ids = Array.from({ length: width }, (_, i) => `P:${i}`);
  const components = { begin: node("Begin", {}, ["S:start"]), "S:start": node("BenchStep", {}, ids) };
  for (const id of ids) components[id] = node("BenchStep", {}, ["C:join"]);
  components["C:join"] = node("BenchCollect", { sources: ids, expected: width });
  return { components, globals: {} };
}

export async function canvasflowSide() {
  const api = await canvasflow();
  // The same step work on both sides: the Dify nodes' components are the bench's own.
  const registry = api.registerDify(api.builtinRegistry());
  registry.register({ ...STEP, name: "DifyVariableAggregator" }, { replace: true });
  registry.register({ ...COLLECT, name: "DifyTemplateTransform" }, { replace: true });
  registry.register(STEP, { replace: true });
  registry.register(COLLECT, { replace: true });

  const options = { registry, maxSteps: CHAIN + 10, concurrency: WIDTH };
  const dify = {
    chain: await api.loadCanvas(api.parseDifyYaml(chainYaml(CHAIN)), options),
    fanout: await api.loadCanvas(api.parseDifyYaml(fanoutYaml(WIDTH)), options),
  };
  const ragflow = {
    chain: await api.loadCanvas(chainDsl(CHAIN), options),
    fanout: await api.loadCanvas(fanoutDsl(WIDTH), options),
  };
  const steps = { chain: CHAIN + 1, fanout: WIDTH + 3 };
  return {
    run: async () => {
      await runToEnd(dify.chain);
      await runToEnd(dify.fanout);
    },
    extra: async () => {
      const times = { dify_chain: [], ragflow_chain: [], dify_fanout: [], ragflow_fanout: [] };
      for (let i = 0; i < 15; i++) {
        for (const [key, canvas] of [
          ["dify_chain", dify.chain],
          ["ragflow_chain", ragflow.chain],
          ["dify_fanout", dify.fanout],
          ["ragflow_fanout", ragflow.fanout],
        ]) {
          const started = cpuMs();
          await runToEnd(canvas);
          times[key].push(cpuMs() - started);
        }
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const ms = Object.fromEntries(Object.entries(times).map(([key, xs]) => [key, median(xs)]));
      return {
        ...Object.fromEntries(Object.entries(ms).map(([key, value]) => [`${key}_ms`, value])),
        chain_us_per_step: { dify: (1000 * ms.dify_chain) / steps.chain, ragflow: (1000 * ms.ragflow_chain) / steps.chain },
        fanout_us_per_step: { dify: (1000 * ms.dify_fanout) / steps.fanout, ragflow: (1000 * ms.ragflow_fanout) / steps.fanout },
        chain_ratio: ms.dify_chain / ms.ragflow_chain,
        fanout_ratio: ms.dify_fanout / ms.ragflow_fanout,
      };
    },
  };
}
