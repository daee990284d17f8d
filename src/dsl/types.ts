/**
 * The stored canvas DSL, as RAGFlow writes it (research/ragflow.md §1), plus the `canvasflow`
 * key in which a snapshot keeps the run state RAGFlow holds only in memory.
 */
import type { VariableDeclaration } from "../pool/variables.js";

export type Params = Record<string, unknown>;

export interface ComponentEntry {
  obj: { component_name: string; params: Params; [key: string]: unknown };
  downstream?: string[];
  upstream?: string[];
  parent_id?: string | null;
  [key: string]: unknown;
}

export interface GraphNode {
  id: string;
  type?: string;
  parentId?: string;
  data?: { label?: string; name?: string; form?: Params; [key: string]: unknown };
  [key: string]: unknown;
}

export interface GraphEdge {
  id?: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
  [key: string]: unknown;
}

export type HistoryEntry = [role: string, content: unknown];

export interface CanvasDsl {
  components: Record<string, ComponentEntry>;
  path?: string[];
  history?: HistoryEntry[];
  retrieval?: unknown;
  globals?: Record<string, unknown>;
  variables?: Record<string, VariableDeclaration> | VariableDeclaration[];
  memory?: unknown[];
  graph?: { nodes?: GraphNode[]; edges?: GraphEdge[] };
  task_id?: string;
  messages?: unknown[];
  /** canvasflow's run state, present in snapshots written by `canvas.toJSON()`. */
  canvasflow?: import("../engine/state.js").PersistedRunState;
  [key: string]: unknown;
}

/** A stored template: `{id, title, description, canvas_type, dsl, …}`. */
export interface TemplateEnvelope {
  id?: unknown;
  title?: unknown;
  description?: unknown;
  canvas_type?: string;
  canvas_category?: string;
  dsl: CanvasDsl;
  [key: string]: unknown;
}
