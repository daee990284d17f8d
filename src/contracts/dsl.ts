/**
 * The stored canvas DSL, as RAGFlow writes it (research/ragflow.md §1), plus the `canvasflow`
 * key in which a snapshot keeps the run state RAGFlow holds only in memory; where a DSL came
 * from, and the validation report every front end gives a document.
 */
import type { PersistedRunState } from "./run-state.js";
import type { HistoryEntry, Params } from "./values.js";

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
  canvasflow?: PersistedRunState;
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

/** A declared conversation variable, as stored under the DSL's `variables` key. */
export interface VariableDeclaration {
  name: string;
  type?: string;
  value?: unknown;
  description?: string;
  /**
   * How a write through `InvokeControl.update` merges into it (canvasflow's state keys): a
   * built-in reducer (last, add, append, extend, merge, messages, union) or a registered one.
   * Default: last (the write replaces the value).
   */
  reducer?: string;
}

/** Where a DSL came from and what wrapped it. */
export interface DslSource {
  /** The DSL object itself (inside the envelope when there was one). */
  dsl: CanvasDsl;
  /** The template envelope, when the file held one. */
  envelope?: Omit<TemplateEnvelope, "dsl">;
  /** The file it was read from, for messages. */
  file?: string;
}

export type DslKind = "agent" | "pipeline" | "legacy" | "graph-only" | "dify" | "unknown";

export type Severity = "error" | "warning";

export interface ValidationIssue {
  severity: Severity;
  /** Machine-readable kind of problem. */
  code: string;
  /** JSON pointer into the file (inside the envelope's `/dsl` when there is one). */
  pointer: string;
  componentId?: string;
  /** The component's display name from the editor graph. */
  componentName?: string;
  /** The component's `component_name`. */
  componentType?: string;
  message: string;
}

export interface ValidationReport {
  file?: string;
  kind: DslKind;
  valid: boolean;
  issues: ValidationIssue[];
  /** What a front end normalized in memory to read the document (Dify's legacy shapes), as migrate reports it. */
  notes?: MigrationNote[];
  /** A Dify document's app mode (`workflow`, `advanced-chat`): the report names a chatflow as one. */
  appMode?: string;
}

/** One change a step made: which component (if any), what changed, and why. */
export interface MigrationNote {
  /** The id of the step that made the change. */
  step: string;
  /** The component the change is about (its id after the change). */
  component?: string;
  /** The component's type before the change, when it is about one component. */
  componentType?: string;
  /** What changed, in a sentence. */
  change: string;
  /** Why the change was needed or what it preserves. */
  reason: string;
}
