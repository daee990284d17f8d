/** Canvases and checks shared by the render tests. */
import { canvasDsl, node } from "./dsl.js";

/** Begin → Categorize (two categories) → messages; an Invoke whose errors go to a fallback. */
export function routedCanvas() {
  return canvasDsl({
    begin: node("Begin", { prologue: "" }, ["Categorize:Kind"]),
    "Categorize:Kind": node(
      "Categorize",
      {
        llm_id: "mock",
        query: "sys.query",
        category_description: {
          "Refund [urgent]": { description: "money back", to: ["Invoke:Api"] },
          'Say "hello"': { description: "a greeting", to: ["Message:Hi", "Message:Also"] },
          Other: { description: "anything else", to: ["Message:Hi"] },
        },
      },
      ["Invoke:Api", "Message:Hi", "Message:Also"],
    ),
    "Invoke:Api": node("Invoke", { url: "http://127.0.0.1:9/x", exception_method: "goto", exception_goto: ["Message:Failed"] }, ["Message:Done", "Message:Failed"]),
    "Message:Hi": node("Message", { content: ["hi"] }),
    "Message:Also": node("Message", { content: ["also"] }),
    "Message:Done": node("Message", { content: ["done"] }),
    "Message:Failed": node("Message", { content: ["failed"] }),
  });
}


import type { Layout } from "../../src/render/index.js";

/**
 * Overlaps in a layout: two boxes that intersect although neither contains the other (siblings,
 * or a node and a container it is not in), and children not inside their container. Empty when
 * the layout is clean.
 */
export function layoutProblems(layout: Layout): string[] {
  const problems: string[] = [];
  const box = new Map(layout.nodes.map((p) => [p.node.id, p]));
  const ancestorsOf = (id: string): Set<string> => {
    const out = new Set<string>();
    for (let c = box.get(id)?.node.container; c !== undefined && !out.has(c); c = box.get(c)?.node.container) out.add(c);
    return out;
  };
  const eps = 0.5;
  for (const p of layout.nodes) {
    if (p.width <= 0 || p.height <= 0) problems.push(`${p.node.id} has an empty box`);
    const parent = p.node.container !== undefined ? box.get(p.node.container) : undefined;
    if (parent && !(p.x >= parent.x - eps && p.y >= parent.y - eps && p.x + p.width <= parent.x + parent.width + eps && p.y + p.height <= parent.y + parent.height + eps)) {
      problems.push(`${p.node.id} is not inside its container ${parent.node.id}`);
    }
  }
  for (let i = 0; i < layout.nodes.length; i++) {
    for (let j = i + 1; j < layout.nodes.length; j++) {
      const a = layout.nodes[i];
      const b = layout.nodes[j];
      if (ancestorsOf(a.node.id).has(b.node.id) || ancestorsOf(b.node.id).has(a.node.id)) continue;
      const apart = a.x + a.width <= b.x + eps || b.x + b.width <= a.x + eps || a.y + a.height <= b.y + eps || b.y + b.height <= a.y + eps;
      if (!apart) problems.push(`${a.node.id} overlaps ${b.node.id}`);
    }
  }
  return problems;
}
