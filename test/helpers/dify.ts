/** Small Dify documents built in tests, and reading their runs. */
import type { CanvasEvent } from "../../src/engine/events.js";

export interface NodeSpec {
  id: string;
  type: string;
  parentId?: string;
  [field: string]: unknown;
}

/** A node as Dify exports it: `{id, data: {type, title, …}}`. */
export function node(spec: NodeSpec): Record<string, unknown> {
  const { id, type, parentId, ...data } = spec;
  return { id, ...(parentId ? { parentId } : {}), type: "custom", data: { type, title: id, ...data } };
}

/** An edge `source --handle--> target` (handle "source" by default). */
export function edge(source: string, target: string, handle = "source"): Record<string, unknown> {
  return { id: `${source}-${handle}-${target}`, source, target, sourceHandle: handle };
}

/** An app export around nodes and edges. */
export function difyApp(nodes: NodeSpec[], edges: Array<Record<string, unknown>>, options: { mode?: string; conversation?: Array<Record<string, unknown>> } = {}): Record<string, unknown> {
  return {
    app: { mode: options.mode ?? "workflow", name: "test" },
    kind: "app",
    version: "0.3.1",
    workflow: {
      conversation_variables: options.conversation ?? [],
      environment_variables: [],
      graph: { nodes: nodes.map(node), edges },
    },
  };
}

/** A JavaScript code node returning `result` from `body` (the body of `main(args)`). */
export function jsCode(id: string, body: string, outputs: Record<string, string> = { result: "string" }, variables: Array<{ variable: string; value_selector: string[] }> = []): NodeSpec {
  return {
    id,
    type: "code",
    code_language: "javascript",
    code: `function main(args) {\n${body}\n}`,
    variables,
    outputs: Object.fromEntries(Object.entries(outputs).map(([k, type]) => [k, { type, children: null }])),
  };
}

export function finished(events: CanvasEvent[]): { outputs: Record<string, unknown>; status: unknown; error: string | undefined; exceptions: unknown } {
  const last = events.at(-1);
  if (last?.event !== "workflow_finished") throw new Error(`the run ended with ${last?.event}`);
  const data = last.data as unknown as Record<string, unknown>;
  return { outputs: last.data.outputs, status: data.status, error: last.data.error, exceptions: data.exceptions_count };
}

/** The ids of the nodes that started, in order (with their round inside containers). */
export function startedIds(events: CanvasEvent[]): string[] {
  return events.flatMap((e) => (e.event === "node_started" ? [e.data.round === undefined ? e.data.component_id : `${e.data.component_id}#${e.data.round}`] : []));
}

export function messages(events: CanvasEvent[]): string[] {
  return events.flatMap((e) => (e.event === "message" ? [e.data.content] : []));
}

/** A chatflow that remembers the last question in a conversation variable and says the turn. */
export const MEMORY_CHATFLOW = {
  app: { mode: "advanced-chat", name: "memory" },
  kind: "app",
  version: "0.3.1",
  workflow: {
    conversation_variables: [{ name: "last", value: "none yet", value_type: "string" }],
    features: { opening_statement: "Ask me anything.", suggested_questions: ["What did I say?"] },
    graph: {
      nodes: [
        { id: "start", data: { type: "start", title: "Start", variables: [] } },
        { id: "say", data: { type: "answer", title: "Say", answer: "before: {{#conversation.last#}} (turn {{#sys.dialogue_count#}})" } },
        { id: "keep", data: { type: "assigner", version: "2", title: "Keep", items: [{ variable_selector: ["conversation", "last"], input_type: "variable", operation: "over-write", value: ["sys", "query"] }] } },
      ],
      edges: [
        { source: "start", target: "say" },
        { source: "say", target: "keep" },
      ],
    },
  },
};

/** start → a request to `url` (which never answers) → end. */
export function waitingWorkflow(url: string): Record<string, unknown> {
  return {
    app: { mode: "workflow", name: "waits" },
    kind: "app",
    version: "0.3.1",
    workflow: {
      graph: {
        nodes: [
          { id: "start", data: { type: "start", title: "Start", variables: [] } },
          { id: "http", data: { type: "http-request", title: "Wait", method: "GET", url, authorization: { type: "no-auth" }, body: { type: "none" }, headers: "", params: "", timeout: { read: 600 } } },
          { id: "end", data: { type: "end", title: "End", outputs: [{ variable: "status", value_selector: ["http", "status_code"] }] } },
        ],
        edges: [
          { source: "start", target: "http" },
          { source: "http", target: "end" },
        ],
      },
    },
  };
}
