/**
 * Encyclopedia, paper and code search tools (agent/tools/{wikipedia,pubmed,arxiv,googlescholar,
 * github}.py). Each returns its results as prompt text (`formalized_content`).
 */
import { oneOfCodes, positiveInteger } from "../components/param-checks.js";
import { WIKIPEDIA_LANGUAGES } from "./codes.js";
import { defineTool, lazyRun } from "./define-tool.js";
import { ARXIV_TIMEOUT_S, GITHUB_TIMEOUT_S, PUBMED_TIMEOUT_S, SCHOLAR_TIMEOUT_S, WIKIPEDIA_TIMEOUT_S } from "./timeouts.js";

/** RAGFlow's query meta: "The search keywords to execute with <engine>…". */
function query(engine: string, what = "keywords") {
  return {
    default: "{sys.query}",
    type: "string",
    description: `The search ${what} to execute with ${engine}. The keywords should be the most important words/terms(includes synonyms) from the original request.`,
    required: true,
  } as const;
}

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
  run: lazyRun(() => import("./web/wikipedia.js"), (m) => m.runWikipedia),
});

export const PubMed = defineTool({
  name: "PubMed",
  functionName: "pubmed_search",
  description: [
    "PubMed is an openly accessible, free database which includes primarily the MEDLINE database of references and abstracts on life sciences and biomedical topics.",
    "In addition to MEDLINE, PubMed provides access to:",
    " - older references from the print version of Index Medicus, back to 1951 and earlier",
    " - references to some journals before they were indexed in Index Medicus and MEDLINE, for instance Science, BMJ, and Annals of Surgery",
    " - very recent entries to records for an article before it is indexed with Medical Subject Headings (MeSH) and added to MEDLINE",
    " - a collection of books available full-text and other subsets of NLM records[4]",
    " - PMC citations",
    " - NCBI Bookshelf",
  ].join("\n"),
  meta: { query: query("PubMed") },
  // NCBI asks callers to identify themselves with an e-mail address.
  defaults: { top_n: 12, email: "A.N.Other@example.com" },
  timeoutSeconds: PUBMED_TIMEOUT_S,
  check: (params) => positiveInteger(params, "top_n"),
  thoughts: () => "Looking for scholarly papers, prioritising reputable sources.",
  run: lazyRun(() => import("./web/pubmed.js"), (m) => m.runPubMed),
});

export const ArXiv = defineTool({
  name: "ArXiv",
  functionName: "arxiv_search",
  description:
    "arXiv is a free distribution service and an open-access archive for nearly 2.4 million scholarly articles in the fields of physics, mathematics, computer science, quantitative biology, quantitative finance, statistics, electrical engineering and systems science, and economics. Materials on this site are not peer-reviewed by arXiv.",
  meta: { query: query("arXiv") },
  defaults: { top_n: 12, sort_by: "submittedDate" },
  timeoutSeconds: ARXIV_TIMEOUT_S,
  check: (params) => [...positiveInteger(params, "top_n"), ...oneOfCodes(params, "sort_by", ["submittedDate", "lastUpdatedDate", "relevance"], "arXiv sort order")],
  run: lazyRun(() => import("./web/arxiv.js"), (m) => m.runArXiv),
});

export const GoogleScholar = defineTool({
  name: "GoogleScholar",
  functionName: "google_scholar_search",
  description:
    "Google Scholar provides a simple way to broadly search for scholarly literature. From one place, you can search across many disciplines and sources: articles, theses, books, abstracts and court opinions, from academic publishers, professional societies, online repositories, universities and other web sites. Google Scholar helps you find relevant work across the world of scholarly research.",
  meta: { query: query("Google Scholar", "keyword") },
  defaults: { top_n: 12, sort_by: "relevance", year_low: null, year_high: null, patents: true, api_key: "" },
  timeoutSeconds: SCHOLAR_TIMEOUT_S,
  check: (params) => positiveInteger(params, "top_n"),
  run: lazyRun(() => import("./web/google-scholar.js"), (m) => m.runGoogleScholar),
});

export const GitHub = defineTool({
  name: "GitHub",
  functionName: "github_search",
  description:
    "GitHub repository search is a feature that enables users to find specific repositories on the GitHub platform. This search functionality allows users to locate projects, codebases, and other content hosted on GitHub based on various criteria.",
  meta: { query: query("GitHub") },
  defaults: { top_n: 10 },
  timeoutSeconds: GITHUB_TIMEOUT_S,
  check: (params) => positiveInteger(params, "top_n"),
  run: lazyRun(() => import("./web/github.js"), (m) => m.runGitHub),
});
