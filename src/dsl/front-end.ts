/**
 * Front ends: document formats other than RAGFlow's canvas DSL (Dify's workflow YAML) that load
 * into the same engine. The contract lives in contracts/graph.ts, beside the graph it compiles to.
 */
export type { DslFrontEnd } from "../contracts/graph.js";
