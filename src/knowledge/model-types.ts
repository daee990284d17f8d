/**
 * The embedding and rerank models local knowledge bases use, as the search and the indexer see
 * them (the implementations on HTTP endpoints are embedding-client.ts and rerank-client.ts).
 */
import type { LocalKnowledgeBaseConfig } from "./config-types.js";

export interface EmbedOptions {
  signal?: AbortSignal;
  /** Called after each batch with the number of texts embedded so far. */
  onProgress?: (done: number) => void;
}

export interface EmbeddingResult {
  /** One vector per text, in order. */
  vectors: Float32Array[];
  /** Tokens the server reported (0 when it reports none). */
  tokens: number;
}

export interface EmbeddingModel {
  /** Changes whenever the vectors would: provider, model and dimensions. Cached vectors are keyed by it. */
  readonly key: string;
  /** For messages: `embedding model "m" at http://host/v1`. */
  readonly label: string;
  /** The size asked for, when the configuration sets one. */
  readonly dimensions: number | undefined;
  embed(texts: readonly string[], options?: EmbedOptions): Promise<EmbeddingResult>;
}

export interface RerankResult {
  /** One relevance score per document, in the documents' order, in [0, 1]. */
  scores: number[];
  tokens: number;
}

export interface RerankModel {
  readonly label: string;
  rerank(query: string, documents: readonly string[], options?: { signal?: AbortSignal }): Promise<RerankResult>;
}

/** Where local knowledge bases get their models (`services.tools.knowledgeModels`). */
export interface KnowledgeModels {
  /** The embedding model of a local knowledge base, or undefined when it searches by keywords only. */
  embeddingFor(kb: LocalKnowledgeBaseConfig, id: string): EmbeddingModel | undefined;
  /** The model for a Retrieval's rerank_id; throws an UnavailableError saying how to configure one. */
  rerankModel(rerankId: string): RerankModel;
}
