/**
 * Agent: an LLM that may call tools, sub-agents and MCP servers in a ReAct loop of at most
 * `max_rounds` (research/ragflow.md §4.1 "Agent"). Each `tools` entry is
 * `{component_name, name, params, id?}`; `component_name: "Agent"` is a sub-agent with tools of
 * its own. RAGFlow instantiates every tool when the canvas loads, so a tool it cannot build fails
 * the load: here the same problems are reported by validation, each pointing at its entry.
 */
import { componentSchema } from "../../dsl/schemas.js";
import { paramsWithDefaults } from "../params.js";
import type { Reference } from "../../refs/grammar.js";
import { isPlainObject, jsonPointer } from "../../util/values.js";
import { nestedProblems, nonNegativeInteger } from "../param-checks.js";
import type { CheckInfo, ComponentDefinition, ParamProblem, Params } from "../types.js";
import { agentAnswer } from "./agent-answer.js";
import { checkLlmParams, LLM_DEFAULTS, LLM_THOUGHTS, promptReferences } from "./llm-params.js";
import { checkStructuredSchema } from "./structured.js";

const AGENT_DEFAULTS: Readonly<Params> = {
  ...LLM_DEFAULTS,
  tools: [],
  mcp: [],
  max_rounds: 5,
  description: "",
  function_name: "agent",
  user_prompt: "",
};

/** Tool names RAGFlow's editor offers or once offered that RAGFlow cannot run either. */
const NOT_IN_RAGFLOW: Readonly<Record<string, string>> = {
  Bing: "RAGFlow has no Bing tool either",
  RewriteQuestion: "RAGFlow has no RewriteQuestion tool either",
  WaitingDialogue: "RAGFlow has no WaitingDialogue tool either",
  Jin10: "RAGFlow's Jin10 tool is legacy code that cannot run either",
  TuShare: "RAGFlow's TuShare tool is legacy code that cannot run either",
};

interface ToolEntry {
  component_name?: unknown;
  params?: unknown;
}

/** Where a list of tools sits: its JSON pointer and how messages name it ("tools", "tools[1].tools"). */
interface ToolsLocation {
  pointer: string;
  label: string;
}

function toolParams(entry: ToolEntry): Params {
  return isPlainObject(entry.params) ? entry.params : {};
}

/** Every entry of `tools` must name a sub-agent or a registered component that can be a tool. */
function checkTools(tools: unknown, info: CheckInfo, at: ToolsLocation): ParamProblem[] {
  if (!Array.isArray(tools)) return [];
  const problems: ParamProblem[] = [];
  tools.forEach((raw, i) => {
    const label = `${at.label}[${i}]`;
    const pointer = `${at.pointer}/${i}`;
    // The schema reports entries that are not objects.
    if (!isPlainObject(raw)) return;
    const entry = raw as ToolEntry;
    const name = entry.component_name;
    if (typeof name !== "string" || name === "") {
      problems.push({ pointer: `${pointer}/component_name`, message: `${label} has no component_name` });
      return;
    }
    const params = toolParams(entry);
    if (name === "Agent") {
      const sub = paramsWithDefaults(Agent, params);
      problems.push(...nestedProblems(checkAgent(sub, info, { pointer: "/tools", label: `${label}.tools` }), `${pointer}/params`, `sub-agent (${label})`));
      return;
    }
    const def = info.componentType(name);
    if (!def) {
      const why = NOT_IN_RAGFLOW[name] ?? "no component of that type is registered";
      problems.push({ pointer: `${pointer}/component_name`, message: `tool "${name}" (${label}) has no implementation: ${why}` });
      return;
    }
    if (!def.usableAsTool) {
      problems.push({ pointer: `${pointer}/component_name`, message: `tool "${name}" (${label}) cannot be an Agent tool: ${name} is a canvas component, not a tool` });
      return;
    }
    if (def.check) {
      let found: ParamProblem[];
      try {
        found = def.check(paramsWithDefaults(def, params), info);
      } catch (error) {
        found = [{ pointer: "", message: `check failed: ${(error as Error).message}` }];
      }
      problems.push(...nestedProblems(found, `${pointer}/params`, `tool "${name}" (${label})`));
    }
  });
  return problems;
}

/** Agent problems with the nested pointers of its sub-agents' problems already applied. */
function checkAgent(params: Params, info: CheckInfo, tools: ToolsLocation): ParamProblem[] {
  return [...checkLlmParams(params), ...checkStructuredSchema(params), ...nonNegativeInteger(params, "max_rounds"), ...checkTools(params.tools, info, tools)];
}

/** Prompt references of an Agent and of its sub-agents: their prompts are rendered from the same canvas. */
function agentReferences(params: Params): Reference[] {
  const refs = promptReferences(params);
  if (Array.isArray(params.tools)) {
    for (const entry of params.tools as ToolEntry[]) {
      if (entry && typeof entry === "object" && entry.component_name === "Agent") {
        refs.push(...agentReferences(paramsWithDefaults(Agent, toolParams(entry))));
      }
    }
  }
  return refs;
}

export const Agent: ComponentDefinition = {
  name: "Agent",
  paramsSchema: componentSchema("Agent"),
  defaults: { ...AGENT_DEFAULTS },
  capabilities: { provider: "llm", retriesInternally: true },
  // A sub-agent is an Agent used as a tool (agent_with_tools.py: AgentParam is a ToolParamBase).
  usableAsTool: true,
  primaryOutput: "content",
  timeoutMs: 1_200_000,
  thoughts: () => LLM_THOUGHTS,
  references: agentReferences,
  check: (params, info) => checkAgent(params, info, { pointer: jsonPointer("tools"), label: "tools" }),
  async invoke(ctx) {
    const answer = await agentAnswer(ctx, ctx.params, { topLevel: true, label: ctx.id, signal: ctx.signal, agentDefaults: AGENT_DEFAULTS });
    ctx.setOutput("content", answer.content);
    if (answer.structured !== undefined) ctx.setOutput("structured", answer.structured);
  },
};
