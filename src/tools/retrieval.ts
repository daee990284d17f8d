/**
 * Retrieval (agent/tools/retrieval.py): searches the chosen datasets (or memories) for `query` and
 * returns the chunks as `formalized_content` (prompt text) and `json`; with `retrieval_from:
 * "memory"` it searches the conversation memories `memory_ids` names instead (memory/). As a canvas node its query
 * is a bare reference or a template; dataset entries holding "@" are references to dataset ids
 * computed by the canvas. Where each dataset lives (a local folder, a RAGFlow server) comes from
 * the configured knowledge bases (`services.tools.knowledgeBases`).
 */
import { parseSelector, type Reference } from "../refs/grammar.js";
import { positiveNumber, unitInterval } from "../components/param-checks.js";
import type { ParamProblem, Params } from "../components/types.js";
import type { CanvasflowServices } from "../config/types.js";
import { finiteNumber } from "../util/values.js";
import { formatMemories, searchMemories } from "../memories/search.js";
import { checkMemoryIdsParam, memoryIds, memoryStoreOf, memoryUserId } from "../memories/save.js";
import { checkMemoryId } from "../backends/shared/memories.js";
import { defineTool } from "./define-tool.js";
import { datasetIds, knowledgeBasesFor } from "./retrieval/datasets.js";
import { formatChunks } from "./retrieval/kb-prompt.js";
import { crossLanguageQuery } from "./retrieval/cross-languages.js";
import { searchKnowledgeBases } from "./retrieval/search.js";
import type { SearchOptions } from "./retrieval/types.js";
import type { ToolContext, ToolOutput } from "./types.js";

/** The dataset lists: dataset_ids (current), kb_ids (older name of the same list), kb_vars (older variable list). */
const DATASET_KEYS = ["dataset_ids", "kb_ids", "kb_vars"] as const;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : [];
}

/** Dataset entries that are references (RAGFlow: an entry containing "@" is read from the canvas). */
function datasetReferences(params: Params): Reference[] {
  const refs: Reference[] = [];
  for (const key of DATASET_KEYS) {
    for (const entry of strings(params[key])) {
      const ref = entry.includes("@") || key === "kb_vars" ? parseSelector(entry) : null;
      if (ref) refs.push(ref);
    }
  }
  return refs;
}

/** With nothing to search, RAGFlow fails at run time ("No dataset is selected."). */
function checkSources(params: Params): ParamProblem[] {
  if (params.retrieval_from === "memory") {
    return strings(params.memory_ids).length > 0 ? [] : [{ pointer: "/memory_ids", severity: "warning", message: "memory_ids is empty: no memory is chosen to search" }];
  }
  if (DATASET_KEYS.some((key) => strings(params[key]).length > 0)) return [];
  return [{ pointer: "/kb_ids", severity: "warning", message: "no dataset is chosen (dataset_ids and kb_ids are empty): the retrieval fails unless a knowledge base is configured for any id (\"*\")" }];
}

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
  const hits = await searchMemories(store, ids, {
    query,
    topN: Math.max(1, Math.floor(numberParam(params, "top_n", 8))),
    topK: Math.max(1, Math.floor(numberParam(params, "top_k", 1024))),
    similarityThreshold: numberParam(params, "similarity_threshold", 0.2),
    keywordsWeight: Math.min(1, Math.max(0, numberParam(params, "keywords_similarity_weight", 0.5))),
    userId: ctx.get ? memoryUserId({ get: (selector) => ctx.get!(typeof selector === "string" ? selector : selector.expr) }, params) : typeof params.user_id === "string" ? params.user_id : "",
    signal: ctx.signal,
  });
  if (hits.length === 0) return emptyResponse(params, query, "memories");
  return { formalized_content: formatMemories(hits), json: hits.map((h) => ({ ...h.message, similarity: h.similarity })) };
}

async function retrieve(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
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
  // Local knowledge bases are searched with the query translated; a RAGFlow server translates it itself.
  if (options.crossLanguages.length > 0 && choices.some((c) => c.config.type === "local")) {
    options.localQuery = await crossLanguageQuery(query, options.crossLanguages, { provider: services.llm, label: ctx.label, signal: ctx.signal, onUsage: (usage) => ctx.addUsage(usage) });
  }
  const { chunks, documents } = await searchKnowledgeBases(choices, options, services.tools?.env ?? process.env, services.tools?.knowledgeModels);
  if (chunks.length === 0) return emptyResponse(params, query, "knowledge base");
  ctx.addReferences(chunks, documents);
  return { formalized_content: formatChunks(chunks), json: chunks };
}

export const Retrieval = defineTool({
  name: "Retrieval",
  functionName: "search_my_dateset",
  description: "This tool can be utilized for relevant content searching in the datasets.",
  meta: {
    query: {
      default: "",
      type: "string",
      description: "The keywords to search the dataset. The keywords should be the most important words/terms(includes synonyms) from the original request.",
      required: true,
    },
  },
  defaults: {
    similarity_threshold: 0.2,
    keywords_similarity_weight: 0.5,
    top_n: 8,
    top_k: 1024,
    dataset_ids: [],
    kb_ids: [],
    memory_ids: [],
    kb_vars: [],
    rerank_id: "",
    empty_response: "",
    use_kg: false,
    cross_languages: [],
    toc_enhance: false,
    meta_data_filter: {},
    retrieval_from: "dataset",
  },
  timeoutSeconds: 12,
  thoughts: () => "Looking for the most relevant articles.",
  references: datasetReferences,
  run: retrieve,
  check: (params) => [
    ...unitInterval(params, "similarity_threshold"),
    ...unitInterval(params, "keywords_similarity_weight"),
    ...positiveNumber(params, "top_n"),
    ...checkSources(params),
    ...checkMemoryIdsParam(params.memory_ids),
  ],
});
