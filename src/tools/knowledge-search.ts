/**
 * Encyclopedia, paper and code search tools (agent/tools/{wikipedia,pubmed,arxiv,googlescholar,
 * github}.py). Each returns its results as prompt text (`formalized_content`).
 */
import { oneOfCodes, positiveInteger } from "../components/param-checks.js";
import { WIKIPEDIA_LANGUAGES } from "./codes.js";
import { defineTool } from "./define-tool.js";

const QUERY = { query: { default: "{sys.query}" } };

export const Wikipedia = defineTool({
  name: "Wikipedia",
  meta: QUERY,
  defaults: { top_n: 10, language: "en" },
  timeoutSeconds: 60,
  check: (params) => [...positiveInteger(params, "top_n"), ...oneOfCodes(params, "language", WIKIPEDIA_LANGUAGES, "Wikipedia language")],
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
