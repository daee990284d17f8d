/**
 * LLM: one chat completion over the rendered prompts (research/ragflow.md §4.1 "LLM"). The current
 * RAGFlow editor writes an Agent without tools instead, but stored canvases still hold LLM nodes.
 */
import { componentSchema } from "../../dsl/schemas.js";
import type { ComponentDefinition } from "../types.js";
import { llmAnswer } from "./llm-answer.js";
import { checkLlmParams, LLM_DEFAULTS, LLM_THOUGHTS, promptReferences } from "./llm-params.js";
import { shouldStream } from "./streaming.js";
import { checkStructuredSchema, structuredSchema } from "./structured.js";

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
  check: (params) => [...checkLlmParams(params), ...checkStructuredSchema(params)],
  async invoke(ctx) {
    const stream = structuredSchema(ctx.params) === undefined && shouldStream(ctx);
    const answer = await llmAnswer(ctx, ctx.params, { stream, signal: ctx.signal, onUsage: (usage) => ctx.addUsage(usage) });
    ctx.setOutput("content", answer.content);
    if (answer.structured !== undefined) ctx.setOutput("structured", answer.structured);
  },
};
