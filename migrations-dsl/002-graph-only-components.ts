/**
 * Graph-only DSLs (RAGFlow's Go fixtures, editor exports) have `graph.nodes`/`graph.edges` but no
 * `components`, which is what runs. Derive them as RAGFlow's editor does on every save
 * (src/migrate/graph-components.ts), and add the top-level keys RAGFlow's runtime requires.
 */
import { componentsOf, graphOf } from "../src/migrate/dsl-access.js";
import { componentsFromGraph } from "../src/migrate/graph-components.js";
import type { LooseDsl, MigrationNote, MigrationStep } from "../src/migrate/types.js";
import { isPlainObject } from "../src/util/values.js";

const ID = "002-graph-only-components";

/** Keys RAGFlow's Graph.load/Canvas.load read unconditionally, with the values a new canvas has. */
const REQUIRED_KEYS: ReadonlyArray<[key: string, value: () => unknown]> = [
  ["path", () => []],
  ["history", () => []],
  ["retrieval", () => []],
  ["memory", () => []],
  ["globals", () => ({})],
];

function detect(dsl: LooseDsl): boolean {
  return (dsl.components === undefined || dsl.components === null) && graphOf(dsl).nodes.length > 0;
}

function migrate(dsl: LooseDsl) {
  const { nodes, edges } = graphOf(dsl);
  const notes: MigrationNote[] = [];
  const components: Record<string, unknown> = {};
  for (const [id, derived] of componentsFromGraph(nodes, edges)) {
    components[id] = derived.entry;
    notes.push({
      step: ID,
      component: id,
      componentType: derived.label,
      change: `derived the component from graph node ${id}${derived.name ? ` "${derived.name}"` : ""}${derived.details.length > 0 ? `: ${derived.details.join("; ")}` : ""}`,
      reason: "the DSL has only an editor graph; RAGFlow's editor derives components from it on save (buildDslComponentsByGraph)",
    });
  }
  dsl.components = components;
  const added: string[] = [];
  for (const [key, value] of REQUIRED_KEYS) {
    if (!(key in dsl) || (key === "globals" && !isPlainObject(dsl.globals))) {
      dsl[key] = value();
      added.push(key);
    }
  }
  if (added.length > 0) {
    notes.push({ step: ID, change: `added the missing top-level keys ${added.join(", ")} (empty)`, reason: "RAGFlow's runtime reads them when it loads a canvas" });
  }
  if (componentsOf(dsl) && Object.keys(components).length === 0) {
    notes.push({ step: ID, change: "the graph has no node that is a component (only notes, tools or placeholders)", reason: "nothing could be derived" });
  }
  return { dsl, notes };
}

export const graphOnlyComponents: MigrationStep = {
  id: ID,
  description: "Derive components from graph.nodes and graph.edges when a DSL has only the editor graph",
  detect,
  migrate,
};
