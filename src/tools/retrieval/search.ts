/**
 * One Retrieval search over its knowledge bases: local folders and RAGFlow servers, searched at
 * once. Local candidates are scored as RAGFlow scores them (knowledge/hybrid.ts), reranked when
 * rerank_id is set, then everything is filtered by the threshold, merged by similarity and cut to
 * top_n (RAGFlow's Dealer.retrieval, rag/nlp/search.py).
 *
 * Reranking follows Dealer.rerank_by_model: the reranker's score takes the place of the vector
 * similarity in the blend, and only the best candidates of RAGFlow's rerank window (about 64, at
 * most top_k) are sent to it and kept.
 */
import path from "node:path";
import { isUnavailable, UnavailableError } from "../../components/unavailable.js";
import type { LocalKnowledgeBaseConfig } from "../../config/types.js";
import { QueryDimensionMismatch, scoreCandidates, type ScoredChunk } from "../../knowledge/hybrid.js";
import { localKnowledgeBase } from "../../knowledge/knowledge-base.js";
import type { PipelineChunkerOpener } from "../../knowledge/chunkers.js";
import type { KnowledgeModels } from "../../knowledge/model-types.js";
import { blend, effectiveThreshold, rerankWindow } from "../../knowledge/similarity.js";
import type { KnowledgeBaseChoice } from "./datasets.js";
import { searchRagflow, type RagflowTarget } from "./ragflow-client.js";
import { documentAggregates, type RetrievedChunk, type SearchOptions, type SearchResult } from "./types.js";

type Env = Readonly<Record<string, string | undefined>>;

/** RAGFlow knowledge bases grouped by server and key: one request serves all datasets of a server. */
function ragflowTargets(choices: readonly KnowledgeBaseChoice[], env: Env): RagflowTarget[] {
  const targets = new Map<string, RagflowTarget & { ids: string[] }>();
  for (const { id, config } of choices) {
    if (config.type !== "ragflow") continue;
    let apiKey: string | undefined;
    if (config.apiKeyEnv) {
      apiKey = env[config.apiKeyEnv];
      if (!apiKey) throw new UnavailableError(`RAGFlow knowledge base "${id}" reads its API key from the environment variable ${config.apiKeyEnv}, which is not set`);
    }
    const key = `${config.baseURL}\u0000${config.apiKeyEnv ?? ""}`;
    const target = targets.get(key) ?? { baseURL: config.baseURL, apiKey, datasetIds: [], ids: [], label: "" };
    const datasetId = config.datasetId ?? id;
    if (!target.datasetIds.includes(datasetId)) target.datasetIds.push(datasetId);
    target.ids.push(id);
    target.label = target.ids.map((i) => `"${i}"`).join(", ");
    targets.set(key, target);
  }
  return [...targets.values()];
}

interface LocalCandidate extends ScoredChunk {
  datasetId: string;
}

async function searchLocal(id: string, config: LocalKnowledgeBaseConfig, options: SearchOptions, models: KnowledgeModels | undefined, openPipeline: PipelineChunkerOpener | undefined): Promise<LocalCandidate[]> {
  const dir = path.resolve(config.dir);
  try {
    const kb = localKnowledgeBase({ dir, indexDir: config.indexDir, embedding: models?.embeddingFor(config, id), pipeline: config.pipeline, openPipeline });
    const query = { query: options.localQuery ?? options.query, topK: options.topK, similarityThreshold: options.similarityThreshold, keywordsWeight: options.keywordsWeight, signal: options.signal, onTokens: options.onTokens };
    let scored: ScoredChunk[];
    try {
      scored = await scoreCandidates(await kb.index(), query);
    } catch (error) {
      if (!(error instanceof QueryDimensionMismatch)) throw error;
      scored = await scoreCandidates(await kb.rebuild(error.message), query);
    }
    return scored.map((s) => ({ ...s, datasetId: id }));
  } catch (error) {
    if (options.signal.aborted) throw error;
    const message = `knowledge base "${id}" (${dir}): ${error instanceof Error ? error.message : String(error)}`;
    throw isUnavailable(error) ? new UnavailableError(message) : new Error(message);
  }
}

/** Rerank the best candidates (rerank_by_model): the reranker's score replaces the cosine in the blend. */
async function rerank(candidates: LocalCandidate[], options: SearchOptions, models: KnowledgeModels | undefined): Promise<LocalCandidate[]> {
  if (options.rerankId === "" || candidates.length === 0) return candidates;
  if (!models) throw new UnavailableError(`rerank_id "${options.rerankId}" is set, but no rerank model is configured here: add it to "rerankModels" in canvasflow.config.json`);
  const model = models.rerankModel(options.rerankId);
  const window = [...candidates].sort((a, b) => b.similarity - a.similarity).slice(0, rerankWindow(options.topN, options.topK));
  const { scores, tokens } = await model.rerank(
    options.localQuery ?? options.query,
    window.map((c) => c.chunk.content),
    { signal: options.signal },
  );
  options.onTokens?.(tokens);
  return window.map((c, i) => ({ ...c, vectorSimilarity: scores[i], similarity: blend(options.keywordsWeight, c.termSimilarity, scores[i]) }));
}

/** A pipeline chunk's stored fields under the names RAGFlow's chunk references use (chunks_format). */
function referenceFields(fields: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  if (fields === undefined) return {};
  const out: Record<string, unknown> = {};
  if (typeof fields.img_id === "string" && fields.img_id !== "") out.image_id = fields.img_id;
  if (Array.isArray(fields.position_int)) out.positions = fields.position_int;
  if (typeof fields.doc_type_kwd === "string") out.doc_type = fields.doc_type_kwd;
  return out;
}

function retrievedChunk(c: LocalCandidate): RetrievedChunk {
  return {
    id: c.chunk.id,
    content: c.chunk.content,
    document_id: c.chunk.documentId,
    document_name: c.chunk.documentName,
    dataset_id: c.datasetId,
    similarity: c.similarity,
    term_similarity: c.termSimilarity,
    vector_similarity: c.vectorSimilarity,
    ...(c.chunk.section !== "" ? { section: c.chunk.section } : {}),
    ...referenceFields(c.chunk.fields),
  };
}

export async function searchKnowledgeBases(choices: readonly KnowledgeBaseChoice[], options: SearchOptions, env: Env, models?: KnowledgeModels, openPipeline?: PipelineChunkerOpener): Promise<SearchResult> {
  // One search per folder: two ids of one folder are one knowledge base.
  const locals = new Map<string, { id: string; config: LocalKnowledgeBaseConfig }>();
  for (const { id, config } of choices) if (config.type === "local" && !locals.has(path.resolve(config.dir))) locals.set(path.resolve(config.dir), { id, config });
  const remote = ragflowTargets(choices, env);

  const [localLists, remoteLists] = await Promise.all([
    Promise.all([...locals.values()].map(({ id, config }) => searchLocal(id, config, options, models, openPipeline))),
    Promise.all(remote.map(async (target) => (await searchRagflow(target, options)).chunks)),
  ]);
  const local = (await rerank(localLists.flat(), options, models)).map(retrievedChunk);

  const threshold = effectiveThreshold(options.keywordsWeight, options.similarityThreshold);
  const seen = new Set<string>();
  const merged: RetrievedChunk[] = [];
  for (const chunk of [...local, ...remoteLists.flat()]) {
    if (chunk.similarity < threshold || seen.has(chunk.id)) continue;
    seen.add(chunk.id);
    merged.push(chunk);
  }
  // A stable sort: ties keep each backend's own order.
  const chunks = merged.sort((a, b) => b.similarity - a.similarity).slice(0, Math.max(0, options.topN));
  return { chunks, documents: documentAggregates(chunks) };
}
