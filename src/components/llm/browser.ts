/**
 * Browser: a model drives a browser (browser-use) through the task in `prompts` for at most
 * `max_steps` steps (research/ragflow.md §4.1 "Browser"). Files named in `upload_sources` are
 * offered for upload; downloads come back in `downloaded_files`.
 */
import { componentSchema } from "../../dsl/schemas.js";
import { templateReferencesInParams } from "../params.js";
import { llmProvider } from "./model-call.js";
import { positiveInteger } from "../param-checks.js";
import type { ComponentDefinition } from "../types.js";
import { checkLlmId, checkPrompts, checkSampling, LLM_DEFAULTS } from "./llm-params.js";

export const Browser: ComponentDefinition = {
  name: "Browser",
  paramsSchema: componentSchema("Browser"),
  defaults: {
    ...LLM_DEFAULTS,
    prompts: "{sys.query}",
    max_steps: 30,
    headless: true,
    enable_default_extensions: false,
    chromium_sandbox: false,
    persist_session: true,
    upload_sources: [],
  },
  capabilities: { provider: "llm", retriesInternally: true },
  primaryOutput: "content",
  timeoutMs: 1_200_000,
  thoughts: () => "Browser is running...",
  // RAGFlow reads references from the task text and the upload sources only.
  references: (params) => templateReferencesInParams({ prompts: params.prompts, upload_sources: params.upload_sources }),
  check: (params) => [...checkLlmId(params), ...checkSampling(params), ...checkPrompts(params), ...positiveInteger(params, "max_steps")],
  invoke(ctx) {
    // Without a model the LLM provider is what is missing; with one, the browser still is.
    llmProvider(ctx);
    throw new Error("Browser needs a browser automation provider, which canvasflow does not have");
  },
};
