/**
 * Which component runs each Dify node type, and which nodes canvasflow cannot run (with why).
 */
import type { Registry } from "../contracts/graph.js";
import { isPlainObject } from "../util/values.js";
import type { DifyNode } from "./graph.js";

export const COMPONENT_OF_TYPE: Readonly<Record<string, string>> = {
  start: "DifyStart",
  end: "DifyEnd",
  answer: "DifyAnswer",
  llm: "DifyLLM",
  "if-else": "DifyIfElse",
  "template-transform": "DifyTemplateTransform",
  code: "DifyCode",
  assigner: "DifyAssigner",
  "variable-aggregator": "DifyVariableAggregator",
  iteration: "DifyIteration",
  "iteration-start": "DifyIterationStart",
  loop: "DifyLoop",
  "loop-start": "DifyLoopStart",
  "loop-end": "DifyLoopEnd",
  tool: "DifyTool",
  "http-request": "DifyHttpRequest",
  "parameter-extractor": "DifyParameterExtractor",
  "knowledge-retrieval": "DifyKnowledgeRetrieval",
  "question-classifier": "DifyQuestionClassifier",
  "list-operator": "DifyListOperator",
  "document-extractor": "DifyDocumentExtractor",
  agent: "DifyAgent",
};

export const UNSUPPORTED_COMPONENT = "DifyUnsupported";

/** Agent strategies canvasflow's Agent runs (Dify's built-in ones); the rest are plugins. */
const AGENT_STRATEGIES: ReadonlySet<string> = new Set(["function_calling", "react"]);

/** Dify's built-in tools and the canvasflow tool each maps to (`provider/tool`). */
export const TOOL_MAP: Readonly<Record<string, string>> = {
  "duckduckgo/ddgo_search": "DuckDuckGo",
  "wikipedia/wikipedia_search": "Wikipedia",
  "tavily/tavily_search": "TavilySearch",
  "searxng/searxng_search": "SearXNG",
  "webscraper/webscraper": "Crawler",
  "jina/jina_reader": "Crawler",
};

/** Built-in tools the tool node runs itself (no provider, no network). */
export const LOCAL_TOOLS: ReadonlySet<string> = new Set(["time/current_time"]);

/** The `provider/tool` key of a tool node (the provider's last path segment: plugin ids name their vendor last). */
export function toolKey(data: Record<string, unknown>): string {
  const provider = String(data.provider_id ?? data.provider_name ?? "");
  return `${provider.split("/").at(-1)}/${String(data.tool_name ?? "")}`;
}

/**
 * The `provider/tool` key of a tool an agent node offers its model (`provider_name`'s last path
 * segment). The agent node and the component policy both read it here, so they agree on the tool.
 */
export function agentToolKey(tool: Record<string, unknown>): string {
  return `${String(tool.provider_name ?? "").split("/").at(-1)}/${String(tool.tool_name ?? "")}`;
}

/** Why canvasflow cannot run this node, or undefined when it can. */
export function unsupportedReason(node: DifyNode, registry: Registry): string | undefined {
  const data = node.data;
  const component = COMPONENT_OF_TYPE[node.type];
  if (!component) return `the node type ${node.type} has no counterpart in canvasflow (RAG pipelines, triggers and human input are not run)`;
  if (node.type === "agent") {
    const strategy = String(data.agent_strategy_name ?? "");
    if (!AGENT_STRATEGIES.has(strategy)) {
      return `the agent strategy ${JSON.stringify(strategy)} of ${String(data.agent_strategy_provider_name ?? "a plugin")} is a Dify plugin; canvasflow runs only function_calling and react`;
    }
  }
  if (node.type === "tool") {
    const key = toolKey(data);
    const provider = String(data.provider_id ?? "");
    if (data.provider_type !== undefined && data.provider_type !== "builtin") return `tool ${key} is a ${String(data.provider_type)} tool; canvasflow runs Dify's built-in tools only`;
    if (provider.split("/").length > 1 && !provider.startsWith("langgenius/")) return `tool ${key} comes from the plugin ${provider}, which canvasflow does not have`;
    if (!LOCAL_TOOLS.has(key)) {
      if (!TOOL_MAP[key]) return `the built-in tool ${key} has no counterpart in canvasflow`;
      if (!registry.has(TOOL_MAP[key])) return `the tool ${TOOL_MAP[key]} that runs ${key} is not registered`;
    }
  }
  if (!registry.has(component)) return `${component}, which runs ${node.type} nodes, is not registered`;
  return undefined;
}

/** The component name a node compiles to. */
export function componentFor(node: DifyNode, registry: Registry): { name: string; reason?: string } {
  const reason = unsupportedReason(node, registry);
  return reason ? { name: UNSUPPORTED_COMPONENT, reason } : { name: COMPONENT_OF_TYPE[node.type] };
}

/** Dify's retry settings as the runner's policy (llm, code, http-request and tool nodes). */
export function retryOf(data: Record<string, unknown>): { attempts: number; delayMs: number } {
  const config = data.retry_config;
  if (!isPlainObject(config) || config.retry_enabled !== true) return { attempts: 1, delayMs: 0 };
  const retries = Math.max(0, Math.min(10, Math.floor(Number(config.max_retries) || 0)));
  const delay = Math.max(0, Math.min(60_000, Number(config.retry_interval) || 0));
  return { attempts: 1 + retries, delayMs: delay };
}
