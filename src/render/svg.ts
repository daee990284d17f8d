/**
 * An SVG drawing of a laid-out graph, as text (no browser, no DOM). Families are told apart by
 * fill, border and glyph; each node is a `<g class="node" data-id>` the HTML views attach clicks to.
 * A trace passes node and edge states to highlight the path a run took.
 */
import { DETAIL_FONT, LABEL_FONT, NAME_FONT, nodeLines, type Layout, type PlacedEdge, type PlacedNode } from "./layout.js";
import type { DiagramNode } from "./graph-model.js";
import { FAMILY_STYLES, UNSUPPORTED_MARK, UNSUPPORTED_STROKE } from "./palette.js";
import { escapeXml } from "./xml.js";

/** How a run treated a node: ran, failed, paused on it, or never reached it. */
export type NodeRunState = "ran" | "error" | "paused" | "untaken";

interface SvgOptions {
  /** Per node id; nodes not listed are drawn plainly (a diagram), or as untaken when `states` is given. */
  readonly states?: ReadonlyMap<string, NodeRunState>;
  /** Edges the run went along, as `from\u0000to`. */
  readonly takenEdges?: ReadonlySet<string>;
}

const SVG_STYLE = `
.cf-graph text { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; fill: #0f172a; }
.cf-graph .name { font-size: ${NAME_FONT}px; font-weight: 600; }
.cf-graph .detail { font-size: ${DETAIL_FONT}px; fill: #475569; }
.cf-graph .glyph { font-size: 16px; }
.cf-graph .edge { fill: none; stroke: #64748b; stroke-width: 1.5; }
.cf-graph .edge.exception { stroke: #dc2626; stroke-dasharray: 6 4; }
.cf-graph .edge.branch, .cf-graph .edge.handle { stroke: #b45309; }
.cf-graph .node.unsupported rect.box { stroke: ${UNSUPPORTED_STROKE}; stroke-dasharray: 5 4; stroke-width: 2; }
.cf-graph .edge-label rect { fill: #ffffff; stroke: #cbd5e1; }
.cf-graph .edge-label text { font-size: ${LABEL_FONT}px; fill: #334155; }
.cf-graph .node { cursor: pointer; }
.cf-graph .node.selected rect.box { stroke-width: 3.5; }
.cf-graph .untaken { opacity: 0.28; }
.cf-graph .edge.taken { stroke: #2563eb; stroke-width: 3; }
.cf-graph .node.ran rect.box { stroke: #2563eb; stroke-width: 3; }
.cf-graph .node.error rect.box { stroke: #dc2626; stroke-width: 3.5; }
.cf-graph .node.paused rect.box { stroke: #db2777; stroke-width: 3.5; stroke-dasharray: 5 3; }
`;

const round = (n: number) => Math.round(n * 10) / 10;
const edgeKey = (from: string, to: string) => `${from}\u0000${to}`;

function markers(): string {
  const arrow = (id: string, colour: string) =>
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="${colour}"/></marker>`;
  return `<defs>${arrow("cf-arrow", "#64748b")}${arrow("cf-arrow-exception", "#dc2626")}${arrow("cf-arrow-branch", "#b45309")}${arrow("cf-arrow-taken", "#2563eb")}</defs>`;
}

function stateClass(id: string, options: SvgOptions): string {
  if (!options.states) return "";
  return ` ${options.states.get(id) ?? "untaken"}`;
}

/** The tooltip: name, id and type, and why canvasflow cannot run the node when it cannot. */
function titleText(node: DiagramNode): string {
  const lines = [node.name, `${node.id} · ${node.type}`];
  if (node.unsupported !== undefined) lines.push(`${UNSUPPORTED_MARK}: ${node.unsupported}`);
  return lines.join("\n");
}

function drawContainer(placed: PlacedNode, options: SvgOptions): string {
  const { node } = placed;
  const style = FAMILY_STYLES[node.family];
  const { name, detail } = nodeLines(node);
  return [
    `<g class="node container f-${node.family}${stateClass(node.id, options)}" data-id="${escapeXml(node.id)}">`,
    `<title>${escapeXml(titleText(node))}</title>`,
    `<rect class="box" x="${round(placed.x)}" y="${round(placed.y)}" width="${round(placed.width)}" height="${round(placed.height)}" rx="12" fill="${style.fill}" fill-opacity="0.55" stroke="${style.stroke}" stroke-width="1.5"/>`,
    `<text class="glyph" x="${round(placed.x + 12)}" y="${round(placed.y + 24)}">${escapeXml(style.glyph)}</text>`,
    `<text class="name" x="${round(placed.x + 34)}" y="${round(placed.y + 20)}">${escapeXml(name)}</text>`,
    `<text class="detail" x="${round(placed.x + 34)}" y="${round(placed.y + 35)}">${escapeXml(detail)}</text>`,
    `</g>`,
  ].join("");
}

function drawNode(placed: PlacedNode, options: SvgOptions): string {
  const { node } = placed;
  const style = FAMILY_STYLES[node.family];
  const { name, detail } = nodeLines(node);
  const x = round(placed.x);
  const y = round(placed.y);
  return [
    `<g class="node f-${node.family}${node.unsupported !== undefined ? " unsupported" : ""}${stateClass(node.id, options)}" data-id="${escapeXml(node.id)}">`,
    `<title>${escapeXml(titleText(node))}</title>`,
    `<rect class="box" x="${x}" y="${y}" width="${round(placed.width)}" height="${round(placed.height)}" rx="8" fill="${style.fill}" stroke="${style.stroke}" stroke-width="1.5"/>`,
    `<rect x="${x}" y="${y}" width="6" height="${round(placed.height)}" rx="3" fill="${style.stroke}"/>`,
    `<text class="glyph" x="${round(placed.x + 14)}" y="${round(placed.y + 30)}" fill="${style.stroke}">${escapeXml(style.glyph)}</text>`,
    `<text class="name" x="${round(placed.x + 36)}" y="${round(placed.y + 20)}">${escapeXml(name)}</text>`,
    `<text class="detail" x="${round(placed.x + 36)}" y="${round(placed.y + 37)}">${escapeXml(detail)}</text>`,
    `</g>`,
  ].join("");
}

function drawEdge(placed: PlacedEdge, options: SvgOptions): string {
  if (placed.points.length < 2) return "";
  const { edge } = placed;
  const d = placed.points.map((p, i) => `${i === 0 ? "M" : "L"}${round(p.x)},${round(p.y)}`).join("");
  let cls = `edge ${edge.kind}`;
  let marker = edge.kind === "exception" ? "cf-arrow-exception" : edge.kind === "branch" || edge.kind === "handle" ? "cf-arrow-branch" : "cf-arrow";
  if (options.states) {
    const taken = options.takenEdges?.has(edgeKey(edge.from, edge.to)) ?? false;
    cls += taken ? " taken" : " untaken";
    if (taken) marker = "cf-arrow-taken";
  }
  const parts = [`<g class="edge-group" data-from="${escapeXml(edge.from)}" data-to="${escapeXml(edge.to)}">`, `<path class="${cls}" d="${d}" marker-end="url(#${marker})"/>`];
  const label = placed.label;
  if (label) {
    const fade = options.states && !options.takenEdges?.has(edgeKey(edge.from, edge.to)) ? ` class="edge-label untaken"` : ` class="edge-label"`;
    parts.push(
      `<g${fade}><title>${escapeXml(edge.label ?? label.text)}</title><rect x="${round(label.x)}" y="${round(label.y)}" width="${round(label.width)}" height="${round(label.height)}" rx="4"/>`,
      `<text x="${round(label.x + 5)}" y="${round(label.y + label.height - 5)}">${escapeXml(label.text)}</text></g>`,
    );
  }
  parts.push("</g>");
  return parts.join("");
}

/** The SVG document (standalone: it carries its own style and arrow markers). */
export function renderSvg(layout: Layout, options: SvgOptions = {}): string {
  const width = Math.ceil(layout.width);
  const height = Math.ceil(layout.height);
  const parents = new Set(layout.nodes.map((p) => p.node.container).filter((c) => c !== undefined));
  const containers = layout.nodes.filter((p) => p.node.isContainer || parents.has(p.node.id));
  const leaves = layout.nodes.filter((p) => !containers.includes(p));
  // Outer containers first, so inner ones are drawn over them.
  const containerOf = new Map(layout.nodes.map((p) => [p.node.id, p.node.container]));
  const depth = (p: PlacedNode) => {
    let d = 0;
    for (let c = p.node.container; c !== undefined && d < 64; d++) c = containerOf.get(c);
    return d;
  };
  containers.sort((a, b) => depth(a) - depth(b));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="cf-graph" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<style>${SVG_STYLE}</style>`,
    markers(),
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...containers.map((p) => drawContainer(p, options)),
    ...layout.edges.map((e) => drawEdge(e, options)),
    ...leaves.map((p) => drawNode(p, options)),
    `</svg>`,
  ].join("\n");
}

export { edgeKey };
