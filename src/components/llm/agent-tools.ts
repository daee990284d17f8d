/**
 * The functions an Agent offers its model, built from its `tools` (canvas tool components and
 * sub-agents) and `mcp` entries. Function names are made unique as RAGFlow does,
 * `<function name>_<index in tools>`.
 */
import type { FunctionTool } from "../../llm/types.js";
import { toolSpans, type ToolContext } from "../../tools/types.js";
import { finiteNumber, isPlainObject } from "../../util/values.js";
import { paramsWithDefaults } from "../params.js";
import type { ComponentDefinition, Params, ReferenceChunk, ReferenceDocument } from "../types.js";
import type { AgentFunction } from "./agent-loop.js";
import { functionName, type ToolHost } from "./agent-host.js";
import { mcpFunctions } from "./agent-mcp.js";
import type { PromptMessage } from "./prompt.js";

/** RAGFlow's AgentParam.meta: what a supervisor model sends a sub-agent. */
const SUB_AGENT_DESCRIPTION = "This is an agent for a specific task.";
const SUB_AGENT_PARAMETERS = {
  user_prompt: "This is the order you need to send to the agent.",
  reasoning: "Supervisor's reasoning for choosing this agent. Explain why this agent is being invoked and what is expected of it.",
  context:
    "All relevant background information, prior facts, decisions, and state needed by the agent to solve the current query. Should be as detailed and self-contained as possible.",
};

/** A sub-agent's task as RAGFlow writes it from the supervisor's arguments. */
export function subAgentTask(args: Record<string, unknown>): PromptMessage[] {
  const text = (key: string) => (typeof args[key] === "string" ? (args[key] as string) : args[key] === undefined || args[key] === null ? "" : JSON.stringify(args[key]));
  const query = text("user_prompt");
  let prompt = "";
  if (text("reasoning") !== "") prompt += `\nREASONING:\n${text("reasoning")}\n`;
  if (text("context") !== "") prompt += `\nCONTEXT:\n${text("context")}\n`;
  prompt = prompt === "" ? query : `${prompt}\nQUERY:\n${query}\n`;
  return [{ role: "user", content: prompt }];
}

function subAgentSchema(name: string, params: Params): FunctionTool {
  const description = typeof params.description === "string" && params.description.trim() !== "" ? params.description : SUB_AGENT_DESCRIPTION;
  // RAGFlow puts a non-empty user_prompt param in place of the property's schema; here it describes the property.
  const order = typeof params.user_prompt === "string" && params.user_prompt.trim() !== "" ? params.user_prompt : SUB_AGENT_PARAMETERS.user_prompt;
  return {
    type: "function",
    function: {
      name,
      description,
      parameters: {
        type: "object",
        properties: {
          user_prompt: { type: "string", description: order },
          reasoning: { type: "string", description: SUB_AGENT_PARAMETERS.reasoning },
          context: { type: "string", description: SUB_AGENT_PARAMETERS.context },
        },
        required: ["user_prompt", "reasoning", "context"],
      },
    },
  };
}

/** A tool's time limit inside an Agent: its `exec_timeout` param (s), else its type's default. */
function toolTimeoutMs(def: ComponentDefinition, params: Params): number | undefined {
  const own = finiteNumber(params.exec_timeout);
  if (own !== undefined && own > 0) return own * 1000;
  const declared = typeof def.timeoutMs === "function" ? def.timeoutMs(params) : def.timeoutMs;
  return typeof declared === "number" && declared > 0 ? declared : undefined;
}

/** Run `work` with its own abort signal, aborted by the Agent's signal or after `timeoutMs`. */
async function withTimeout<T>(signal: AbortSignal, timeoutMs: number | undefined, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const limit = new Promise<never>((_, reject) => {
      if (timeoutMs === undefined) return;
      timer = setTimeout(() => {
        const error = new Error(`${what} timed out after ${timeoutMs / 1000}s`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    return await Promise.race([work(controller.signal), limit]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

interface ToolEntry {
  component_name?: unknown;
  name?: unknown;
  params?: unknown;
}

function toolFunction(host: ToolHost, entry: ToolEntry, index: number): AgentFunction {
  const type = entry.component_name as string;
  const def = host.ctx.canvas.componentType(type);
  const binding = def?.tool;
  if (!def || !binding) throw new Error(`tools[${index}]: "${type}" cannot be called by an Agent (no tool of that type is registered)`);
  const params = paramsWithDefaults(def, isPlainObject(entry.params) ? entry.params : {});
  const name = functionName(binding.functionName, index);
  const base = binding.schema(params);
  const schema: FunctionTool = { ...base, function: { ...base.function, name } };
  const toolName = typeof entry.name === "string" && entry.name.trim() !== "" ? entry.name : type;
  const label = `${host.label} → ${toolName}`;
  const timeoutMs = toolTimeoutMs(def, params);
  return {
    name,
    schema,
    call: (args) =>
      withTimeout(host.signal, timeoutMs, `tool ${toolName}`, async (signal) => {
        const toolCtx: ToolContext = {
          signal,
          services: host.ctx.services,
          params,
          label,
          addReferences: (chunks: readonly ReferenceChunk[], documents?: readonly ReferenceDocument[]) => {
            host.ctx.addReferences(chunks, documents);
            host.onReferences(chunks);
          },
          addUsage: (usage) => host.ctx.addUsage(usage),
          get: (selector) => host.ctx.get(selector),
          ...toolSpans(host.ctx),
        };
        const output = await binding.run(args, toolCtx);
        const text = output?.formalized_content;
        return typeof text === "string" ? text : JSON.stringify(output ?? null);
      }),
  };
}

function subAgentFunction(host: ToolHost, entry: ToolEntry, index: number, agentDefaults: Params): AgentFunction {
  const params: Params = { ...structuredClone(agentDefaults), ...(isPlainObject(entry.params) ? entry.params : {}) };
  const title = typeof entry.name === "string" && entry.name.trim() !== "" ? entry.name : "agent";
  const name = functionName(title, index);
  return {
    name,
    schema: subAgentSchema(name, params),
    call: (args) => host.runSubAgent(params, subAgentTask(args), `${host.label} → ${title}`),
  };
}

/** Every function of an Agent: its tools and sub-agents in order, then its MCP tools. */
export async function agentFunctions(host: ToolHost, params: Params, agentDefaults: Params): Promise<AgentFunction[]> {
  const functions: AgentFunction[] = [];
  const tools = Array.isArray(params.tools) ? (params.tools as unknown[]) : [];
  tools.forEach((raw, index) => {
    if (!isPlainObject(raw)) throw new Error(`tools[${index}] must be an object {component_name, name, params}`);
    const entry = raw as ToolEntry;
    if (typeof entry.component_name !== "string" || entry.component_name === "") throw new Error(`tools[${index}] has no component_name`);
    functions.push(entry.component_name === "Agent" ? subAgentFunction(host, entry, index, agentDefaults) : toolFunction(host, entry, index));
  });
  functions.push(...(await mcpFunctions(host, params, new Set(functions.map((f) => f.name)))));
  return functions;
}
