/**
 * Web search and page extraction tools (agent/tools/{tavily,google,duckduckgo,searxng,keenable,
 * querit,bgpt}.py). Each returns its results as prompt text (`formalized_content`) and raw `json`.
 */
import { credential, oneOfCodes, nonNegativeInteger, positiveInteger } from "../components/param-checks.js";
import type { ParamProblem, Params } from "../components/types.js";
import { finiteNumber, isNothing, jsonPointer } from "../util/values.js";
import { GOOGLE_COUNTRIES, GOOGLE_LANGUAGES } from "./codes.js";
import { defineTool, lazyRun } from "./define-tool.js";
import { BGPT_TIMEOUT_S, DUCKDUCKGO_TIMEOUT_S, GOOGLE_TIMEOUT_S, KEENABLE_TIMEOUT_S, QUERIT_CONTENTS_TIMEOUT_S, QUERIT_SEARCH_TIMEOUT_S, SEARXNG_TIMEOUT_S, TAVILY_EXTRACT_TIMEOUT_S, TAVILY_SEARCH_TIMEOUT_S } from "./timeouts.js";

/** A search tool's query as RAGFlow's meta describes it to the model. */
function searchQuery(engine: string) {
  return {
    default: "{sys.query}",
    type: "string",
    description: `The search keywords to execute with ${engine}. The keywords should be the most important words/terms(includes synonyms) from the original request.`,
    required: true,
  } as const;
}

/** Tavily's topic and DuckDuckGo's channel share RAGFlow's wording. */
const CATEGORY_DESCRIPTION =
  "default:general. The category of the search.news is useful for retrieving real-time updates, particularly about politics, sports, and major current events covered by mainstream media sources. general is for broader, more general-purpose searches that may include a wide range of sources.";

function domainList(description: string, item: string) {
  return { default: [], type: "array", description, items: { type: "string", description: item } } as const;
}

export const TavilySearch = defineTool({
  name: "TavilySearch",
  functionName: "tavily_search",
  description: [
    "Tavily is a search engine optimized for LLMs, aimed at efficient, quick and persistent search results.",
    "When searching:",
    "   - Start with specific query which should focus on just a single aspect.",
    "   - Number of keywords in query should be less than 5.",
    "   - Broaden search terms if needed",
    "   - Cross-reference information from multiple sources",
  ].join("\n"),
  meta: {
    query: searchQuery("Tavily"),
    topic: { default: "general", type: "string", description: CATEGORY_DESCRIPTION, enum: ["general", "news"] },
    include_domains: domainList("default:[]. A list of domains only from which the search results can be included.", "Domain name that must be included, e.g. www.yahoo.com"),
    exclude_domains: domainList("default:[]. A list of domains from which the search results can not be included", "Domain name that must be excluded, e.g. www.yahoo.com"),
  },
  defaults: {
    api_key: "",
    search_depth: "basic",
    max_results: 6,
    days: 14,
    include_answer: false,
    include_raw_content: false,
    include_images: false,
    include_image_descriptions: false,
  },
  timeoutSeconds: TAVILY_SEARCH_TIMEOUT_S,
  check: (params) => [...credential(params, "api_key", "the Tavily API key"), ...positiveInteger(params, "max_results"), ...positiveInteger(params, "days")],
  run: lazyRun(() => import("./web/tavily.js"), (m) => m.runTavilySearch),
});

export const TavilyExtract = defineTool({
  name: "TavilyExtract",
  functionName: "tavily_extract",
  description: "Extract web page content from one or more specified URLs using Tavily Extract.",
  // urls: a list, or one comma-separated string.
  meta: {
    urls: {
      default: "",
      type: "array",
      description: "The URLs to extract content from.",
      items: { type: "string", description: "The URL to extract content from, e.g. www.yahoo.com" },
      required: true,
    },
    extract_depth: {
      default: "basic",
      type: "string",
      description:
        "The depth of the extraction process. advanced extraction retrieves more data, including tables and embedded content, with higher success but may increase latency.basic extraction costs 1 credit per 5 successful URL extractions, while advanced extraction costs 2 credits per 5 successful URL extractions.",
      enum: ["basic", "advanced"],
    },
    format: {
      default: "markdown",
      type: "string",
      description: "The format of the extracted web page content. markdown returns content in markdown format. text returns plain text and may increase latency.",
      enum: ["markdown", "text"],
    },
  },
  defaults: { api_key: "", include_images: false },
  timeoutSeconds: TAVILY_EXTRACT_TIMEOUT_S,
  check: (params) => credential(params, "api_key", "the Tavily API key"),
  run: lazyRun(() => import("./web/tavily.js"), (m) => m.runTavilyExtract),
});

export const Google = defineTool({
  name: "Google",
  functionName: "google_search",
  description:
    "Search the world's information, including webpages, images, videos and more. Google has many special features to help you find exactly what you're looking ...",
  meta: {
    q: searchQuery("Google"),
    start: {
      default: 0,
      type: "integer",
      description:
        "Parameter defines the result offset. It skips the given number of results. It's used for pagination. (e.g., 0 (default) is the first page of results, 10 is the 2nd page of results, 20 is the 3rd page of results, etc.). Google Local Results only accepts multiples of 20(e.g. 20 for the second page results, 40 for the third page results, etc.) as the `start` value.",
    },
    num: {
      default: 6,
      type: "integer",
      description:
        "Parameter defines the maximum number of results to return. (e.g., 10 (default) returns 10 results, 40 returns 40 results, and 100 returns 100 results). The use of num may introduce latency, and/or prevent the inclusion of specialized result types. It is better to omit this parameter unless it is strictly necessary to increase the number of results per page. Results are not guaranteed to have the number of results specified in num.",
    },
  },
  defaults: { api_key: "", country: "cn", language: "en" },
  timeoutSeconds: GOOGLE_TIMEOUT_S,
  check: (params) => [
    ...credential(params, "api_key", "the SerpApi API key"),
    ...oneOfCodes(params, "country", GOOGLE_COUNTRIES, "Google country code"),
    ...oneOfCodes(params, "language", GOOGLE_LANGUAGES, "Google language code"),
    ...nonNegativeInteger(params, "start"),
    ...positiveInteger(params, "num"),
  ],
  run: lazyRun(() => import("./web/google.js"), (m) => m.runGoogle),
});

export const DuckDuckGo = defineTool({
  name: "DuckDuckGo",
  functionName: "duckduckgo_search",
  description:
    "DuckDuckGo is a search engine focused on privacy. It offers search capabilities for web pages, images, and provides translation services. DuckDuckGo also features a private AI chat interface, providing users with an AI assistant that prioritizes data protection.",
  // RAGFlow's meta offers channel general/news while its check wants text/news: both spellings are accepted.
  meta: {
    query: searchQuery("DuckDuckGo"),
    channel: {
      default: "text",
      type: "string",
      description:
        "default:general. The category of the search. `news` is useful for retrieving real-time updates, particularly about politics, sports, and major current events covered by mainstream media sources. `general` is for broader, more general-purpose searches that may include a wide range of sources.",
      enum: ["general", "news"],
    },
  },
  defaults: { top_n: 10 },
  timeoutSeconds: DUCKDUCKGO_TIMEOUT_S,
  check: (params) => positiveInteger(params, "top_n"),
  run: lazyRun(() => import("./web/duckduckgo.js"), (m) => m.runDuckDuckGo),
});

export const SearXNG = defineTool({
  name: "SearXNG",
  functionName: "searxng_search",
  description:
    "SearXNG is a privacy-focused metasearch engine that aggregates results from multiple search engines without tracking users. It provides comprehensive web search capabilities.",
  meta: {
    query: searchQuery("SearXNG"),
    searxng_url: {
      default: "",
      textOnly: true,
      type: "string",
      description: "The base URL of your SearXNG instance (e.g., http://localhost:4000). This is required to connect to your SearXNG server.",
    },
  },
  defaults: { top_n: 10 },
  timeoutSeconds: SEARXNG_TIMEOUT_S,
  check: (params) => positiveInteger(params, "top_n"),
  run: lazyRun(() => import("./web/searxng.js"), (m) => m.runSearXNG),
});

export const KeenableSearch = defineTool({
  name: "KeenableSearch",
  functionName: "keenable_search",
  description: [
    "Keenable is a web search API built for AI agents. It returns fresh, relevant web",
    "results for a query and works without an API key by default (keyless free tier).",
    "When searching:",
    "   - Use a focused query of the most important terms (and synonyms).",
    "   - Optionally restrict to a single site/domain.",
  ].join("\n"),
  meta: {
    query: searchQuery("Keenable"),
    site: { default: "", textOnly: true, type: "string", description: "default:''. Restrict results to a single domain, e.g. 'techcrunch.com'." },
  },
  // No key: Keenable's keyless public endpoint is used.
  defaults: { api_key: "", mode: "pro", top_n: 10 },
  timeoutSeconds: KEENABLE_TIMEOUT_S,
  check: (params) => [
    ...positiveInteger(params, "top_n"),
    ...(params.mode === "realtime" ? credential(params, "api_key", "a Keenable API key (the realtime mode needs one)") : []),
  ],
  run: lazyRun(() => import("./web/keenable.js"), (m) => m.runKeenable),
});

/** Querit time ranges: dN, wN, mN, yN or YYYY-MM-DDtoYYYY-MM-DD. */
const TIME_RANGE = /^([dwmy][1-9][0-9]*|\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2})$/;

function checkQueritSearch(params: Params): ParamProblem[] {
  const problems = positiveInteger(params, "count");
  const chunks = params.chunks_per_doc;
  if (!isNothing(chunks)) {
    const n = finiteNumber(chunks);
    if (n === undefined || !Number.isInteger(n) || n < 1 || n > 3) problems.push({ pointer: "/chunks_per_doc", message: `chunks_per_doc must be 1, 2 or 3, not ${JSON.stringify(chunks)}` });
  }
  const range = params.time_range;
  if (typeof range === "string" && range !== "" && !TIME_RANGE.test(range)) {
    problems.push({ pointer: "/time_range", message: `time_range ${JSON.stringify(range)} must look like d7, w1, m3, y1 or 2024-01-01to2024-12-31` });
  }
  return problems;
}

const STRINGS = { type: "string" } as const;

export const QueritSearch = defineTool({
  name: "QueritSearch",
  functionName: "querit_search",
  description: "Querit is a web search API for AI applications. It returns relevant web pages with titles, URLs and text snippets, and can filter by site, time range, country and language.",
  meta: {
    query: searchQuery("Querit"),
    count: { default: 10, type: "integer", description: "How many results to return (default 10)." },
    chunks_per_doc: { default: 3, type: "integer", description: "Snippets per page, 1 to 3 (default 3)." },
    site_include: { default: [], type: "array", items: STRINGS, description: "Only pages of these sites, e.g. [\"example.com\"]." },
    site_exclude: { default: [], type: "array", items: STRINGS, description: "No pages of these sites." },
    time_range: { default: "", type: "string", description: "Only pages from this period: d7, w1, m3, y1 or 2024-01-01to2024-12-31." },
    country_include: { default: [], type: "array", items: STRINGS, description: "Only pages from these countries." },
    language_include: { default: [], type: "array", items: STRINGS, description: "Only pages in these languages." },
  },
  // An empty api_key falls back to tools.QueritSearch.apiKeyEnv, then to QUERIT_API_KEY.
  defaults: { api_key: "" },
  timeoutSeconds: QUERIT_SEARCH_TIMEOUT_S,
  check: checkQueritSearch,
  run: lazyRun(() => import("./web/querit.js"), (m) => m.runQueritSearch),
});

function checkCrawlTimeout(params: Params): ParamProblem[] {
  const value = params.crawl_timeout;
  if (isNothing(value)) return [];
  const n = finiteNumber(value);
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 60
    ? []
    : [{ pointer: jsonPointer("crawl_timeout"), message: `crawl_timeout must be a whole number of seconds from 1 to 60, not ${JSON.stringify(value)}` }];
}

export const QueritContents = defineTool({
  name: "QueritContents",
  functionName: "querit_contents",
  description: "Querit Contents reads the content of 1 to 10 web pages, as text, Markdown or HTML.",
  // urls: 1 to 10 absolute http(s) URLs, as a list or one comma-separated string.
  meta: {
    urls: { default: "", type: "array", items: STRINGS, description: "The absolute http(s) URLs of the pages to read (1 to 10).", required: true },
    format: { default: "markdown", type: "string", enum: ["text", "markdown", "html"], description: "The format of the content." },
    crawl_timeout: { default: 10, type: "integer", description: "Seconds to wait for each page, 1 to 60." },
    extras_meta: { default: false, type: "boolean", description: "Include page metadata." },
  },
  defaults: { api_key: "" },
  timeoutSeconds: QUERIT_CONTENTS_TIMEOUT_S,
  check: checkCrawlTimeout,
  run: lazyRun(() => import("./web/querit.js"), (m) => m.runQueritContents),
});

function checkDaysBack(params: Params): ParamProblem[] {
  const value = params.days_back;
  return value === "" ? [] : positiveInteger(params, "days_back");
}

export const BGPT = defineTool({
  name: "BGPT",
  functionName: "bgpt_search",
  description:
    "BGPT searches scientific papers and returns structured evidence extracted from full-text studies: methods, sample sizes, results, limitations, conflicts of interest, data/code availability, study blind spots, quality scores, and falsification prompts. Useful when the agent must judge a scientific claim, not just find abstracts.",
  meta: {
    query: { default: "{sys.query}", type: "string", description: "Natural-language scientific search query. Use the most important terms from the user's request.", required: true },
  },
  defaults: { top_n: 10, api_key: "", days_back: null },
  timeoutSeconds: BGPT_TIMEOUT_S,
  check: (params) => [...positiveInteger(params, "top_n"), ...checkDaysBack(params)],
  run: lazyRun(() => import("./web/bgpt.js"), (m) => m.runBGPT),
});
