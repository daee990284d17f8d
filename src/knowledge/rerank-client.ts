/**
 * Reranking through the rerank API that Jina, Cohere, vLLM, Xinference and TEI-style servers
 * serve: `POST {baseURL}/rerank` with `{model, query, documents, top_n}`, answered with
 * `{results: [{index, relevance_score}]}`. Retried on 429 and 5xx as the chat client is.
 *
 * Scores are brought into [0, 1] as RAGFlow does (rag/llm/rerank_model.py, Base._normalize_rank):
 * scores already in [0, 1] are kept; others are min-max scaled, or clamped when they hardly
 * differ (one document, or all alike).
 */
import { AttemptFailure, DEFAULT_RETRY, withRetries, type RetryPolicy } from "./retrying.js";
import type { RerankModel, RerankResult } from "./model-types.js";

interface RerankEndpoint {
  baseURL: string;
  apiKey: string | undefined;
  headers: Record<string, string>;
  model: string;
  retry?: RetryPolicy;
}

/** RAGFlow truncates each document to 8196 tokens; about four characters a token. */
const MAX_DOCUMENT_CHARS = 32_000;

export function normalizeScores(scores: readonly number[]): number[] {
  if (scores.length === 0) return [];
  const min = Math.min(...scores);
  const max = Math.max(...scores);
  if (min >= 0 && max <= 1) return [...scores];
  if (max - min < 1e-3) return scores.map((s) => Math.min(1, Math.max(0, s)));
  return scores.map((s) => (s - min) / (max - min));
}

export class HttpRerankModel implements RerankModel {
  readonly label: string;
  private readonly url: string;
  private readonly retry: RetryPolicy;

  constructor(private readonly endpoint: RerankEndpoint) {
    this.url = `${endpoint.baseURL.replace(/\/+$/, "")}/rerank`;
    this.label = `rerank model "${endpoint.model}" at ${this.url}`;
    this.retry = endpoint.retry ?? DEFAULT_RETRY;
  }

  async rerank(query: string, documents: readonly string[], options: { signal?: AbortSignal } = {}): Promise<RerankResult> {
    if (documents.length === 0 || query === "") return { scores: documents.map(() => 0), tokens: 0 };
    const body = JSON.stringify({ model: this.endpoint.model, query, documents: documents.map((d) => d.slice(0, MAX_DOCUMENT_CHARS)), top_n: documents.length });
    return withRetries(this.label, this.retry, options.signal, async (signal) => {
      const response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(this.endpoint.apiKey ? { authorization: `Bearer ${this.endpoint.apiKey}` } : {}), ...this.endpoint.headers },
        body,
        signal,
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new AttemptFailure(`answered HTTP ${response.status} with something other than JSON: ${text.slice(0, 200)}`, response.ok ? undefined : response.status);
      }
      if (!response.ok) {
        const error = (json as { error?: unknown; message?: unknown; detail?: unknown }) ?? {};
        const message = typeof error.error === "object" && error.error && typeof (error.error as { message?: unknown }).message === "string" ? (error.error as { message: string }).message : typeof error.message === "string" ? error.message : typeof error.detail === "string" ? error.detail : text.slice(0, 200);
        throw new AttemptFailure(`answered HTTP ${response.status}: ${message}`, response.status);
      }
      return parseRerankAnswer(json, documents.length);
    });
  }
}

/** The scores of a rerank answer by document index (documents it leaves out score 0). */
export function parseRerankAnswer(json: unknown, count: number): RerankResult {
  const results = (json as { results?: unknown; data?: unknown } | null)?.results ?? (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(results)) throw new AttemptFailure("answered without a results list");
  const raw = new Array<number>(count).fill(0);
  for (const result of results) {
    const index = (result as { index?: unknown })?.index;
    const score = (result as { relevance_score?: unknown; score?: unknown })?.relevance_score ?? (result as { score?: unknown })?.score;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count) throw new AttemptFailure(`answered with a result for document ${String(index)} of ${count}`);
    if (typeof score !== "number" || !Number.isFinite(score)) throw new AttemptFailure(`answered with a score that is not a number for document ${index}`);
    raw[index] = score;
  }
  const usage = (json as { usage?: { total_tokens?: unknown }; meta?: { billed_units?: { search_units?: unknown } } }).usage;
  return { scores: normalizeScores(raw), tokens: typeof usage?.total_tokens === "number" ? usage.total_tokens : 0 };
}
