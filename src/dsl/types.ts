/**
 * The stored canvas DSL's types, kept under their old address: they live in contracts/dsl.ts.
 */
export type { CanvasDsl, ComponentEntry, GraphEdge, GraphNode, TemplateEnvelope } from "../contracts/dsl.js";
export type { HistoryEntry, Params } from "../contracts/values.js";
