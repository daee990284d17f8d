/**
 * Everything a compiled canvas can run, as the component policy sees it: each component (at any
 * depth: a container's children are nodes of the graph too), each tool an Agent can hand its
 * model (sub-agents' tools included, at any depth), each MCP server an Agent binds to, and each
 * tool a Dify agent node or tool node runs. Read from the compiled graph, so RAGFlow canvases and
 * Dify apps are read alike, and from the same params the components read when they run. Kept per
 * graph (graphs are shared by every session of an agent version).
 */
import { agentToolKey, toolKey } from "../dify/catalog.js";
import type { CanvasGraph } from "../engine/graph.js";
import { isPlainObject } from "../util/values.js";
import { componentNameOf, difyToolName, difyTypeName, difyTypeOf, isDifyUnsupported, SUB_AGENT } from "./names.js";

/** How the DSL spells what runs (one of these is set). */
export interface Spelling {
  /** A RAGFlow component_name (of a component, or of an Agent's `tools` entry). */
  componentName?: string;
  /** A Dify node's type. */
  difyNodeType?: string;
  /** A Dify tool's `provider/tool` key (a tool node's, or an agent node's tool). */
  difyTool?: string;
  /** An Agent's `mcp` entry's mcp_id. */
  mcpServer?: string;
}

export interface ComponentUse {
  /** The component (node) id in the DSL. */
  componentId: string;
  /** Where inside its params (`tools[0]`, `tools[1].params.mcp[0]`, `agent_parameters.tools[2]`); "" for the component itself. */
  at: string;
  /** A component; a tool an Agent hands its model (also a component); an MCP server an Agent binds to. */
  kind: "component" | "tool" | "mcpServer";
  spelled: Spelling;
  /** The name the policy's rules match (names.ts); an MCP server's id. */
  name: string;
}

/** Tools only the run knows: a Dify agent node whose tools come from a variable. */
interface UncheckedTools {
  componentId: string;
  at: string;
}

interface GraphUses {
  uses: readonly ComponentUse[];
  unchecked: readonly UncheckedTools[];
}

/** Sub-agents inside sub-agents this deep and deeper are not followed: they are reported unchecked. */
const MAX_SUB_AGENT_DEPTH = 32;

const known = new WeakMap<CanvasGraph, GraphUses>();

export function usesOf(graph: CanvasGraph): GraphUses {
  let found = known.get(graph);
  if (!found) {
    found = collect(graph);
    known.set(graph, found);
  }
  return found;
}

function collect(graph: CanvasGraph): GraphUses {
  const uses: ComponentUse[] = [];
  const unchecked: UncheckedTools[] = [];
  for (const node of graph.nodes.values()) {
    const { id, componentName, params } = node;
    const difyType = isDifyUnsupported(componentName) ? (typeof params.type === "string" ? params.type : undefined) : difyTypeOf(componentName);
    if (difyType === undefined) {
      uses.push({ componentId: id, at: "", kind: "component", spelled: { componentName }, name: componentNameOf(componentName) });
      if (componentName === SUB_AGENT) agentUses(id, params, "", 0, uses, unchecked);
      continue;
    }
    // A Dify node, or a RAGFlow canvas naming a Dify component: the same name either way.
    const spelled: Spelling = params.type === difyType ? { difyNodeType: difyType } : { componentName };
    if (difyType === "tool") {
      const key = toolKey(params);
      uses.push({ componentId: id, at: "", kind: "component", spelled: { ...spelled, difyTool: key }, name: difyToolName(key) });
      continue;
    }
    uses.push({ componentId: id, at: "", kind: "component", spelled, name: difyTypeName(difyType) });
    if (difyType === "agent" && !isDifyUnsupported(componentName)) difyAgentUses(id, params, uses, unchecked);
  }
  return { uses, unchecked };
}

/** A RAGFlow Agent's `tools` (sub-agents followed into their own params) and `mcp` entries (agent-tools.ts, agent-mcp.ts). */
function agentUses(componentId: string, params: Record<string, unknown>, prefix: string, depth: number, uses: ComponentUse[], unchecked: UncheckedTools[]): void {
  if (depth > MAX_SUB_AGENT_DEPTH) {
    unchecked.push({ componentId, at: prefix.replace(/\.$/, "") });
    return;
  }
  const tools = Array.isArray(params.tools) ? params.tools : [];
  tools.forEach((entry, index) => {
    // An entry without a component_name cannot run (the Agent fails on it).
    if (!isPlainObject(entry) || typeof entry.component_name !== "string" || entry.component_name === "") return;
    const at = `${prefix}tools[${index}]`;
    uses.push({ componentId, at, kind: "tool", spelled: { componentName: entry.component_name }, name: componentNameOf(entry.component_name) });
    if (entry.component_name === SUB_AGENT) agentUses(componentId, isPlainObject(entry.params) ? entry.params : {}, `${at}.params.`, depth + 1, uses, unchecked);
  });
  const servers = Array.isArray(params.mcp) ? params.mcp : [];
  servers.forEach((entry, index) => {
    if (!isPlainObject(entry)) return;
    const id = typeof entry.mcp_id === "string" ? entry.mcp_id : "";
    uses.push({ componentId, at: `${prefix}mcp[${index}]`, kind: "mcpServer", spelled: { mcpServer: id }, name: id });
  });
}

/**
 * A Dify agent node's tools, read as its `parameter(ctx, "tools")` reads them (dify/components/agent.ts):
 * `{type: "variable"}` is a selector read at run time; `{type: "mixed"}` renders to text (no tools);
 * another `{value}` is the list; a bare value is the list itself. Disabled tools are not offered.
 */
function difyAgentUses(componentId: string, params: Record<string, unknown>, uses: ComponentUse[], unchecked: UncheckedTools[]): void {
  const entry = isPlainObject(params.agent_parameters) ? params.agent_parameters.tools : undefined;
  let tools: unknown;
  if (!isPlainObject(entry)) tools = entry;
  else if (entry.type === "variable") {
    unchecked.push({ componentId, at: "agent_parameters.tools" });
    return;
  } else if (entry.type === "mixed") tools = undefined;
  else tools = entry.value;
  if (!Array.isArray(tools)) return;
  tools.forEach((tool, index) => {
    if (!isPlainObject(tool) || tool.enabled === false) return;
    const key = agentToolKey(tool);
    uses.push({ componentId, at: `agent_parameters.tools[${index}]`, kind: "tool", spelled: { difyTool: key }, name: difyToolName(key) });
  });
}
