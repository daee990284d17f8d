/**
 * From a RAGFlow llm_id to a chat model. RAGFlow writes `model@Factory`,
 * `org/model@default@FACTORY`, `model___OpenAI-API@OpenAI-API-Compatible` or a bare name; the
 * config says which OpenAI-compatible endpoint answers for it. Resolution order:
 *
 * 1. `config.models[llmId]` (the id exactly as in the DSL);
 * 2. `config.models[model part]` (before the first `@`), then the same without RAGFlow's
 *    `___Suffix` marker (`glm-4-flash___OpenAI-API` → `glm-4-flash`);
 * 3. `config.defaultModel`;
 * 4. the environment: `OPENAI_BASE_URL` and/or `OPENAI_API_KEY`, with `CANVASFLOW_MODEL` as the
 *    model name (else the llm_id's model part).
 *
 * An empty llm_id (RAGFlow's templates ship that way, meaning "the tenant's default model") uses
 * `models[""]` when present, then 3 and 4 (the environment then needs CANVASFLOW_MODEL).
 */
import type { CanvasflowConfig, ModelRoute, ProviderConfig } from "../config/types.js";
import { describeRequester, ModelResolutionError } from "./errors.js";
import { OpenAIChatModel } from "./openai-chat-model.js";
import { LazyOpenAIClient } from "./openai-sdk.js";
import type { ChatModel, LlmProvider, ModelRequester } from "./types.js";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Sent as the bearer token to servers that need none (the openai client insists on one). */
const NO_API_KEY = "canvasflow-no-key";

/** What an llm_id resolved to: where to send requests, and under which model name. */
export interface ResolvedModel {
  llmId: string;
  /** The name the server knows the model by. */
  model: string;
  /** The provider's name in the config, or "environment". */
  provider: string;
  baseURL: string;
  apiKey: string | undefined;
  headers: Record<string, string>;
  /** The route's maxContextTokens, when it gives one. */
  maxContextTokens?: number;
  /** Where the route came from, for messages: `models["deepseek-chat"]`, `defaultModel`, `environment`. */
  via: string;
}

/** `deepseek-chat@DeepSeek` → `deepseek-chat`; `Qwen/Qwen3-8B@default@SILICONFLOW` → `Qwen/Qwen3-8B`. */
export function modelPart(llmId: string): string {
  const at = llmId.indexOf("@");
  return (at < 0 ? llmId : llmId.slice(0, at)).trim();
}

/** The model part without RAGFlow's `___Factory` marker: `glm-4-flash___OpenAI-API` → `glm-4-flash`. */
export function bareModelName(llmId: string): string {
  const part = modelPart(llmId);
  const marker = part.indexOf("___");
  return marker > 0 ? part.slice(0, marker) : part;
}

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/** Where the route for an llm_id is in the config, if anywhere. */
function configuredRoute(config: CanvasflowConfig, llmId: string): { route: ModelRoute; via: string } | undefined {
  const models = config.models ?? {};
  const keys = [llmId, modelPart(llmId), bareModelName(llmId)];
  for (const key of keys) {
    if (Object.hasOwn(models, key)) return { route: models[key], via: `models[${JSON.stringify(key)}]` };
  }
  if (config.defaultModel) return { route: config.defaultModel, via: "defaultModel" };
  return undefined;
}

function checkBaseURL(baseURL: string, where: string, fail: (message: string) => never): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    fail(`${where} is not a URL: "${baseURL}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") fail(`${where} must be an http:// or https:// URL, got "${baseURL}"`);
  return baseURL.replace(/\/+$/, "");
}

/** Resolve an llm_id, or throw a ModelResolutionError that says what to configure. */
export function resolveModel(config: CanvasflowConfig, llmId: string, requester: ModelRequester, env: Env = process.env): ResolvedModel {
  const who = describeRequester(requester);
  const subject = llmId.trim() === "" ? `the empty llm_id of ${who}` : `llm_id "${llmId}" of ${who}`;
  const fail = (message: string): never => {
    throw new ModelResolutionError(llmId, requester, `cannot resolve ${subject}: ${message}`);
  };

  const found = configuredRoute(config, llmId);
  if (found) {
    const { route, via } = found;
    const providers = config.providers ?? {};
    if (typeof route?.provider !== "string" || !Object.hasOwn(providers, route.provider)) {
      const known = Object.keys(providers);
      fail(`${via} names the provider ${JSON.stringify(route?.provider)}, which is not in "providers" (${known.length > 0 ? `it has ${known.join(", ")}` : "there are none"})`);
    }
    const provider: ProviderConfig = providers[route.provider];
    const model = nonEmpty(route.model) ?? bareModelName(llmId);
    if (!model) fail(`${via} names no "model", and the llm_id has no model name to use instead`);
    let apiKey: string | undefined;
    if (provider.apiKeyEnv) {
      apiKey = nonEmpty(env[provider.apiKeyEnv]);
      if (!apiKey) fail(`provider "${route.provider}" takes its API key from the environment variable ${provider.apiKeyEnv}, which is not set`);
    }
    const baseURL = checkBaseURL(provider.baseURL, `providers["${route.provider}"].baseURL`, fail);
    const window = route.maxContextTokens;
    return { llmId, model, provider: route.provider, baseURL, apiKey, headers: { ...(provider.headers ?? {}) }, via, ...(window !== undefined ? { maxContextTokens: window } : {}) };
  }

  const envBaseURL = nonEmpty(env.OPENAI_BASE_URL);
  const envKey = nonEmpty(env.OPENAI_API_KEY);
  if (envBaseURL || envKey) {
    const model = nonEmpty(env.CANVASFLOW_MODEL) ?? bareModelName(llmId);
    if (!model) fail("CANVASFLOW_MODEL is not set, so OPENAI_BASE_URL / OPENAI_API_KEY have no model to ask for");
    const baseURL = checkBaseURL(envBaseURL ?? OPENAI_DEFAULT_BASE_URL, "OPENAI_BASE_URL", fail);
    return { llmId, model, provider: "environment", baseURL, apiKey: envKey, headers: {}, via: "environment" };
  }

  const keys = [...new Set([llmId, modelPart(llmId), bareModelName(llmId)].filter((k) => k !== ""))].map((k) => JSON.stringify(k));
  const where = keys.length > 0 ? `add ${keys.join(" or ")} to "models" in canvasflow.config.json, or set "defaultModel"` : `set "defaultModel" in canvasflow.config.json`;
  return fail(
    `no model is configured for it. To configure one: ${where} (see docs/configuration.md); ` +
      "or set OPENAI_BASE_URL and OPENAI_API_KEY (and CANVASFLOW_MODEL) in the environment; " +
      "or run with --mock-llm to answer with the built-in mock",
  );
}

/** Resolves llm_ids through a config, with one openai client per endpoint and key. */
class ConfiguredLlmProvider implements LlmProvider {
  private readonly clients = new Map<string, LazyOpenAIClient>();
  private readonly models = new Map<string, ChatModel>();

  constructor(
    private readonly config: CanvasflowConfig,
    private readonly env: Env,
  ) {}

  chatModel(llmId: string, requester: ModelRequester): ChatModel {
    const resolved = resolveModel(this.config, llmId, requester, this.env);
    const clientKey = JSON.stringify([resolved.provider, resolved.baseURL, resolved.apiKey ?? "", resolved.headers]);
    const modelKey = JSON.stringify([clientKey, resolved.model, llmId, resolved.maxContextTokens ?? null]);
    const cached = this.models.get(modelKey);
    if (cached) return cached;
    let client = this.clients.get(clientKey);
    if (!client) {
      client = new LazyOpenAIClient({
        baseURL: resolved.baseURL,
        apiKey: resolved.apiKey ?? NO_API_KEY,
        // Explicit, so the client never reads these from the environment on its own.
        organization: null,
        project: null,
        webhookSecret: null,
        defaultHeaders: resolved.headers,
        // Retries are ours (retry.ts): 429 and 5xx only, as the component's max_retries says.
        maxRetries: 0,
      });
      this.clients.set(clientKey, client);
    }
    const model = new OpenAIChatModel({ llmId, model: resolved.model, client, ...(resolved.maxContextTokens !== undefined ? { maxContextTokens: resolved.maxContextTokens } : {}) });
    this.models.set(modelKey, model);
    return model;
  }
}

/** The LLM provider a run uses (`services.llm`), from a config and the environment. */
export function createLlmProvider(config: CanvasflowConfig, env: NodeJS.ProcessEnv | Env = process.env): LlmProvider {
  return new ConfiguredLlmProvider(config, env);
}
