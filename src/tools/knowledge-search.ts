/**
 * Encyclopedia, paper and code search tools (agent/tools/{wikipedia,pubmed,arxiv,googlescholar,
 * github}.py). Each returns its results as prompt text (`formalized_content`).
 */
import { oneOfCodes, positiveInteger } from "../components/param-checks.js";
import { WIKIPEDIA_LANGUAGES } from "./codes.js";
import { defineTool } from "./define-tool.js";
import { runWikipedia, WIKIPEDIA_TIMEOUT_S } from "./web/wikipedia.js";

const QUERY = { query: { default: "{sys.query}" } };

export const Wikipedia = defineTool({
  name: "Wikipedia",
  functionName: "wikipedia_search",
  description:
    "A wide range of how-to and information pages are made available in wikipedia. Since 2001, it has grown rapidly to become the world's largest reference website. From Wikipedia, the free encyclopedia.",
  meta: {
    query: {
      default: "{sys.query}",
      type: "string",
      description: "The search keyword to execute with wikipedia. The keyword MUST be a specific subject that can match the title.",
      required: true,
    },
  },
  defaults: { top_n: 10, language: "en" },
  timeoutSeconds: WIKIPEDIA_TIMEOUT_S,
  check: (params) => [...positiveInteger(params, "top_n"), ...oneOfCodes(params, "language", WIKIPEDIA_LANGUAGES, "Wikipedia language")],
  run: runWikipedia,
});

export const PubMed = defineTool({
  name: "PubMed",
  meta: QUERY,
  // NCBI asks callers to identify themselves with an e-mail address.
  defaults: { top_n: 12, email: "A.N.Other@example.com" },
  timeoutSeconds: 12,
  check: (params) => positiveInteger(params, "top_n"),
});

export const ArXiv = defineTool({
  name: "ArXiv",
  meta: QUERY,
  defaults: { top_n: 12, sort_by: "submittedDate" },
  timeoutSeconds: 12,
  check: (params) => positiveInteger(params, "top_n"),
});

export const GoogleScholar = defineTool({
  name: "GoogleScholar",
  meta: QUERY,
  defaults: { top_n: 12, sort_by: "relevance", year_low: null, year_high: null, patents: true },
  timeoutSeconds: 12,
  check: (params) => positiveInteger(params, "top_n"),
});

export const GitHub = defineTool({
  name: "GitHub",
  meta: QUERY,
  defaults: { top_n: 10 },
  timeoutSeconds: 12,
  check: (params) => positiveInteger(params, "top_n"),
});
