/**
 * What kind of DSL a file holds: an agent canvas, an ingestion pipeline (both run), or a kind
 * that needs migrating first or is not a canvas (a precise message).
 */
import { describeJson, isPlainObject } from "../util/values.js";
import type { DslKind, DslSource } from "../contracts/dsl.js";

export type { DslKind };

/** Components of RAGFlow's ingestion-pipeline runtime (rag/flow), including their pre-rename names. */
export const PIPELINE_COMPONENTS: ReadonlySet<string> = new Set([
  "File",
  "Parser",
  "TokenChunker",
  "TitleChunker",
  "Tokenizer",
  "Extractor",
  "Compiler",
  "Splitter",
  "HierarchicalMerger",
]);

/** Components that only exist in RAGFlow ≤ v0.19 canvases (research/ragflow.md §5.3). */
export const LEGACY_COMPONENTS: ReadonlySet<string> = new Set([
  "Answer",
  "Generate",
  "Relevant",
  "RewriteQuestion",
  "KeywordExtract",
  "Concentrator",
  "Template",
  "Baidu",
  "BaiduFanyi",
  "Bing",
  "Jin10",
  "TuShare",
  "Code",
]);

export const PIPELINE_MESSAGE = "dataflow pipeline canvases are not agent canvases";

/** True for a RAGFlow ingestion pipeline's DSL: its category says so, or it has pipeline steps and no Begin. */
export function isPipelineDsl(document: Record<string, unknown>): boolean {
  return detectKind({ dsl: document as DslSource["dsl"] }).kind === "pipeline";
}

interface KindFinding {
  kind: DslKind;
  /** Why the DSL was classified so (for non-agent kinds). */
  reason?: string;
  /** Where in the DSL the reason is, when it is one field (a JSON pointer). */
  pointer?: string;
}

export function detectKind(source: DslSource): KindFinding {
  const dsl = source.dsl as Record<string, unknown>;
  const category = source.envelope?.canvas_category ?? dsl.canvas_category;
  if (category === "dataflow_canvas") return { kind: "pipeline", reason: 'canvas_category is "dataflow_canvas"' };

  const components = dsl.components;
  if (components === undefined || components === null) {
    const graph = dsl.graph as { nodes?: unknown } | undefined;
    if (graph && Array.isArray(graph.nodes) && graph.nodes.length > 0) {
      return { kind: "graph-only", reason: "the DSL has graph.nodes but no components" };
    }
    return { kind: "unknown", reason: "the DSL has no components" };
  }
  if (!isPlainObject(components)) {
    return { kind: "unknown", reason: `components must be an object keyed by component id, got ${describeJson(components)}`, pointer: "/components" };
  }

  const names = new Set<string>();
  for (const entry of Object.values(components)) {
    const name = (entry as { obj?: { component_name?: unknown } })?.obj?.component_name;
    if (typeof name === "string") names.add(name);
  }
  // An agent canvas (it has a Begin) holding a pipeline step is an agent canvas with an error in it.
  const pipeline = [...names].filter((n) => PIPELINE_COMPONENTS.has(n));
  if (pipeline.length > 0 && !names.has("Begin")) return { kind: "pipeline", reason: `it uses the pipeline components ${pipeline.join(", ")}` };

  const legacy = [...names].filter((n) => LEGACY_COMPONENTS.has(n));
  if (legacy.length > 0) return { kind: "legacy", reason: `it uses the RAGFlow ≤ v0.19 components ${legacy.join(", ")}` };
  const path = dsl.path;
  if (Array.isArray(path) && path.some((p) => Array.isArray(p))) {
    return { kind: "legacy", reason: "its path is a list of lists (RAGFlow ≤ v0.19)" };
  }
  if (dsl.canvasflow === undefined && ("answer" in dsl || "reference" in dsl) && !("globals" in dsl)) {
    return { kind: "legacy", reason: "it has the RAGFlow ≤ v0.19 keys answer/reference and no globals" };
  }
  return { kind: "agent" };
}
