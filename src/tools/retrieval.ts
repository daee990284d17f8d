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
import { checkMemoryIdsParam } from "../memories/save.js";
import { defineTool, lazyRun } from "./define-tool.js";

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
  run: lazyRun(() => import("./retrieval/run.js"), (m) => m.retrieve),
  check: (params) => [
    ...unitInterval(params, "similarity_threshold"),
    ...unitInterval(params, "keywords_similarity_weight"),
    ...positiveNumber(params, "top_n"),
    ...checkSources(params),
    ...checkMemoryIdsParam(params.memory_ids),
  ],
});
