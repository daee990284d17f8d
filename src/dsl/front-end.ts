/**
 * Front ends: document formats other than RAGFlow's canvas DSL (Dify's workflow YAML) that load
 * into the same engine. A front end recognizes its documents, validates them with JSON pointers
 * into them, and compiles them into the engine's graph; the registry a canvas is loaded with
 * knows which front ends there are (ComponentRegistry.registerFrontEnd).
 */
import type { ComponentRegistry } from "../components/registry.js";
import type { CanvasGraph } from "../engine/graph.js";
import type { DslKind } from "./kind.js";
import type { DslSource } from "./source.js";
import type { ValidationReport } from "./validate.js";

export interface DslFrontEnd {
  /** The kind validation reports give its documents. */
  readonly kind: DslKind;
  /** True for a document (or a snapshot of one) of this format. */
  recognizes(document: Record<string, unknown>): boolean;
  /** Every problem of the document, with pointers into it. */
  validate(source: DslSource, registry: ComponentRegistry): ValidationReport;
  /** The engine's graph of a document `validate` found valid. */
  compile(document: Record<string, unknown>, registry: ComponentRegistry): CanvasGraph;
}
