/**
 * Retrieval's run: the query against the chosen knowledge bases or memories. Loaded when a
 * Retrieval first runs (tools/retrieval.ts holds its definition), with the knowledge-base search
 * it needs.
 */
import type { Params, SpanAttributes, SpanScope } from "../../components/types.js";
import type { CanvasflowServices } from "../../config/types.js";
import { finiteNumber } from "../../util/values.js";
import { formatMemories, searchMemories } from "../../memories/search.js";
import { memoryIds, memoryStoreOf, memoryUserId } from "../../memories/save.js";
import { checkMemoryId } from "../../backends/shared/memories.js";
import { datasetIds, knowledgeBasesFor } from "./datasets.js";
import { formatChunks } from "./kb-prompt.js";
import { crossLanguageQuery } from "./cross-languages.js";
import { searchKnowledgeBases } from "./search.js";
import type { SearchOptions } from "./types.js";
import type { ToolContext, ToolOutput } from "../types.js";

function queryText(value: unknown): string {
  if (value === undefined || value === null) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  // As RAGFlow: a query copied from a transcript may start with "user:".
  return text.replace(/^user[:：\s]*/i, "").trim();
}

function numberParam(params: Params, key: string, fallback: number): number {
  return finiteNumber(params[key]) ?? fallback;
}

function searchOptions(query: string, params: Params, signal: AbortSignal, onTokens: (tokens: number) => void): SearchOptions {
  return {
    onTokens,
    query,
    topN: Math.max(1, Math.floor(numberParam(params, "top_n", 8))),
    topK: Math.max(1, Math.floor(numberParam(params, "top_k", 1024))),
    similarityThreshold: numberParam(params, "similarity_threshold", 0.2),
    keywordsWeight: Math.min(1, Math.max(0, numberParam(params, "keywords_similarity_weight", 0.5))),
    rerankId: typeof params.rerank_id === "string" ? params.rerank_id : "",
    useKg: params.use_kg === true,
    tocEnhance: params.toc_enhance === true,
    crossLanguages: Array.isArray(params.cross_languages) ? params.cross_languages.filter((l): l is string => typeof l === "string" && l !== "") : [],
    signal,
  };
}

/** The search in a `canvasflow.retrieval` span (when the caller traces), which counts what it found. */
function traced<T>(ctx: ToolContext, attributes: SpanAttributes, search: (span: SpanScope | undefined) => Promise<T>): Promise<T> {
  return ctx.span ? ctx.span("canvasflow.retrieval", attributes, search) : search(undefined);
}

function emptyResponse(params: Params, query: string, where: string): ToolOutput {
  const empty = typeof params.empty_response === "string" && params.empty_response.trim() !== "" ? params.empty_response : `Nothing relevant to "${query}" was found in the ${where}.`;
  return { formalized_content: empty, json: [] };
}

/** retrieval_from "memory" (RAGFlow _retrieve_memory): the memories' messages that match, of one user when user_id is set. */
async function retrieveMemories(query: string, ctx: ToolContext): Promise<ToolOutput> {
  const params = ctx.params;
  const ids = memoryIds(params.memory_ids);
  if (ids.length === 0) throw new Error("no memory is selected: memory_ids is empty");
  for (const id of ids) checkMemoryId(id, "memory_ids entry");
  const store = memoryStoreOf(ctx, `retrieval_from is "memory" (memory_ids ${ids.map((id) => `"${id}"`).join(", ")})`);
  const topN = Math.max(1, Math.floor(numberParam(params, "top_n", 8)));
  const hits = await traced(ctx, { "canvasflow.retrieval.memory_ids": ids, "canvasflow.retrieval.top_n": topN }, async (span) => {
    const found = await searchMemories(store, ids, {
      query,
      topN,
      topK: Math.max(1, Math.floor(numberParam(params, "top_k", 1024))),
      similarityThreshold: numberParam(params, "similarity_threshold", 0.2),
      keywordsWeight: Math.min(1, Math.max(0, numberParam(params, "keywords_similarity_weight", 0.5))),
      userId: ctx.get ? memoryUserId({ get: (selector) => ctx.get!(typeof selector === "string" ? selector : selector.expr) }, params) : typeof params.user_id === "string" ? params.user_id : "",
      signal: ctx.signal,
    });
    span?.setAttributes({ "canvasflow.retrieval.chunks": found.length });
    return found;
  });
  if (hits.length === 0) return emptyResponse(params, query, "memories");
  return { formalized_content: formatMemories(hits), json: hits.map((h) => ({ ...h.message, similarity: h.similarity })) };
}

export async function retrieve(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  const params = ctx.params;
  const query = queryText(args.query);
  if (query === "") return { formalized_content: "", json: [] };
  if (params.retrieval_from === "memory") return retrieveMemories(query, ctx);
  const services = ctx.services as CanvasflowServices;
  const get = ctx.get ? (selector: string) => ctx.get!(selector) : undefined;
  const choices = knowledgeBasesFor(datasetIds(params, get), services.tools?.knowledgeBases ?? {});
  const options = searchOptions(query, params, ctx.signal, (tokens) => {
    // Embedding the query and reranking cost tokens too: they count into the run's usage.
    if (tokens > 0) ctx.addUsage({ prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens });
  });
  const attributes = { "canvasflow.retrieval.kb_ids": choices.map((c) => c.id), "canvasflow.retrieval.top_n": options.topN };
  const { chunks, documents } = await traced(ctx, attributes, async (span) => {
    // Local knowledge bases are searched with the query translated; a RAGFlow server translates it itself.
    if (options.crossLanguages.length > 0 && choices.some((c) => c.config.type === "local")) {
      options.localQuery = await crossLanguageQuery(query, options.crossLanguages, { provider: services.llm, label: ctx.label, signal: ctx.signal, onUsage: (usage) => ctx.addUsage(usage) });
    }
    const found = await searchKnowledgeBases(choices, options, services.tools?.env ?? process.env, services.tools?.knowledgeModels, services.tools?.pipelineChunker);
    span?.setAttributes({ "canvasflow.retrieval.chunks": found.chunks.length });
    return found;
  });
  if (chunks.length === 0) return emptyResponse(params, query, "knowledge base");
  ctx.addReferences(chunks, documents);
  return { formalized_content: formatChunks(chunks), json: chunks };
}
