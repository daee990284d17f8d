/**
 * Dify's agent node with its built-in strategies (`function_calling`, `react`), on canvasflow's
 * Agent loop: the model answers `instruction` and `query`, calling the node's tools (those of
 * Dify's built-in tools canvasflow has, catalog.ts) for up to `maximum_iterations` rounds. Both
 * strategies use the model's function calling (a ReAct prompt is the model's own business).
 * Plugin strategies are unsupported (catalog.ts).
 * Outputs `text`, `files`, `json`, `usage`.
 */
import { finish, toolLoop, type AgentFunction } from "../../components/llm/agent-loop.js";
import type { ComponentContext, ComponentDefinition, ParamProblem, UsageReport } from "../../components/types.js";
import { toolSpans, type ToolContext } from "../../tools/types.js";
import { isPlainObject } from "../../util/values.js";
import { agentToolKey, TOOL_MAP } from "../catalog.js";
import { templateReferences } from "../references.js";
import { list, readSelector, record, renderText } from "./common.js";
import { chatModelOf, samplingOf } from "./llm.js";

/** An agent parameter's value: `{type, value}` (mixed: a template, variable: a selector, constant). */
function parameter(ctx: ComponentContext, name: string): unknown {
  const entry = record(ctx.params.agent_parameters)[name];
  if (!isPlainObject(entry)) return entry;
  if (entry.type === "variable") return readSelector(ctx, entry.value);
  if (entry.type === "mixed") return renderText(ctx, entry.value ?? "");
  return entry.value;
}

/** The agent's model as an LLM node spells one (`model` is `name` there). */
function modelOf(value: unknown): Record<string, unknown> {
  const m = record(value);
  return { provider: m.provider, name: m.model ?? m.name, completion_params: m.completion_params };
}

/** The node's enabled tools that canvasflow has, as functions the model may call. */
function functions(ctx: ComponentContext): AgentFunction[] {
  const out: AgentFunction[] = [];
  for (const tool of list(parameter(ctx, "tools")).filter(isPlainObject)) {
    if (tool.enabled === false) continue;
    const key = agentToolKey(tool);
    const def = TOOL_MAP[key] ? ctx.canvas.componentType(TOOL_MAP[key]) : undefined;
    if (!def?.tool) throw new Error(`the agent's tool ${key} is not available in canvasflow`);
    const binding = def.tool;
    const params = { ...(def.defaults ?? {}) };
    const schema = binding.schema(params);
    out.push({
      name: schema.function.name,
      schema,
      call: async (args) => {
        const toolContext: ToolContext = {
          signal: ctx.signal,
          services: ctx.services,
          params,
          label: `${ctx.id} → ${key}`,
          addReferences: (chunks, documents) => ctx.addReferences(chunks, documents),
          addUsage: (usage) => ctx.addUsage(usage),
          get: (selector) => ctx.get(selector),
          ...toolSpans(ctx),
        };
        const output = await binding.run(args, toolContext);
        // A tool without a text result is shown to the model as its JSON.
        const text = output?.formalized_content;
        return typeof text === "string" ? text : JSON.stringify(output ?? null);
      },
    });
  }
  return out;
}

export const DifyAgent: ComponentDefinition = {
  name: "DifyAgent",
  capabilities: { provider: "llm" },
  timeoutMs: 600_000,
  thoughts: () => "",
  references: (params) =>
    Object.values(record(params.agent_parameters)).flatMap((entry) => (isPlainObject(entry) && entry.type === "mixed" ? templateReferences(entry.value) : [])),
  check(params): ParamProblem[] {
    const model = record(record(params.agent_parameters).model).value;
    return isPlainObject(model) ? [] : [{ pointer: "/agent_parameters/model", message: "the agent needs a model" }];
  },
  async invoke(ctx) {
    const model = modelOf(parameter(ctx, "model"));
    const instruction = String(parameter(ctx, "instruction") ?? "");
    const query = String(parameter(ctx, "query") ?? ctx.query);
    ctx.setInput("query", query);
    const usage: UsageReport = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const iterations = Math.max(1, Math.min(99, Math.floor(Number(parameter(ctx, "maximum_iterations")) || 5)));
    const text = await finish(
      toolLoop(
        {
          model: chatModelOf(ctx, model),
          base: { ...samplingOf(model), retry: { maxRetries: 0, delayMs: 0 }, signal: ctx.signal },
          messages: [...(instruction !== "" ? [{ role: "system" as const, content: instruction }] : []), { role: "user", content: query }],
          functions: functions(ctx),
          maxRounds: iterations,
          tracer: ctx,
          onUsage: (report) => {
            ctx.addUsage(report);
            usage.prompt_tokens += report.prompt_tokens;
            usage.completion_tokens += report.completion_tokens;
            usage.total_tokens = (usage.total_tokens ?? 0) + (report.total_tokens ?? report.prompt_tokens + report.completion_tokens);
          },
        },
        false,
      ),
    );
    ctx.setOutput("text", text);
    ctx.setOutput("files", []);
    ctx.setOutput("json", []);
    ctx.setOutput("usage", usage);
  },
};
