/**
 * The layered layout for large graphs (src/render/layered-layout.ts): every node placed once,
 * siblings never overlapping, children inside their container, forward edges going along the
 * flow, for any graph (fast-check: cycles, self-loops, nested and looping containers), and a
 * 30 000-node chain or nesting laid out without recursion.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DiagramEdge, DiagramNode, GraphModel } from "../../src/render/graph-model.js";
import { layeredLayout, type LayeredSizes } from "../../src/render/layered-layout.js";
import type { Box, Layout } from "../../src/render/layout.js";

const sizes: LayeredSizes = {
  leaf: (node) => ({ width: 100 + node.id.length, height: 48 }),
  containerMinimum: () => ({ width: 140, height: 92 }),
  label: (edge) => (edge.label ? { text: edge.label, width: 40, height: 19 } : undefined),
};

const leaf = (id: string, container?: string): DiagramNode => ({ id, name: id, type: "Message", family: "message", isContainer: false, params: {}, ...(container ? { container } : {}) });
const box = (id: string, container?: string): DiagramNode => ({ ...leaf(id, container), type: "Loop", family: "container", isContainer: true });

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (inner: Box, outer: Box) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

function checkLayout(model: GraphModel, layout: Layout): void {
  expect(layout.nodes.map((p) => p.node.id).sort()).toEqual(model.nodes.map((n) => n.id).sort());
  const placed = new Map(layout.nodes.map((p) => [p.node.id, p]));
  for (const p of layout.nodes) {
    for (const v of [p.x, p.y, p.width, p.height]) expect(Number.isFinite(v)).toBe(true);
    expect(inside(p, { x: 0, y: 0, width: layout.width, height: layout.height })).toBe(true);
  }
  // Siblings: the nodes drawn in the same container (or at the top) never overlap.
  const bySibling = new Map<string, typeof layout.nodes>();
  for (const p of layout.nodes) {
    // A node in a loop of containers is drawn where the loop was cut: its container is the one it sits in.
    const held = p.node.container !== undefined && p.node.container !== p.node.id && placed.has(p.node.container) && inside(p, placed.get(p.node.container)!);
    const container = held ? p.node.container! : "";
    bySibling.set(container, [...(bySibling.get(container) ?? []), p]);
  }
  for (const siblings of bySibling.values())
    for (let i = 0; i < siblings.length; i++) for (let j = i + 1; j < siblings.length; j++) expect(overlap(siblings[i], siblings[j])).toBe(false);
  expect(layout.edges.length).toBe(model.edges.length);
  for (const e of layout.edges) {
    expect(e.points).toHaveLength(4);
    const from = placed.get(e.edge.from)!;
    expect(e.points[0]).toEqual({ x: from.x + from.width, y: from.y + from.height / 2 });
    if (e.edge.label) expect(e.label?.text).toBe(e.edge.label);
  }
}

/** Graphs of up to 30 nodes: any edges (cycles, self-loops), some nodes containers, some nodes inside one, looping containers too. */
const graphs = fc
  .record({
    n: fc.integer({ min: 1, max: 30 }),
    edges: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.option(fc.constantFrom("yes", "no"), { nil: undefined })), { maxLength: 60 }),
    containers: fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
    within: fc.array(fc.option(fc.nat(), { nil: undefined }), { minLength: 30, maxLength: 30 }),
  })
  .map(({ n, edges, containers, within }): GraphModel => {
    const nodes = Array.from({ length: n }, (_, i) => {
      const holder = within[i] === undefined ? undefined : `n${within[i]! % n}`;
      return containers[i] ? box(`n${i}`, holder) : leaf(`n${i}`, holder);
    });
    return { nodes, edges: edges.map(([a, b, label]): DiagramEdge => ({ from: `n${a % n}`, to: `n${b % n}`, kind: "normal", ...(label ? { label } : {}) })) };
  });

describe("the layered layout", () => {
  it("places every node once, inside the drawing, siblings apart, each edge from its source's side (fast-check)", () => {
    fc.assert(
      fc.property(graphs, (model) => {
        checkLayout(model, layeredLayout(model, sizes));
      }),
      { numRuns: 300 },
    );
  });

  it("puts children inside their container when the containers form no loop", () => {
    const model: GraphModel = {
      nodes: [leaf("begin"), box("loop"), leaf("a", "loop"), box("inner", "loop"), leaf("b", "inner"), leaf("c", "inner"), leaf("end")],
      edges: [
        { from: "begin", to: "loop", kind: "normal" },
        { from: "a", to: "inner", kind: "normal" },
        { from: "b", to: "c", kind: "normal" },
        { from: "loop", to: "end", kind: "normal" },
      ],
    };
    const layout = layeredLayout(model, sizes);
    checkLayout(model, layout);
    const at = new Map(layout.nodes.map((p) => [p.node.id, p]));
    for (const [child, container] of [["a", "loop"], ["inner", "loop"], ["b", "inner"], ["c", "inner"]]) expect(inside(at.get(child)!, at.get(container)!)).toBe(true);
    // Along the flow, left to right, on every level.
    expect(at.get("loop")!.x).toBeGreaterThan(at.get("begin")!.x + at.get("begin")!.width);
    expect(at.get("end")!.x).toBeGreaterThan(at.get("loop")!.x + at.get("loop")!.width);
    expect(at.get("inner")!.x).toBeGreaterThan(at.get("a")!.x + at.get("a")!.width);
    expect(at.get("c")!.x).toBeGreaterThan(at.get("b")!.x + at.get("b")!.width);
    // Containers are drawn before what they hold.
    const order = layout.nodes.map((p) => p.node.id);
    expect(order.indexOf("loop")).toBeLessThan(order.indexOf("inner"));
    expect(order.indexOf("inner")).toBeLessThan(order.indexOf("b"));
  });

  it("goes down with direction DOWN", () => {
    const model: GraphModel = { nodes: [leaf("a"), leaf("b"), leaf("c")], edges: [{ from: "a", to: "b", kind: "normal" }, { from: "a", to: "c", kind: "normal" }] };
    const layout = layeredLayout(model, sizes, { direction: "DOWN" });
    const at = new Map(layout.nodes.map((p) => [p.node.id, p]));
    expect(at.get("b")!.y).toBeGreaterThan(at.get("a")!.y + 48);
    expect(at.get("b")!.y).toBe(at.get("c")!.y);
    expect(overlap(at.get("b")!, at.get("c")!)).toBe(false);
    const edge = layout.edges[0];
    expect(edge.points[0]).toEqual({ x: at.get("a")!.x + at.get("a")!.width / 2, y: at.get("a")!.y + 48 });
  });

  it("lays out a 30 000-node chain and 30 000 nested containers without recursion", () => {
    const count = 30_000;
    const chain: GraphModel = {
      nodes: Array.from({ length: count }, (_, i) => leaf(`n${i}`)),
      edges: Array.from({ length: count - 1 }, (_, i) => ({ from: `n${i}`, to: `n${i + 1}`, kind: "normal" as const })),
    };
    const laid = layeredLayout(chain, sizes);
    expect(laid.nodes).toHaveLength(count);
    const xs = new Map(laid.nodes.map((p) => [p.node.id, p.x]));
    for (let i = 1; i < count; i++) expect(xs.get(`n${i}`)!).toBeGreaterThan(xs.get(`n${i - 1}`)!);
    const nested: GraphModel = { nodes: Array.from({ length: count }, (_, i) => box(`n${i}`, i === 0 ? undefined : `n${i - 1}`)), edges: [] };
    const deep = layeredLayout(nested, sizes);
    expect(deep.nodes).toHaveLength(count);
    const at = new Map(deep.nodes.map((p) => [p.node.id, p]));
    expect(inside(at.get(`n${count - 1}`)!, at.get("n0")!)).toBe(true);
  });
});
