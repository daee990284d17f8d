/**
 * A registry whose LLM and tool components answer without any provider, so tests can run whole
 * canvases: an Agent/LLM replies "[<id>] <its user prompt, rendered>", Categorize picks the first
 * category whose name appears in the text it classifies (else the last one, as RAGFlow does when
 * the model names none), and a tool returns "<id> results for <its input, rendered>".
 */
import { builtinRegistry } from "../../src/components/builtins.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import type { ComponentRegistry } from "../../src/components/registry.js";
import type { Params } from "../../src/dsl/types.js";

/** The param that holds a tool node's input, by tool. */
const TOOL_INPUT: Readonly<Record<string, string>> = { Google: "q", ExeSQL: "sql", YahooFinance: "stock_code", CodeExec: "script" };

function userPrompt(params: Params): string {
  const prompts = params.prompts;
  if (typeof prompts === "string") return prompts;
  const first = Array.isArray(prompts) ? (prompts[0] as { content?: unknown } | undefined) : undefined;
  return typeof first?.content === "string" ? first.content : "";
}

function fakeModel(def: ComponentDefinition): ComponentDefinition {
  return {
    ...def,
    invoke(ctx) {
      ctx.setOutput("content", `[${ctx.id}] ${ctx.render(userPrompt(ctx.params))}`);
    },
  };
}

function fakeCategorize(def: ComponentDefinition): ComponentDefinition {
  return {
    ...def,
    invoke(ctx) {
      const query = typeof ctx.params.query === "string" && ctx.params.query !== "" ? ctx.params.query : "sys.query";
      const text = String(ctx.get(query) ?? "").toLowerCase();
      const categories = Object.entries((ctx.params.category_description ?? {}) as Record<string, { to?: string[] }>);
      const chosen = categories.find(([name]) => text.includes(name.toLowerCase())) ?? categories.at(-1);
      if (!chosen) throw new Error("no category");
      ctx.setOutput("category_name", chosen[0]);
      return { next: chosen[1].to ?? [] };
    },
  };
}

function fakeTool(def: ComponentDefinition): ComponentDefinition {
  return {
    ...def,
    invoke(ctx) {
      const input = ctx.params[TOOL_INPUT[def.name] ?? "query"];
      const text = typeof input === "string" ? ctx.render(input) : "";
      ctx.setOutput(def.primaryOutput ?? "formalized_content", `${ctx.id} results for ${text}`);
    },
  };
}

export function fakeProviderRegistry(): ComponentRegistry {
  const registry = builtinRegistry().extend();
  for (const def of registry.list()) {
    const provider = def.capabilities?.provider;
    if (def.name === "Categorize") registry.register(fakeCategorize(def), { replace: true });
    else if (provider === "llm") registry.register(fakeModel(def), { replace: true });
    else if (provider === "tool") registry.register(fakeTool(def), { replace: true });
  }
  return registry;
}
