/**
 * Reading a Dify document's graph: its nodes and edges checked for shape, and its legacy forms
 * brought to the current one in memory, one note per change (what Dify's web editor does when
 * it opens an old graph, research/dify.md §1.5). The document itself is never changed.
 *
 * Every problem is an issue with a JSON pointer into the document as written.
 */
import type { MigrationNote } from "../migrate/types.js";
import type { ValidationIssue } from "../dsl/validate.js";
import { isPlainObject } from "../util/values.js";
import { appMode, DIFY_NODE_TYPES, layoutOf, type DocumentShape } from "./document.js";

/** A node of the graph, normalized. */
export interface DifyNode {
  readonly id: string;
  readonly type: string;
  /** Its data, normalized (a copy: the document is untouched). */
  readonly data: Record<string, unknown>;
  /** The container it sits in, if any. */
  readonly parentId: string | undefined;
  /** Where it is in the document (a synthesized start node points at its container). */
  readonly pointer: string;
}

export interface DifyEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly handle: string;
  readonly pointer: string;
}

/** A conversation or environment variable. */
interface DifyVariable {
  readonly name: string;
  readonly value: unknown;
  readonly valueType: string;
  readonly pointer: string;
}

export interface DifyGraph {
  readonly shape: DocumentShape;
  /** `advanced-chat` (a chatflow) or `workflow`. */
  readonly mode: string;
  readonly name: string;
  readonly nodes: readonly DifyNode[];
  readonly edges: readonly DifyEdge[];
  /** The Start node at the top of the graph (undefined when there is not exactly one: an error says so). */
  readonly startId: string | undefined;
  readonly conversationVariables: readonly DifyVariable[];
  readonly environmentVariables: readonly DifyVariable[];
  readonly features: Record<string, unknown>;
  readonly notes: readonly MigrationNote[];
  readonly issues: readonly ValidationIssue[];
}

/** Dify web's defaults for an HTTP node that predates retries (DEFAULT_RETRY_MAX, DEFAULT_RETRY_INTERVAL). */
const HTTP_RETRY_DEFAULT = { retry_enabled: true, max_retries: 3, retry_interval: 100 };

const CONTAINER_START: Readonly<Record<string, string>> = { iteration: "iteration-start", loop: "loop-start" };

export const NORMALIZATION_STEPS: Readonly<Record<string, string>> = {
  "dify-envelope": "fill in a missing DSL version (0.1.0) and kind (app), as Dify's importer does",
  "dify-notes": "drop sticky notes (custom-note), which are not nodes",
  "dify-node-types": "read the legacy type variable-assigner as the variable aggregator it is",
  "dify-container-start": "give iterations and loops without a start node one (DSL 0.1.0/0.1.1)",
  "dify-if-else": "turn a legacy if-else's one condition list into its single case `true`",
  "dify-model-provider": "spell model providers as plugin ids (openai → langgenius/openai/openai)",
  "dify-http": "read a legacy HTTP body given as text, and give HTTP nodes without retry settings Dify's default retries",
  "dify-tool": "read a legacy tool node's configuration values as constants (tool node version 2)",
  "dify-defaults": "fill in fields later Dify versions require (End value types, iteration and loop modes, start-variable options)",
  "dify-edges": "give edges without a source handle the handle `source`",
  "dify-cycles": "drop edges that close a cycle (Dify graphs are acyclic; loops are containers)",
};

/** Read and normalize a document's graph. Never throws: what cannot be read is an issue. */
export function readDifyGraph(document: Record<string, unknown>): DifyGraph {
  return new GraphReader(document).read();
}

class GraphReader {
  private readonly notes: MigrationNote[] = [];
  private readonly issues: ValidationIssue[] = [];
  private readonly nodes: DifyNode[] = [];
  private readonly byId = new Map<string, DifyNode>();
  private edges: DifyEdge[] = [];
  private graphPointer = "";

  constructor(private readonly document: Record<string, unknown>) {}

  private note(step: string, change: string, reason: string, node?: { id: string; type: string }): void {
    this.notes.push({ step, ...(node ? { component: node.id, componentType: node.type } : {}), change, reason });
  }

  private error(code: string, pointer: string, message: string, node?: { id: string; type: string; title?: string }): void {
    this.issues.push({ severity: "error", code, pointer: pointer || "/", message, ...nodeFields(node) });
  }

  private warning(code: string, pointer: string, message: string, node?: { id: string; type: string; title?: string }): void {
    this.issues.push({ severity: "warning", code, pointer: pointer || "/", message, ...nodeFields(node) });
  }

  read(): DifyGraph {
    const document = this.document;
    const layout = layoutOf(document);
    const empty = (shape: DocumentShape): DifyGraph => ({
      shape,
      mode: "workflow",
      name: "",
      nodes: [],
      edges: [],
      startId: undefined,
      conversationVariables: [],
      environmentVariables: [],
      features: {},
      notes: this.notes,
      issues: this.issues,
    });
    if (!layout) {
      const where = isPlainObject(document.workflow) ? "/workflow" : "/";
      this.error("graph.missing", where, "no graph: a Dify document has workflow.graph (an app export), graph (kind: graph), or nodes and edges");
      return empty("app");
    }
    this.graphPointer = layout.graphPointer;
    if (layout.shape === "app") this.readEnvelope();

    const rawNodes = layout.graph.nodes;
    if (!Array.isArray(rawNodes)) {
      this.error("graph.invalid_nodes", `${layout.graphPointer}/nodes`, "nodes must be a list of nodes");
      return empty(layout.shape);
    }
    rawNodes.forEach((raw, index) => this.readNode(raw, index));
    this.synthesizeContainerStarts();

    const rawEdges = layout.graph.edges ?? [];
    if (!Array.isArray(rawEdges)) this.error("graph.invalid_edges", `${layout.graphPointer}/edges`, "edges must be a list of edges");
    else this.readEdges(rawEdges);
    this.dropCycles();
    const startId = this.findStart();

    const workflow = layout.workflow;
    return {
      shape: layout.shape,
      mode: appMode(document, this.nodes.map((n) => ({ data: { type: n.type } }))),
      name: isPlainObject(document.app) && typeof document.app.name === "string" ? document.app.name : "",
      nodes: this.nodes,
      edges: this.edges,
      startId,
      conversationVariables: this.readVariables(workflow?.conversation_variables, "/workflow/conversation_variables"),
      environmentVariables: this.readVariables(workflow?.environment_variables, "/workflow/environment_variables"),
      features: isPlainObject(workflow?.features) ? workflow.features : {},
      notes: this.notes,
      issues: this.issues,
    };
  }

  private readEnvelope(): void {
    const document = this.document;
    if (document.version === undefined) this.note("dify-envelope", "version set to 0.1.0", "the document has no DSL version; Dify's importer reads it as 0.1.0");
    else if (typeof document.version !== "string") {
      this.warning("envelope.version", "/version", `version must be a string (quote it: '${String(document.version)}'); Dify refuses the file as it is`);
    }
    if (document.kind === undefined) this.note("dify-envelope", "kind set to app", "the document has no kind; Dify's importer reads it as an app");
    else if (document.kind !== "app") this.warning("envelope.kind", "/kind", `kind ${JSON.stringify(document.kind)} is not "app"; Dify's importer reads it as an app`);
    const mode = isPlainObject(document.app) ? document.app.mode : undefined;
    if (!isPlainObject(document.app)) this.error("kind.missing_app", "/app", "an app export needs its app section (name and mode)");
    else if (mode !== "workflow" && mode !== "advanced-chat") {
      this.error("kind.unsupported", "/app/mode", `app mode ${JSON.stringify(mode)} cannot run: only workflow and advanced-chat (chatflow) apps have a graph`);
    }
  }

  private readNode(raw: unknown, index: number): void {
    const pointer = `${this.graphPointer}/nodes/${index}`;
    if (!isPlainObject(raw)) {
      this.error("graph.invalid_node", pointer, "a node must be an object");
      return;
    }
    const data = raw.data;
    // Sticky notes are canvas decorations, never nodes.
    if (raw.type === "custom-note" || (isPlainObject(data) && data.type === "")) {
      this.note("dify-notes", `sticky note ${String(raw.id ?? index)} dropped`, "a note is not a node");
      return;
    }
    const id = typeof raw.id === "number" ? String(raw.id) : raw.id;
    if (typeof id !== "string" || id === "") {
      this.error("graph.invalid_node_id", `${pointer}/id`, "a node needs an id (a non-empty string)");
      return;
    }
    if (id.includes("#")) {
      this.error("graph.invalid_node_id", `${pointer}/id`, `node id ${JSON.stringify(id)} may not contain "#"`);
      return;
    }
    if (this.byId.has(id)) {
      this.error("graph.duplicate_node_id", `${pointer}/id`, `node id ${JSON.stringify(id)} is used twice (also at ${this.byId.get(id)!.pointer})`);
      return;
    }
    if (!isPlainObject(data)) {
      this.error("graph.invalid_node_data", `${pointer}/data`, `node ${id}: data must be an object`);
      return;
    }
    if (typeof data.type !== "string") {
      this.error("graph.invalid_node_type", `${pointer}/data/type`, `node ${id}: data.type must name the node type`);
      return;
    }
    let type = data.type;
    const copy: Record<string, unknown> = structuredClone(data);
    const who = { id, type };
    if (!DIFY_NODE_TYPES.has(type)) {
      this.error("node.unknown_type", `${pointer}/data/type`, `node ${id} has the unknown node type ${JSON.stringify(type)}`, { ...who, title: titleOf(copy) });
      return;
    }
    if (type === "variable-assigner") {
      type = "variable-aggregator";
      copy.type = type;
      this.note("dify-node-types", "type variable-assigner read as variable-aggregator", "DSL 0.1.x named the variable aggregator variable-assigner", who);
    }
    const parentId = parentOf(raw, copy);
    this.normalizeData(type, copy, who);
    const node: DifyNode = { id, type, data: copy, parentId, pointer };
    this.nodes.push(node);
    this.byId.set(id, node);
  }

  /** The legacy shapes of each node type (research/dify.md §1.5). */
  private normalizeData(type: string, data: Record<string, unknown>, who: { id: string; type: string }): void {
    if (type === "if-else" && !Array.isArray(data.cases) && Array.isArray(data.conditions)) {
      data.cases = [{ case_id: "true", logical_operator: data.logical_operator ?? "and", conditions: data.conditions }];
      this.note("dify-if-else", "its conditions became the case `true`", "if-else nodes before cases had one condition list, taken on the port `true`", who);
    }
    if ((type === "llm" || type === "question-classifier" || type === "parameter-extractor") && isPlainObject(data.model)) {
      const provider = data.model.provider;
      if (typeof provider === "string" && provider !== "" && !provider.includes("/")) {
        const plugin = provider === "google" ? "langgenius/gemini/google" : `langgenius/${provider}/${provider}`;
        data.model = { ...data.model, provider: plugin };
        this.note("dify-model-provider", `model provider ${provider} spelled ${plugin}`, "providers became plugins in Dify 1.0", who);
      }
    }
    if (type === "llm" && data.structured_output_enabled !== undefined && data.structured_output_switch_on === undefined) {
      data.structured_output_switch_on = data.structured_output_enabled;
      this.note("dify-defaults", "structured_output_enabled read as structured_output_switch_on", "the field was renamed", who);
    }
    if (type === "http-request") {
      const body = data.body;
      if (isPlainObject(body) && typeof body.data === "string") {
        data.body = { ...body, data: [{ key: "", type: "text", value: body.data }] };
        this.note("dify-http", "its body text became one text item", "HTTP bodies were text before they were lists of items", who);
      }
      if (data.retry_config === undefined) {
        data.retry_config = { ...HTTP_RETRY_DEFAULT };
        this.note("dify-http", "retries enabled (3 attempts more, 100 ms apart)", "Dify's editor gives an HTTP node without retry settings its default retries", who);
      }
    }
    if (type === "tool" && isPlainObject(data.tool_configurations)) {
      const configurations = data.tool_configurations;
      const loose = Object.entries(configurations).filter(([, value]) => !(isPlainObject(value) && "type" in value && "value" in value));
      if (loose.length > 0) {
        data.tool_configurations = Object.fromEntries(Object.entries(configurations).map(([key, value]) => [key, isPlainObject(value) && "type" in value && "value" in value ? value : { type: "constant", value }]));
        if (data.version === undefined) data.version = "2";
        this.note("dify-tool", `${loose.length} configuration value${loose.length === 1 ? "" : "s"} read as constants`, "tool nodes before version 2 stored configuration values bare", who);
      }
    }
    if (type === "end" && Array.isArray(data.outputs)) {
      const untyped = data.outputs.filter((o) => isPlainObject(o) && o.value_type === undefined);
      if (untyped.length > 0) {
        data.outputs = data.outputs.map((o) => (isPlainObject(o) && o.value_type === undefined ? { ...o, value_type: "any" } : o));
        this.note("dify-defaults", `${untyped.length} output${untyped.length === 1 ? "" : "s"} given the value type any`, "an End output without value_type is of any type", who);
      }
    }
    if (type === "iteration") {
      const missing = [
        ["is_parallel", false],
        ["parallel_nums", 10],
        ["error_handle_mode", "terminated"],
      ].filter(([key]) => data[key as string] === undefined);
      for (const [key, value] of missing) data[key as string] = value;
      if (missing.length > 0) this.note("dify-defaults", `${missing.map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ")} filled in`, "iteration fields Dify's editor adds to older graphs", who);
    }
    if (type === "loop" && data.error_handle_mode === undefined) data.error_handle_mode = "terminated";
    if (type === "parameter-extractor" && Array.isArray(data.parameters)) {
      let changed = 0;
      data.parameters = data.parameters.map((p) => {
        if (!isPlainObject(p)) return p;
        if (p.type === "bool") return (changed++, { ...p, type: "boolean" });
        if (p.type === "select") return (changed++, { ...p, type: "string" });
        return p;
      });
      if (changed > 0) this.note("dify-defaults", `${changed} parameter type${changed === 1 ? "" : "s"} renamed (bool → boolean, select → string)`, "legacy parameter types", who);
    }
    if (type === "start" && Array.isArray(data.variables)) {
      data.variables = data.variables.map((v) => {
        if (!isPlainObject(v)) return v;
        const fixed = { ...v };
        if (fixed.description === null) fixed.description = "";
        if (fixed.options === null) fixed.options = [];
        return fixed;
      });
    }
  }

  /**
   * Iterations and loops start at an iteration-start / loop-start child. Older graphs named a
   * real inner node as the start (or marked it `isIterationStart`): a start node is made, with an
   * edge to that node.
   */
  private synthesizeContainerStarts(): void {
    for (const container of [...this.nodes]) {
      const startType = CONTAINER_START[container.type];
      if (!startType) continue;
      const declared = container.data.start_node_id;
      const declaredNode = typeof declared === "string" ? this.byId.get(declared) : undefined;
      if (declaredNode && declaredNode.type === startType && declaredNode.parentId === container.id) continue;
      const inner = declaredNode && declaredNode.parentId === container.id ? declaredNode : this.nodes.find((n) => n.parentId === container.id && n.data.isIterationStart === true);
      let id = `${container.id}start`;
      for (let k = 1; this.byId.has(id); k++) id = `${container.id}start${k}`;
      const start: DifyNode = { id, type: startType, data: { type: startType, title: "" }, parentId: container.id, pointer: container.pointer };
      this.nodes.push(start);
      this.byId.set(id, start);
      container.data.start_node_id = id;
      if (inner) this.pendingEdges.push({ id: `${id}-source-${inner.id}-target`, source: id, target: inner.id, handle: "source", pointer: container.pointer });
      this.note(
        "dify-container-start",
        `start node ${id} made${inner ? `, with an edge to ${inner.id}` : ""}`,
        `an ${container.type} runs its body from an ${startType} node, which graphs before DSL 0.1.2 do not have`,
        { id: container.id, type: container.type },
      );
    }
  }

  /** Edges the normalization adds (to synthesized start nodes). */
  private readonly pendingEdges: DifyEdge[] = [];

  private readEdges(rawEdges: unknown[]): void {
    const ids = new Map<string, string>();
    let unhandled = 0;
    rawEdges.forEach((raw, index) => {
      const pointer = `${this.graphPointer}/edges/${index}`;
      if (!isPlainObject(raw)) {
        this.error("graph.invalid_edge", pointer, "an edge must be an object");
        return;
      }
      const source = typeof raw.source === "number" ? String(raw.source) : raw.source;
      const target = typeof raw.target === "number" ? String(raw.target) : raw.target;
      const label = typeof raw.id === "string" && raw.id !== "" ? raw.id : `#${index}`;
      if (typeof source !== "string" || typeof target !== "string") {
        this.error("graph.invalid_edge_endpoint", pointer, `edge ${label} needs a source and a target (node ids)`);
        return;
      }
      let handle = raw.sourceHandle;
      if (handle === undefined || handle === null) {
        handle = "source";
        unhandled++;
      } else if (typeof handle === "number" || typeof handle === "boolean") handle = String(handle);
      if (typeof handle !== "string") {
        this.error("graph.invalid_edge", `${pointer}/sourceHandle`, `edge ${label}: sourceHandle must be a string`);
        return;
      }
      const id = typeof raw.id === "string" && raw.id !== "" ? raw.id : `${source}-${handle}-${target}-target`;
      if (ids.has(id)) {
        this.error("graph.duplicate_edge_id", `${pointer}/id`, `edge id ${JSON.stringify(id)} is used twice (also at ${ids.get(id)})`);
        return;
      }
      ids.set(id, pointer);
      const from = this.byId.get(source);
      const to = this.byId.get(target);
      if (!from || !to) {
        const missing = [!from ? `source ${source}` : "", !to ? `target ${target}` : ""].filter(Boolean).join(" and ");
        this.error("graph.edge_unknown_node", pointer, `edge ${id} is dangling: its ${missing} is not a node of the graph`);
        return;
      }
      if (from.parentId !== to.parentId) {
        this.error("graph.edge_across_containers", pointer, `edge ${id} joins ${source} and ${target}, which are not in the same container`);
        return;
      }
      this.edges.push({ id, source, target, handle, pointer });
    });
    this.edges.push(...this.pendingEdges.filter((edge) => !this.edges.some((e) => e.source === edge.source && e.target === edge.target)));
    if (unhandled > 0) this.note("dify-edges", `${unhandled} edge${unhandled === 1 ? "" : "s"} given the handle source`, "an edge without sourceHandle leaves its node's ordinary port");
  }

  /** Drop the edges that close a cycle (depth-first, in document order), each with a warning. */
  private dropCycles(): void {
    const outgoing = new Map<string, DifyEdge[]>();
    for (const edge of this.edges) outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge]);
    const state = new Map<string, "open" | "done">();
    const dropped = new Set<DifyEdge>();
    for (const root of this.nodes) {
      if (state.has(root.id)) continue;
      // Iterative DFS: a long chain must not overflow the stack.
      const stack: Array<{ id: string; next: number }> = [{ id: root.id, next: 0 }];
      state.set(root.id, "open");
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        const edges = outgoing.get(top.id) ?? [];
        if (top.next >= edges.length) {
          state.set(top.id, "done");
          stack.pop();
          continue;
        }
        const edge = edges[top.next++];
        const seen = state.get(edge.target);
        if (seen === "open") dropped.add(edge);
        else if (seen === undefined) {
          state.set(edge.target, "open");
          stack.push({ id: edge.target, next: 0 });
        }
      }
    }
    if (dropped.size === 0) return;
    this.edges = this.edges.filter((edge) => !dropped.has(edge));
    for (const edge of dropped) {
      this.warning("graph.cycle", edge.pointer, `edge ${edge.id} (${edge.source} → ${edge.target}) closes a cycle and was dropped: Dify graphs are acyclic, and only a loop node repeats`);
      this.note("dify-cycles", `edge ${edge.id} dropped`, "it closes a cycle");
    }
  }

  private findStart(): string | undefined {
    const starts = this.nodes.filter((n) => n.type === "start" && n.parentId === undefined);
    for (const inner of this.nodes.filter((n) => n.type === "start" && n.parentId !== undefined)) {
      this.error("graph.invalid_node", inner.pointer, `node ${inner.id}: a start node cannot sit inside a container`, { id: inner.id, type: inner.type });
    }
    if (starts.length === 1) return starts[0].id;
    if (starts.length === 0) this.error("graph.root_missing", `${this.graphPointer}/nodes`, "the graph has no start node: a workflow begins at its Start");
    else this.error("graph.root_ambiguous", starts[1].pointer, `the graph has ${starts.length} start nodes (${starts.map((s) => s.id).join(", ")}); it must have one`);
    return undefined;
  }

  private readVariables(raw: unknown, pointer: string): DifyVariable[] {
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) {
      this.error("runtime_variables.invalid", pointer, "must be a list of variables");
      return [];
    }
    const out: DifyVariable[] = [];
    raw.forEach((item, index) => {
      const at = `${pointer}/${index}`;
      if (!isPlainObject(item) || typeof item.name !== "string" || item.name === "") {
        this.error("runtime_variables.invalid", at, "a variable needs a name");
        return;
      }
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,29}$/.test(item.name)) {
        this.error("runtime_variables.invalid", `${at}/name`, `variable name ${JSON.stringify(item.name)} must start with a letter or _ and hold at most 30 letters, digits and _`);
        return;
      }
      out.push({ name: item.name, value: item.value ?? null, valueType: typeof item.value_type === "string" ? item.value_type : "string", pointer: at });
    });
    return out;
  }
}

/** The container a node sits in: React Flow's parentId, else the data's iteration_id / loop_id. */
function parentOf(raw: Record<string, unknown>, data: Record<string, unknown>): string | undefined {
  if (typeof raw.parentId === "string" && raw.parentId !== "") return raw.parentId;
  if (data.isInIteration === true && typeof data.iteration_id === "string" && data.iteration_id !== "") return data.iteration_id;
  if (data.isInLoop === true && typeof data.loop_id === "string" && data.loop_id !== "") return data.loop_id;
  return undefined;
}

function titleOf(data: Record<string, unknown>): string | undefined {
  return typeof data.title === "string" && data.title !== "" ? data.title : undefined;
}

function nodeFields(node: { id: string; type: string; title?: string } | undefined): Partial<ValidationIssue> {
  if (!node) return {};
  return { componentId: node.id, componentType: node.type, ...(node.title ? { componentName: node.title } : {}) };
}
