/**
 * The edge-state planner (engine/edges/plan.ts) on its own, and the blocking-edge sets of
 * response nodes (topology.ts): random acyclic graphs with random branch choices keep the rules
 * of research/dify-import.md §1.1.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ComponentRegistry } from "../../src/components/registry.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { buildGraph, type NodeSpec } from "../../src/engine/graph.js";
import { EDGE_SKIPPED, EDGE_TAKEN, NODE_DONE, NODE_READY, NODE_SKIPPED, planCompletion, type EdgeCounts, type EdgeMark, type NodeMark } from "../../src/engine/edges/plan.js";
import { compileTopology, type EdgeSpec, type EdgeTopology } from "../../src/engine/edges/topology.js";
import { FRONTIER_POLICY } from "../../src/engine/frontier.js";

const PLAIN: ComponentDefinition = { name: "Plain", invoke() {} };
const BRANCH: ComponentDefinition = { name: "Branch", capabilities: { branches: true }, invoke() {} };
const RESPONSE: ComponentDefinition = {
  name: "Response",
  capabilities: { response: "concatenate" },
  responseTemplate: () => ({ parts: ["x"], render: String }),
  invoke() {},
};

function topologyOf(kinds: readonly ("plain" | "branch" | "response")[], edges: readonly EdgeSpec[]): EdgeTopology {
  const registry = new ComponentRegistry();
  const specs: NodeSpec[] = kinds.map((kind, i) => {
    const def = kind === "branch" ? BRANCH : kind === "response" ? RESPONSE : PLAIN;
    return { id: `n${i}`, componentName: def.name, displayName: `n${i}`, def, params: {}, parentId: undefined, downstream: [], startChildId: undefined };
  });
  const graph = buildGraph(specs, "n0", registry, () => FRONTIER_POLICY);
  return compileTopology(graph.nodes, edges, "n0");
}

/** Run the planner to the end: complete ready nodes one at a time, branches choosing `choose(node)`. */
function simulate(topology: EdgeTopology, nodes: number, choose: (id: string) => string) {
  const edges = new Map<number, EdgeMark>();
  const marks = new Map<string, NodeMark>([["n0", NODE_READY]]);
  const ready = ["n0"];
  const runs = new Map<string, number>();
  const counts = new Map<string, EdgeCounts>();
  const view = { edge: (i: number) => edges.get(i), node: (id: string) => marks.get(id), counts: (id: string) => counts.get(id) };
  while (ready.length > 0) {
    const id = ready.shift()!;
    runs.set(id, (runs.get(id) ?? 0) + 1);
    marks.set(id, NODE_DONE);
    const transition = planCompletion(topology, view, id, choose(id));
    for (const [edge, mark] of transition.edges) {
      expect(edges.has(edge), `edge ${edge} resolved twice`).toBe(false);
      edges.set(edge, mark);
    }
    for (const [id, c] of transition.counts ?? []) counts.set(id, c);
    for (const skipped of transition.skipped) marks.set(skipped, NODE_SKIPPED);
    for (const next of transition.ready) {
      marks.set(next, NODE_READY);
      ready.push(next);
    }
  }
  expect(nodes).toBeGreaterThan(0);
  return { edges, marks, runs };
}

/** A random DAG: edges only from lower to higher index, each with a handle "a" or "b". */
const dag = fc.integer({ min: 2, max: 12 }).chain((n) =>
  fc.record({
    kinds: fc.array(fc.constantFrom("plain" as const, "branch" as const), { minLength: n, maxLength: n }),
    edges: fc.uniqueArray(
      fc.tuple(fc.integer({ min: 0, max: n - 2 }), fc.integer({ min: 1, max: n - 1 }), fc.constantFrom("a", "b")).filter(([s, t]) => s < t),
      { maxLength: 3 * n, selector: ([s, t, h]) => `${s}-${t}-${h}` },
    ),
    choices: fc.array(fc.constantFrom("a", "b"), { minLength: n, maxLength: n }),
  }),
);

describe("the edge planner", () => {
  it("property: every node runs at most once, exactly when one incoming edge was taken and none is unknown", () => {
    fc.assert(
      fc.property(dag, ({ kinds, edges, choices }) => {
        const specs: EdgeSpec[] = edges.map(([s, t, h], i) => ({ id: `e${i}`, source: `n${s}`, target: `n${t}`, handle: kinds[s] === "branch" ? h : "source" }));
        const topology = topologyOf(kinds, specs);
        const { edges: marks, marks: nodes, runs } = simulate(topology, kinds.length, (id) => choices[Number(id.slice(1))]);
        for (const [id, count] of runs) expect(count, id).toBe(1);
        for (let i = 1; i < kinds.length; i++) {
          const id = `n${i}`;
          const incoming = (topology.incoming.get(id) ?? []).map((e) => marks.get(e));
          if (incoming.length === 0 || incoming.some((m) => m === undefined)) {
            // Not reachable from the root (or behind a node that never ran): never runs.
            expect(runs.has(id), id).toBe(false);
            continue;
          }
          const taken = incoming.includes(EDGE_TAKEN);
          expect(runs.has(id), id).toBe(taken);
          expect(nodes.get(id) === NODE_SKIPPED, id).toBe(!taken);
        }
        // A node that ran resolved all its outgoing edges: taken for a plain node, by handle for a branch.
        for (const [id] of runs) {
          for (const e of topology.outgoing.get(id) ?? []) {
            const edge = topology.edges[e];
            const expected = kinds[Number(id.slice(1))] === "branch" && edge.handle !== choices[Number(id.slice(1))] ? EDGE_SKIPPED : EDGE_TAKEN;
            expect(marks.get(e)).toBe(expected);
          }
        }
      }),
      { seed: 12_2026, numRuns: 300 },
    );
  });

  it("a long skipped chain is skipped without deep recursion", () => {
    const n = 20_000;
    const kinds = ["branch" as const, ...Array.from({ length: n }, () => "plain" as const)];
    const edges: EdgeSpec[] = [{ id: "e0", source: "n0", target: "n1", handle: "yes" }];
    for (let i = 1; i < n; i++) edges.push({ id: `e${i}`, source: `n${i}`, target: `n${i + 1}`, handle: "source" });
    const topology = topologyOf(kinds, edges);
    const transition = planCompletion(topology, { edge: () => undefined, node: () => undefined, counts: () => undefined }, "n0", "no");
    expect(transition.skipped).toHaveLength(n);
    expect(transition.ready).toEqual([]);
  });
});

describe("response paths", () => {
  it("a response node behind no branch streams from the start; behind a branch, once the branch's edge is taken", () => {
    // n0 → n1 (response); n0 → n2 (branch) -a-> n3 (response); n1 → n3
    const topology = topologyOf(
      ["plain", "response", "branch", "response"],
      [
        { id: "e0", source: "n0", target: "n1", handle: "source" },
        { id: "e1", source: "n0", target: "n2", handle: "source" },
        { id: "e2", source: "n2", target: "n3", handle: "a" },
        { id: "e3", source: "n1", target: "n3", handle: "source" },
      ],
    );
    expect(topology.responses.get("n1")?.paths).toEqual([[]]);
    // Through the branch (e2), or after the response n1 (e3): either set alone activates it.
    expect(topology.responses.get("n3")?.paths).toEqual([[2], [3]]);
  });

  it("stays polynomial on a ladder of diamonds (2^30 paths)", () => {
    const kinds: Array<"plain" | "branch" | "response"> = [];
    const edges: EdgeSpec[] = [];
    kinds.push("plain");
    let last = 0;
    for (let i = 0; i < 30; i++) {
      const a = kinds.push("branch") - 1;
      const b = kinds.push("plain") - 1;
      const join = kinds.push("plain") - 1;
      edges.push({ id: `x${i}`, source: `n${last}`, target: `n${a}`, handle: "source" });
      edges.push({ id: `y${i}`, source: `n${last}`, target: `n${b}`, handle: "source" });
      edges.push({ id: `p${i}`, source: `n${a}`, target: `n${join}`, handle: "yes" });
      edges.push({ id: `q${i}`, source: `n${b}`, target: `n${join}`, handle: "source" });
      last = join;
    }
    const response = kinds.push("response") - 1;
    edges.push({ id: "r", source: `n${last}`, target: `n${response}`, handle: "source" });
    // Enumerating the 2^30 paths would not end within the test's timeout; the minimal sets do.
    const topology = topologyOf(kinds, edges);
    expect(topology.responses.get(`n${response}`)?.paths).toEqual([[]]);
  });
});
