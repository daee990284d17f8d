/**
 * A mermaid flowchart of a graph model, for GitHub and editors: containers are subgraphs, router
 * branches carry their labels, exception edges are dashed, and ids and names never reach mermaid's
 * grammar raw (nodes get generated ids; every label is quoted and escaped).
 */
import { nodesByContainer, type DiagramEdge, type GraphModel, type DiagramNode, type NodeFamily } from "./graph-model.js";
import { FAMILY_STYLES, UNSUPPORTED_MARK, UNSUPPORTED_STROKE } from "./palette.js";

/** Longest label text kept (mermaid lays out every character; the full text is in the DSL). */
const MAX_LABEL = 80;

/**
 * Text made safe inside a quoted mermaid label: ASCII letters, digits and plain punctuation stay,
 * as do printable non-ASCII characters (names in any script, glyphs); the rest becomes mermaid's
 * `#code;` entity, so quotes, `#`, brackets, pipes, backticks and markup are shown, never parsed.
 */
export function escapeMermaidLabel(text: string): string {
  const clipped = [...text.replace(/\s+/g, " ").trim()];
  const kept = clipped.length > MAX_LABEL ? [...clipped.slice(0, MAX_LABEL - 1), "…"] : clipped;
  let out = "";
  for (const ch of kept) out += /^(?:[A-Za-z0-9 _.,:@/+=?!'*$~^-]|[^\p{C}\x00-\x7f])$/u.test(ch) ? ch : `#${ch.codePointAt(0)};`;
  return out;
}

function nodeLabel(node: DiagramNode): string {
  const glyph = FAMILY_STYLES[node.family].glyph;
  const name = escapeMermaidLabel(node.name);
  const detail = node.name === node.id ? node.type : `${node.id} · ${node.type}`;
  const mark = node.unsupported !== undefined ? `<br/><small>${escapeMermaidLabel(UNSUPPORTED_MARK)}</small>` : "";
  return `${escapeMermaidLabel(glyph)} ${name}<br/><small>${escapeMermaidLabel(detail)}</small>${mark}`;
}

function edgeLine(edge: DiagramEdge, ids: ReadonlyMap<string, string>): string {
  const from = ids.get(edge.from)!;
  const to = ids.get(edge.to)!;
  const arrow = edge.kind === "exception" ? "-.->" : "-->";
  return edge.label ? `  ${from} ${arrow}|"${escapeMermaidLabel(edge.label)}"| ${to}` : `  ${from} ${arrow} ${to}`;
}

export function toMermaid(model: GraphModel, options: { direction?: "LR" | "TD" } = {}): string {
  const ids = new Map<string, string>();
  model.nodes.forEach((node, i) => ids.set(node.id, `n${i}`));
  const children = nodesByContainer(model);
  const lines = [`flowchart ${options.direction ?? "LR"}`];

  const emit = (node: DiagramNode, indent: string): void => {
    const inner = children.get(node.id);
    if (node.isContainer || inner) {
      lines.push(`${indent}subgraph ${ids.get(node.id)}["${nodeLabel(node)}"]`);
      lines.push(`${indent}  direction LR`);
      for (const child of inner ?? []) emit(child, `${indent}  `);
      lines.push(`${indent}end`);
    } else {
      lines.push(`${indent}${ids.get(node.id)}["${nodeLabel(node)}"]`);
    }
  };
  for (const node of children.get("") ?? []) emit(node, "  ");
  for (const edge of model.edges) if (ids.has(edge.from) && ids.has(edge.to)) lines.push(edgeLine(edge, ids));

  const byFamily = new Map<NodeFamily, string[]>();
  for (const node of model.nodes) {
    const list = byFamily.get(node.family) ?? [];
    list.push(ids.get(node.id)!);
    byFamily.set(node.family, list);
  }
  for (const [family, members] of byFamily) {
    const style = FAMILY_STYLES[family];
    const cls = `f_${family.replace(/-/g, "_")}`;
    lines.push(`  classDef ${cls} fill:${style.fill},stroke:${style.stroke},color:#0f172a`);
    lines.push(`  class ${members.join(",")} ${cls}`);
  }
  // After the classes, so the dashed red border wins over the family's.
  for (const node of model.nodes) {
    if (node.unsupported !== undefined) lines.push(`  style ${ids.get(node.id)} stroke:${UNSUPPORTED_STROKE},stroke-width:2px,stroke-dasharray: 5 4`);
  }
  return `${lines.join("\n")}\n`;
}
