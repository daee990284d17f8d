/**
 * From a configuration to the services a run's components find in `ctx.services`:
 * `llm` (chat models by llm_id), `tools` (knowledge bases with their embedding and rerank models,
 * tool endpoints, the environment for API keys), `egress` (the egress guard's allow-list) and `mcp` (the
 * MCP servers and their sessions).
 */
import type { EgressServiceOptions, HttpServiceOptions } from "../sandbox/egress/service.js";
import { createLlmProvider } from "../llm/provider.js";
import type { LlmProvider } from "../llm/types.js";
import { McpHub } from "../tools/mcp/hub.js";
import type { CanvasflowConfig, CanvasflowServices } from "./types.js";
import { createKnowledgeModels } from "../knowledge/models.js";
import type { KnowledgeModels } from "../knowledge/model-types.js";

export interface BuildServicesOptions {
  /** Where API keys are read from (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** `services.http` as given (the older spelling of `egress`). */
  http?: HttpServiceOptions;
  /** Added to `services.egress` (whose allow-list is the config's `egress.allow`), e.g. `{ allowPrivateNetwork: true }` from the CLI. */
  egress?: EgressServiceOptions;
  /** Use this provider instead of one made from the config (e.g. everything to the mock). */
  llm?: LlmProvider;
  /** Use these embedding and rerank models instead of ones made from the config. */
  knowledgeModels?: KnowledgeModels;
  /** Run Python unsandboxed (`canvasflow run --trust-code`), whatever the config says. */
  trustCode?: boolean;
}

export function buildServices(config: CanvasflowConfig, options: BuildServicesOptions = {}): CanvasflowServices {
  const env = options.env ?? process.env;
  const services: CanvasflowServices = {
    llm: options.llm ?? createLlmProvider(config, env),
    tools: {
      knowledgeBases: { ...(config.knowledgeBases ?? {}) },
      knowledgeModels: options.knowledgeModels ?? createKnowledgeModels(config, env),
      endpoints: { ...(config.tools ?? {}) },
      env,
      ...(config.files ? { files: { ...config.files } } : {}),
      ...(config.smtp ? { smtp: { ...config.smtp } } : {}),
      ...(config.browser ? { browser: { ...config.browser } } : {}),
    },
    http: { ...(options.http ?? {}) },
    egress: { ...(config.egress?.allow ? { allow: [...config.egress.allow] } : {}), ...(options.egress ?? {}) },
    // Always present, so an Agent's mcp entry that names no configured server says so.
    mcp: new McpHub({ ...(config.mcpServers ?? {}) }, env),
    ...(config.pipelines?.limits ? { parseLimits: { ...config.pipelines.limits } } : {}),
    ...(config.codeExec || options.trustCode ? { codeExec: { ...(config.codeExec ?? {}), ...(options.trustCode ? { trustCode: true } : {}) } } : {}),
  };
  // A pipeline runs with the services it chunks for (its Extractor's models); the pipelines'
  // modules load only when a knowledge base names one.
  services.tools!.pipelineChunker = async (file) => (await import("../pipelines/kb-chunker.js")).openPipelineChunker(file, { ...services });
  return services;
}
