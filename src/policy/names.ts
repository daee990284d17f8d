/**
 * The names a component policy matches: one name per thing that runs, whatever spelling reached
 * it. A RAGFlow component is its component_name; a Dify node is the RAGFlow component doing the
 * same job where there is one (a `code` node is CodeExec, an `http-request` node is Invoke), else
 * its Dify node type; a Dify tool (a tool node, or an agent node's tool) is the canvasflow tool
 * that runs it (`webscraper/webscraper` is Crawler), else its `provider/tool` key. A container's
 * parts are the container (IterationItem is Iteration). So a rule on CodeExec catches a RAGFlow
 * CodeExec, a Dify code node, an Agent's CodeExec tool and a RAGFlow canvas that names DifyCode.
 *
 * The policy's own lists may use any of those spellings: each is read as the name it stands for.
 */
import type { ComponentRegistry } from "../components/registry.js";
import { COMPONENT_OF_TYPE, LOCAL_TOOLS, TOOL_MAP, UNSUPPORTED_COMPONENT as DIFY_UNSUPPORTED } from "../dify/catalog.js";

/** Dify node types and the RAGFlow component that does the same job (docs/server.md, Component policy). */
const DIFY_COUNTERPARTS: Readonly<Record<string, string>> = {
  start: "Begin",
  answer: "Message",
  llm: "LLM",
  agent: "Agent",
  code: "CodeExec",
  "http-request": "Invoke",
  "knowledge-retrieval": "Retrieval",
  "question-classifier": "Categorize",
  "if-else": "Switch",
  iteration: "Iteration",
  "iteration-start": "Iteration",
  loop: "Loop",
  "loop-start": "Loop",
  "loop-end": "Loop",
  "variable-aggregator": "VariableAggregator",
  assigner: "VariableAssigner",
  "list-operator": "ListOperations",
};

/** Components that exist only inside a container: the container stands for them. */
const CONTAINER_PARTS: Readonly<Record<string, string>> = { IterationItem: "Iteration", LoopItem: "Loop", ExitLoop: "Loop" };

/** Dify node types by the canvasflow component that runs them (DifyCode → code). */
const DIFY_TYPE_OF_COMPONENT: ReadonlyMap<string, string> = new Map(Object.entries(COMPONENT_OF_TYPE).map(([type, component]) => [component, type]));

/** The name of a Dify node type (`code` → CodeExec, `end` → end). Tool nodes: see `difyToolName`. */
export function difyTypeName(type: string): string {
  return DIFY_COUNTERPARTS[type] ?? type;
}

/** The name of a Dify tool by its `provider/tool` key (`tavily/tavily_search` → TavilySearch). */
export function difyToolName(key: string): string {
  return TOOL_MAP[key] ?? key;
}

/** The Dify node type a canvasflow component runs (DifyCode → code), if it is one of Dify's. */
export function difyTypeOf(componentName: string): string | undefined {
  return DIFY_TYPE_OF_COMPONENT.get(componentName);
}

/** Whether the component stands for a Dify node canvasflow cannot run (its params say which). */
export function isDifyUnsupported(componentName: string): boolean {
  return componentName === DIFY_UNSUPPORTED;
}

/** The name of a component_name outside Dify's (Dify's: the node type's). */
export function componentNameOf(componentName: string): string {
  const difyType = difyTypeOf(componentName);
  if (difyType !== undefined) return difyTypeName(difyType);
  return CONTAINER_PARTS[componentName] ?? componentName;
}

/**
 * Every spelling a policy list may use for components, with the name it stands for: the
 * registry's component names, Dify's node types and Dify's tool keys.
 */
export function componentSpellings(registry: ComponentRegistry): ReadonlyMap<string, string> {
  const spellings = new Map<string, string>();
  // A Dify tool node is the tool it runs, and an unsupported node runs nothing: neither name stands for one thing.
  for (const def of registry.list()) if (def.name !== COMPONENT_OF_TYPE.tool && !isDifyUnsupported(def.name)) spellings.set(def.name, componentNameOf(def.name));
  for (const type of Object.keys(COMPONENT_OF_TYPE)) if (type !== "tool") spellings.set(type, difyTypeName(type));
  for (const key of [...Object.keys(TOOL_MAP), ...LOCAL_TOOLS]) spellings.set(key, difyToolName(key));
  return spellings;
}

/** The component an Agent's `tools` entry names to run as a sub-agent instead of a tool. */
export const SUB_AGENT = "Agent";

/** Whether a name is something an Agent can hand its model: a registered tool, or a sub-agent. */
export function isToolName(name: string, registry: ComponentRegistry): boolean {
  return name === SUB_AGENT || registry.get(name)?.tool !== undefined;
}
