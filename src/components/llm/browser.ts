/**
 * Browser: a model drives a browser through the task in `prompts` for at most `max_steps` steps
 * (research/ragflow.md §4.1 "Browser"; RAGFlow uses browser-use, here the Agent tool loop drives
 * Debian's Chromium through playwright-core, see tools/browser/). Downloads come back in
 * `downloaded_files`. Without Chromium the component fails with an UnavailableError saying how
 * to install it. `upload_sources`, `enable_default_extensions` and `persist_session` are accepted
 * and not used: each run starts a fresh, extension-less profile.
 */
import { componentSchema } from "../../dsl/schemas.js";
import { templateReferencesInParams } from "../params.js";
import { chatModelFor, llmProvider, requestBase } from "./model-call.js";
import { finish, toolLoop } from "./agent-loop.js";
import { preparePrompt, withSystem } from "./prompt.js";
import { joinPrompts } from "./llm-answer.js";
import { finiteNumber } from "../../util/values.js";
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
  async invoke(ctx) {
    // Without a model the LLM provider is what is missing.
    llmProvider(ctx);
    const params = ctx.params;
    const model = chatModelFor(ctx, params);
    const prompt = preparePrompt(ctx, params);
    const steps = finiteNumber(params.max_steps);
    // The browser driver (playwright-core) and its proxy are loaded when a Browser first runs.
    const { BROWSER_SYSTEM_PROMPT, runBrowserTask } = await import("../../tools/browser/run-browser.js");
    const result = await runBrowserTask({
      services: ctx.services,
      signal: ctx.signal,
      headless: params.headless !== false,
      sandbox: params.chromium_sandbox === true,
      actionTimeoutMs: 30_000,
      drive: (functions) =>
        finish(
          toolLoop(
            {
              model,
              base: requestBase(params, ctx.signal),
              messages: withSystem(joinPrompts(BROWSER_SYSTEM_PROMPT, prompt.system), prompt.messages),
              functions,
              maxRounds: steps !== undefined && steps >= 1 ? Math.floor(steps) : 30,
              onUsage: (usage) => ctx.addUsage(usage),
              tracer: ctx,
            },
            false,
          ),
        ),
    });
    ctx.setOutput("content", result.content);
    ctx.setOutput("downloaded_files", result.downloaded_files);
  },
};
