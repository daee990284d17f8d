/** Colours and glyphs of the node families, shared by the mermaid, SVG and HTML views. */
import type { NodeFamily } from "./graph-model.js";

interface FamilyStyle {
  readonly fill: string;
  readonly stroke: string;
  /** One character drawn before the name (plain Unicode: no icon font needed offline). */
  readonly glyph: string;
  readonly label: string;
}

export const FAMILY_STYLES: Readonly<Record<NodeFamily, FamilyStyle>> = {
  entry: { fill: "#dcfce7", stroke: "#15803d", glyph: "▶", label: "entry" },
  router: { fill: "#fef3c7", stroke: "#b45309", glyph: "◆", label: "router" },
  container: { fill: "#f1f5f9", stroke: "#475569", glyph: "↻", label: "container" },
  "container-start": { fill: "#e2e8f0", stroke: "#475569", glyph: "●", label: "container start" },
  llm: { fill: "#ede9fe", stroke: "#6d28d9", glyph: "✦", label: "model" },
  retrieval: { fill: "#cffafe", stroke: "#0e7490", glyph: "⌕", label: "retrieval" },
  tool: { fill: "#e0f2fe", stroke: "#0369a1", glyph: "⚙", label: "tool" },
  input: { fill: "#fce7f3", stroke: "#be185d", glyph: "✎", label: "user input" },
  message: { fill: "#d1fae5", stroke: "#047857", glyph: "✉", label: "message" },
  data: { fill: "#fff7ed", stroke: "#c2410c", glyph: "≡", label: "data" },
  code: { fill: "#f5f5f4", stroke: "#44403c", glyph: "λ", label: "code" },
  exit: { fill: "#fee2e2", stroke: "#b91c1c", glyph: "⏏", label: "exit" },
  other: { fill: "#f8fafc", stroke: "#64748b", glyph: "□", label: "other" },
};

/** How a node canvasflow cannot run is marked: a dashed red border and this line under its name. */
export const UNSUPPORTED_STROKE = "#dc2626";
export const UNSUPPORTED_MARK = "⚠ not supported by canvasflow";
