/**
 * Diagrams of canvases and traces of runs: the library's `render` room.
 */
import type { Canvas } from "../engine/canvas.js";
import { graphModelOf } from "./canvas-model.js";
import type { GraphModel } from "./graph-model.js";
import { layoutGraph, type LayoutOptions } from "./layout.js";
import { renderSvg } from "./svg.js";

export { graphModelOf } from "./canvas-model.js";
export { difyGraphModel } from "./dify-model.js";
export { checkGraphModel, type EdgeKind, type DiagramEdge, type GraphModel, type DiagramNode, type NodeFamily } from "./graph-model.js";
export { escapeMermaidLabel, toMermaid } from "./mermaid.js";
export { layoutGraph, type Layout, type LayoutOptions, type PlacedEdge, type PlacedNode } from "./layout.js";
export { renderGraphHtml } from "./graph-html.js";

/** The graph model of a loaded canvas. */
export function canvasGraphModel(canvas: Canvas): GraphModel {
  return graphModelOf(canvas.compiledGraph);
}

/** A standalone SVG of a graph model, laid out by elkjs. */
export async function renderGraphSvg(model: GraphModel, options: LayoutOptions = {}): Promise<string> {
  return renderSvg(await layoutGraph(model, options));
}
export { renderTrace, type TraceOptions } from "./trace-html.js";
export { traceModel, type TraceModel, type TraceStep } from "./trace-model.js";
