/**
 * Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM, TEI,
 * Jina, the mock), through the `openai` package: texts are sent in batches of `batchSize`, a few
 * batches at a time, retried on 429 and 5xx, and the tokens the server reports are summed.
 * Vectors are asked for as base64 (compact on the wire) and kept as Float32Array.
 */
import { LazyOpenAIClient, loadOpenAISdk } from "../llm/openai-sdk.js";
import { AttemptFailure, DEFAULT_RETRY, withRetries, type RetryPolicy } from "./retrying.js";
import type { EmbeddingModel, EmbeddingResult, EmbedOptions } from "./model-types.js";

export const DEFAULT_BATCH_SIZE = 32;
/** Batches in flight at once. */
const CONCURRENT_BATCHES = 4;

export interface EmbeddingEndpoint {
  /** Who serves the model, for the cache key: the provider's name in the config ("mock-llm" for the mock). */
  provider: string;
  baseURL: string;
  apiKey: string | undefined;
  headers: Record<string, string>;
  model: string;
  dimensions?: number;
  batchSize?: number;
  retry?: RetryPolicy;
}

/** Sent as the bearer token to servers that need none (the openai client insists on one). */
const NO_API_KEY = "canvasflow-no-key";

/** A base64 vector (little-endian float32) or a plain array, as a Float32Array. */
export function decodeVector(value: unknown): Float32Array {
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "base64");
    if (bytes.length % 4 !== 0) throw new AttemptFailure(`sent a base64 vector of ${bytes.length} bytes, not a whole number of float32 values`);
    // Copied into a buffer of its own: a view on the Buffer's pool could be unaligned. (The
    // wire format is little-endian, as is every platform Node runs on.)
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  }
  if (Array.isArray(value) && value.every((v) => typeof v === "number")) return Float32Array.from(value as number[]);
  throw new AttemptFailure("sent an embedding that is neither base64 nor an array of numbers");
}

export class OpenAIEmbeddingModel implements EmbeddingModel {
  readonly key: string;
  readonly label: string;
  readonly dimensions: number | undefined;
  private readonly client: LazyOpenAIClient;
  private readonly batchSize: number;
  private readonly retry: RetryPolicy;

  constructor(private readonly endpoint: EmbeddingEndpoint) {
    this.dimensions = endpoint.dimensions;
    this.batchSize = Math.max(1, Math.floor(endpoint.batchSize ?? DEFAULT_BATCH_SIZE));
    this.retry = endpoint.retry ?? DEFAULT_RETRY;
    const baseURL = endpoint.baseURL.replace(/\/+$/, "");
    this.key = JSON.stringify([endpoint.provider, endpoint.model, endpoint.dimensions ?? null]);
    this.label = `embedding model "${endpoint.model}" at ${baseURL}`;
    this.client = new LazyOpenAIClient({
      baseURL,
      apiKey: endpoint.apiKey ?? NO_API_KEY,
      organization: null,
      project: null,
      webhookSecret: null,
      defaultHeaders: endpoint.headers,
      // Retries are ours (retrying.ts).
      maxRetries: 0,
    });
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<EmbeddingResult> {
    const vectors = new Array<Float32Array>(texts.length);
    let tokens = 0;
    let done = 0;
    const starts: number[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) starts.push(i);
    const worker = async () => {
      for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
        const batch = texts.slice(start, start + this.batchSize);
        const result = await this.embedBatch(batch, options.signal);
        result.vectors.forEach((v, i) => (vectors[start + i] = v));
        tokens += result.tokens;
        done += batch.length;
        options.onProgress?.(done);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_BATCHES, starts.length) }, worker));
    return { vectors, tokens };
  }

  private embedBatch(batch: readonly string[], signal: AbortSignal | undefined): Promise<EmbeddingResult> {
    return withRetries(this.label, this.retry, signal, async (attemptSignal) => {
      const [client, { default: OpenAI }] = await Promise.all([this.client.get(), loadOpenAISdk()]);
      let response;
      try {
        response = await client.embeddings.create(
          {
            model: this.endpoint.model,
            // Empty strings are refused by some servers; RAGFlow embeds "None" for an empty chunk.
            input: batch.map((t) => (t.trim() === "" ? "None" : t)),
            encoding_format: "base64",
            ...(this.endpoint.dimensions !== undefined ? { dimensions: this.endpoint.dimensions } : {}),
          },
          { signal: attemptSignal, maxRetries: 0 },
        );
      } catch (error) {
        if (error instanceof OpenAI.APIError && typeof error.status === "number") {
          const body = error.error as { message?: unknown } | undefined;
          const message = body && typeof body.message === "string" ? body.message : error.message;
          throw new AttemptFailure(`answered HTTP ${error.status}: ${message}`, error.status);
        }
        throw error;
      }
      const data = Array.isArray(response?.data) ? response.data : [];
      if (data.length !== batch.length) throw new AttemptFailure(`sent ${data.length} embeddings for ${batch.length} texts`);
      const vectors = new Array<Float32Array>(batch.length);
      for (const item of data) {
        const index = typeof item.index === "number" ? item.index : data.indexOf(item);
        if (index < 0 || index >= batch.length || vectors[index]) throw new AttemptFailure(`sent an embedding with index ${index} for ${batch.length} texts`);
        vectors[index] = decodeVector(item.embedding as unknown);
      }
      const size = vectors[0].length;
      if (size === 0 || vectors.some((v) => v.length !== size)) throw new AttemptFailure("sent vectors of different sizes in one answer");
      if (this.endpoint.dimensions !== undefined && size !== this.endpoint.dimensions) {
        throw new AttemptFailure(`sent ${size}-dimensional vectors, but the configuration asks for ${this.endpoint.dimensions}`);
      }
      const usage = response.usage as { total_tokens?: number; prompt_tokens?: number } | undefined;
      return { vectors, tokens: usage?.total_tokens ?? usage?.prompt_tokens ?? 0 };
    });
  }
}
