/**
 * Knowledge bases on a RAGFlow server, searched through its HTTP API:
 * POST {baseURL}/api/v1/retrieval with a bearer API key (RAGFlow's "Retrieve chunks").
 */
import { UnavailableError } from "../../components/unavailable.js";
import { finiteNumber, isPlainObject } from "../../util/values.js";
import type { ReferenceDocument } from "../../components/types.js";
import type { RetrievedChunk, SearchOptions, SearchResult } from "./types.js";

export interface RagflowTarget {
  /** e.g. http://localhost:9380 (a trailing "/" or "/api/v1" is tolerated). */
  baseURL: string;
  apiKey: string | undefined;
  datasetIds: string[];
  /** For messages: the knowledge base ids of the DSL this request serves. */
  label: string;
}

/** The request body of RAGFlow's retrieval API for a search. */
function retrievalRequest(target: RagflowTarget, options: SearchOptions): Record<string, unknown> {
  return {
    question: options.query,
    dataset_ids: target.datasetIds,
    page: 1,
    page_size: options.topN,
    top_k: options.topK,
    similarity_threshold: options.similarityThreshold,
    vector_similarity_weight: 1 - options.keywordsWeight,
    keyword: false,
    highlight: false,
    use_kg: options.useKg,
    toc_enhance: options.tocEnhance,
    ...(options.rerankId !== "" ? { rerank_id: options.rerankId } : {}),
    ...(options.crossLanguages.length > 0 ? { cross_languages: options.crossLanguages } : {}),
  };
}

function endpoint(baseURL: string): string {
  const base = baseURL.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  return `${base}/api/v1/retrieval`;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
}

/** One chunk of RAGFlow's answer in our shape (RAGFlow's HTTP and internal field names both read). */
function chunkOf(raw: Record<string, unknown>): RetrievedChunk {
  const chunk: RetrievedChunk = {
    id: text(raw.id ?? raw.chunk_id),
    content: text(raw.content ?? raw.content_with_weight),
    document_id: text(raw.document_id ?? raw.doc_id),
    document_name: text(raw.document_keyword ?? raw.document_name ?? raw.docnm_kwd),
    dataset_id: text(raw.kb_id ?? raw.dataset_id),
    similarity: finiteNumber(raw.similarity) ?? 0,
  };
  const termSimilarity = finiteNumber(raw.term_similarity);
  if (termSimilarity !== undefined) chunk.term_similarity = termSimilarity;
  const vectorSimilarity = finiteNumber(raw.vector_similarity);
  if (vectorSimilarity !== undefined) chunk.vector_similarity = vectorSimilarity;
  if (typeof raw.url === "string" && raw.url !== "") chunk.url = raw.url;
  for (const key of ["image_id", "positions", "highlight", "important_keywords"]) {
    if (raw[key] !== undefined && raw[key] !== "") chunk[key] = raw[key];
  }
  return chunk;
}

function documentOf(raw: Record<string, unknown>): ReferenceDocument {
  return { doc_id: text(raw.doc_id ?? raw.document_id), doc_name: text(raw.doc_name ?? raw.document_name), count: finiteNumber(raw.count) ?? 1 };
}

/**
 * Searches a RAGFlow server. Fails with a message naming the knowledge bases, the URL and the
 * reason; an unreachable server or a refused key makes the Retrieval unavailable.
 */
export async function searchRagflow(target: RagflowTarget, options: SearchOptions): Promise<SearchResult> {
  const url = endpoint(target.baseURL);
  const where = `RAGFlow knowledge base ${target.label} (${url})`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(target.apiKey ? { Authorization: `Bearer ${target.apiKey}` } : {}) },
      body: JSON.stringify(retrievalRequest(target, options)),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UnavailableError(`${where}: the request failed: ${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))}`);
  }
  const body = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error(`${where}: HTTP ${response.status}, not a JSON answer: ${body.slice(0, 200)}`);
  }
  if (!isPlainObject(json)) throw new Error(`${where}: HTTP ${response.status}, unexpected answer ${body.slice(0, 200)}`);
  if (!response.ok || (json.code !== undefined && json.code !== 0)) {
    const message = typeof json.message === "string" ? json.message : body.slice(0, 200);
    const text = `${where}: HTTP ${response.status}, code ${String(json.code ?? "-")}: ${message}`;
    // A refused key is this machine's configuration, not the canvas's fault.
    if (response.status === 401 || json.code === 109) throw new UnavailableError(`${text} (check the API key: apiKeyEnv of this knowledge base)`);
    throw new Error(text);
  }
  const data = isPlainObject(json.data) ? json.data : {};
  const chunks = (Array.isArray(data.chunks) ? data.chunks : []).filter(isPlainObject).map(chunkOf);
  const documents = (Array.isArray(data.doc_aggs) ? data.doc_aggs : []).filter(isPlainObject).map(documentOf);
  return { chunks, documents };
}
