/**
 * LLM: one chat completion over the rendered prompts (research/ragflow.md §4.1 "LLM"). The current
 * RAGFlow editor writes an Agent without tools instead, but stored canvases still hold LLM nodes.
 */
import { componentSchema } from "../../dsl/schemas.js";
import { needsProvider } from "../needs-provider.js";
import type { ComponentDefinition } from "../types.js";
import { checkLlmParams, LLM_DEFAULTS, LLM_THOUGHTS, promptReferences } from "./llm-params.js";

export const LLM: ComponentDefinition = {
  name: "LLM",
  paramsSchema: componentSchema("LLM"),
  defaults: { ...LLM_DEFAULTS },
  // The model client retries on its own (max_retries, delay_after_error), as LLMBundle does.
  capabilities: { provider: "llm", retriesInternally: true },
  primaryOutput: "content",
  timeoutMs: 600_000,
  thoughts: () => LLM_THOUGHTS,
  references: promptReferences,
  check: checkLlmParams,
  invoke: needsProvider("llm"),
};
