/**
 * A Dify graph compiled into the engine's: one component per node (catalog.ts), the edges under
 * the edge policy, Dify's limits (500 steps, 1200 s), its `sys.*` names, and its conversation and
 * environment variables as the session's globals.
 */
import { createHash } from "node:crypto";
import type { Registry } from "../contracts/graph.js";
import type { Outputs } from "../components/types.js";
import { edgePolicy } from "../engine/edges/index.js";
import { buildGraph, type CanvasGraph, type ErrorRoute, type NodeSpec } from "../engine/graph.js";
import { isPlainObject } from "../util/values.js";
import { componentFor, retryOf } from "./catalog.js";
import { startForm, startVariables } from "./components/start.js";
import { UNSUPPORTED_REASON } from "./components/unsupported.js";
import type { DifyGraph, DifyNode } from "./graph.js";

/** Dify's WORKFLOW_MAX_EXECUTION_STEPS and WORKFLOW_MAX_EXECUTION_TIME. */
export const DIFY_LIMITS = { maxSteps: 500, runTimeoutMs: 1_200_000 } as const;

/** The sys.* names Dify has and canvasflow's runs do not set themselves. */
const DIFY_SYSTEM_DEFAULTS: Readonly<Record<string, unknown>> = {
  "sys.conversation_id": "",
  "sys.dialogue_count": 0,
  "sys.app_id": "",
  "sys.workflow_id": "",
  "sys.workflow_run_id": "",
  "sys.timestamp": 0,
};

class DifyCompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DifyCompileError";
  }
}

/** The error outputs Dify gives a node whose failure its error strategy handles. */
const ERROR_KEYS = { message: "error_message", type: "error_type" } as const;

/** Dify's error_strategy as the engine's error route. */
function errorRouteOf(data: Record<string, unknown>): ErrorRoute | undefined {
  if (data.error_strategy === "fail-branch") return { kind: "branch", handle: "fail-branch", errorKeys: ERROR_KEYS };
  if (data.error_strategy !== "default-value") return undefined;
  const outputs: Outputs = {};
  for (const item of Array.isArray(data.default_value) ? data.default_value : []) {
    if (!isPlainObject(item) || typeof item.key !== "string" || item.key === "") continue;
    outputs[item.key] = defaultValue(item.type, item.value);
  }
  return { kind: "default", outputs, errorKeys: ERROR_KEYS };
}

/** A default value: text for strings, JSON-parsed text for the other types. */
function defaultValue(type: unknown, value: unknown): unknown {
  if (type === "string" || typeof value !== "string") return value ?? null;
  if (type === "number") {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function nodeSpec(node: DifyNode, downstream: string[], registry: Registry): NodeSpec {
  const component = componentFor(node, registry);
  const def = registry.get(component.name);
  if (!def) throw new DifyCompileError(`node ${node.id}: the component ${component.name} is not registered`);
  const title = typeof node.data.title === "string" && node.data.title !== "" ? node.data.title : node.id;
  const onError = errorRouteOf(node.data);
  return {
    id: node.id,
    componentName: component.name,
    displayName: title,
    def,
    params: component.reason ? { ...node.data, [UNSUPPORTED_REASON]: component.reason } : node.data,
    parentId: node.parentId,
    downstream,
    startChildId: node.type === "iteration" || node.type === "loop" ? (node.data.start_node_id as string | undefined) : undefined,
    retry: retryOf(node.data),
    ...(onError ? { onError } : {}),
  };
}

/** A short stable id of the graph (Dify's app and workflow ids are database ids; these stand in). */
function digest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value) ?? "").digest("hex").slice(0, 32);
}

export function compileDifyGraph(graph: DifyGraph, document: Record<string, unknown>, registry: Registry): CanvasGraph {
  const startId = graph.startId;
  if (startId === undefined || graph.issues.some((i) => i.severity === "error")) {
    const first = graph.issues.find((i) => i.severity === "error");
    throw new DifyCompileError(first ? `${first.pointer}: ${first.message}` : "the graph has no start node");
  }
  const targets = new Map<string, string[]>();
  for (const edge of graph.edges) targets.set(edge.source, [...(targets.get(edge.source) ?? []), edge.target]);
  const specs = graph.nodes.map((node) => nodeSpec(node, [...new Set(targets.get(node.id) ?? [])], registry));
  const edges = graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, handle: e.handle }));
  const start = graph.nodes.find((n) => n.id === startId)!;
  const appId = digest(isPlainObject(document.app) ? document.app : graph.name);
  const workflowId = digest({ nodes: graph.nodes.map((n) => [n.id, n.data]), edges });

  const initialGlobals: Record<string, unknown> = { ...DIFY_SYSTEM_DEFAULTS, "sys.app_id": appId, "sys.workflow_id": workflowId };
  for (const variable of graph.environmentVariables) initialGlobals[`env.${variable.name}`] = structuredClone(variable.value);
  for (const variable of graph.conversationVariables) initialGlobals[`conversation.${variable.name}`] = structuredClone(variable.value);

  const chat = graph.mode === "advanced-chat";
  const opening = graph.features.opening_statement;
  return buildGraph(specs, startId, registry, (nodes) => edgePolicy(nodes, edges, startId), {
    limits: DIFY_LIMITS,
    initialGlobals,
    turnGlobals: (turn) => ({
      "sys.dialogue_count": turn.turn,
      "sys.conversation_id": turn.taskId,
      "sys.workflow_run_id": turn.runId,
      "sys.timestamp": turn.startedAt,
      "sys.app_id": appId,
      "sys.workflow_id": workflowId,
    }),
    entry: {
      label: "Start",
      mode: chat ? "conversational" : "task",
      prologue: chat && typeof opening === "string" ? opening : "",
      form: startForm(start.data),
      required: startVariables(start.data)
        .filter((v) => v.required === true && (v.default === undefined || v.default === null || v.default === ""))
        .map((v) => v.variable),
    },
  });
}
