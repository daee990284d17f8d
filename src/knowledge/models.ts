/**
 * From the configuration to the embedding and rerank models of local knowledge bases.
 *
 * - A local knowledge base embeds with its own `embedding`, else the config's `embedding`; with
 *   neither (or `"embedding": false`) it is searched by keywords only.
 * - A Retrieval's `rerank_id` is routed like an llm_id: `rerankModels[rerank_id]`, then its model
 *   part (before the first "@"), then without RAGFlow's `___Factory` marker, then
 *   `defaultRerankModel`.
 *
 * Under `--mock-llm` every endpoint is the mock's, and a rerank_id without a route is answered by
 * the mock too, as every llm_id is.
 */
import type { CanvasflowConfig, EmbeddingConfig, LocalKnowledgeBaseConfig, ModelRoute } from "../config/types.js";
import { UnavailableError } from "../components/unavailable.js";
import { bareModelName, modelPart } from "../llm/provider.js";
import { OpenAIEmbeddingModel } from "./embedding-client.js";
import type { EmbeddingModel, KnowledgeModels, RerankModel } from "./model-types.js";
import { HttpRerankModel } from "./rerank-client.js";
import type { RetryPolicy } from "./retrying.js";

/** The provider name of every model under --mock-llm (so the mock's vectors are cached apart from a real model's). */
const MOCK_PROVIDER = "mock-llm";

type Env = Readonly<Record<string, string | undefined>>;

export interface KnowledgeModelsOptions {
  /** Send every embedding and rerank request to this base URL (the mock's), without keys. */
  redirectTo?: string;
  /** Overrides the retry policy (tests use short waits). */
  retry?: RetryPolicy;
}

interface Endpoint {
  baseURL: string;
  apiKey: string | undefined;
  headers: Record<string, string>;
}

class ConfiguredKnowledgeModels implements KnowledgeModels {
  private readonly embeddings = new Map<string, EmbeddingModel>();
  private readonly rerankers = new Map<string, RerankModel>();

  constructor(
    private readonly config: CanvasflowConfig,
    private readonly env: Env,
    private readonly options: KnowledgeModelsOptions,
  ) {}

  private endpoint(provider: string, where: string): Endpoint {
    if (this.options.redirectTo !== undefined) return { baseURL: this.options.redirectTo, apiKey: undefined, headers: {} };
    const providers = this.config.providers ?? {};
    if (!Object.hasOwn(providers, provider)) throw new UnavailableError(`${where} names the provider "${provider}", which is not in "providers" of the configuration`);
    const p = providers[provider];
    let apiKey: string | undefined;
    if (p.apiKeyEnv) {
      apiKey = this.env[p.apiKeyEnv]?.trim() || undefined;
      if (!apiKey) throw new UnavailableError(`${where}: provider "${provider}" takes its API key from the environment variable ${p.apiKeyEnv}, which is not set`);
    }
    return { baseURL: p.baseURL, apiKey, headers: { ...(p.headers ?? {}) } };
  }

  embeddingFor(kb: LocalKnowledgeBaseConfig, id: string): EmbeddingModel | undefined {
    if (kb.embedding === false) return undefined;
    const config: EmbeddingConfig | undefined = kb.embedding ?? this.config.embedding;
    if (!config) return undefined;
    const where = kb.embedding ? `the embedding of knowledge base "${id}"` : `the default embedding (used by knowledge base "${id}")`;
    const endpoint = this.endpoint(config.provider, where);
    const cacheKey = JSON.stringify([endpoint, config.model, config.dimensions ?? null, config.batchSize ?? null]);
    let model = this.embeddings.get(cacheKey);
    if (!model) {
      const provider = this.options.redirectTo !== undefined ? MOCK_PROVIDER : config.provider;
      model = new OpenAIEmbeddingModel({ ...endpoint, provider, model: config.model, dimensions: config.dimensions, batchSize: config.batchSize, retry: this.options.retry });
      this.embeddings.set(cacheKey, model);
    }
    return model;
  }

  private rerankRoute(rerankId: string): { route: ModelRoute; via: string } | undefined {
    const routes = this.config.rerankModels ?? {};
    for (const key of [rerankId, modelPart(rerankId), bareModelName(rerankId)]) {
      if (Object.hasOwn(routes, key)) return { route: routes[key], via: `rerankModels[${JSON.stringify(key)}]` };
    }
    if (this.config.defaultRerankModel) return { route: this.config.defaultRerankModel, via: "defaultRerankModel" };
    return undefined;
  }

  rerankModel(rerankId: string): RerankModel {
    const cached = this.rerankers.get(rerankId);
    if (cached) return cached;
    const found = this.rerankRoute(rerankId);
    let model: RerankModel;
    if (found) {
      const endpoint = this.endpoint(found.route.provider, found.via);
      model = new HttpRerankModel({ ...endpoint, model: found.route.model ?? bareModelName(rerankId), retry: this.options.retry });
    } else if (this.options.redirectTo !== undefined) {
      model = new HttpRerankModel({ baseURL: this.options.redirectTo, apiKey: undefined, headers: {}, model: bareModelName(rerankId), retry: this.options.retry });
    } else {
      const keys = [...new Set([rerankId, modelPart(rerankId), bareModelName(rerankId)])].map((k) => JSON.stringify(k)).join(" or ");
      throw new UnavailableError(`rerank_id "${rerankId}" is not configured: add ${keys} to "rerankModels" in canvasflow.config.json, or set "defaultRerankModel" (or leave rerank_id empty)`);
    }
    this.rerankers.set(rerankId, model);
    return model;
  }
}

export function createKnowledgeModels(config: CanvasflowConfig, env: Env = process.env, options: KnowledgeModelsOptions = {}): KnowledgeModels {
  return new ConfiguredKnowledgeModels(config, env, options);
}
