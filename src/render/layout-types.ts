/**
 * A laid-out diagram: boxes and points in pixels, as both layouts (ELK's in layout.ts, the
 * iterative layered one in layered-layout.ts) produce it and the renderers draw it.
 */
import type { DiagramEdge, DiagramNode } from "./graph-model.js";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface PlacedNode extends Box {
  readonly node: DiagramNode;
}

export interface PlacedEdge {
  readonly edge: DiagramEdge;
  readonly points: Point[];
  /** Where the label's box sits, when the edge has a label. */
  readonly label?: Box & { text: string };
}

export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly nodes: PlacedNode[];
  readonly edges: PlacedEdge[];
}

export interface LayoutOptions {
  /** Where the flow goes: RIGHT (default; wide pages, files) or DOWN (a tall pane, as the playground's). */
  readonly direction?: "RIGHT" | "DOWN";
}
