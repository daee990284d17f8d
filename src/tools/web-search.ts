/**
 * Web search and page extraction tools (agent/tools/{tavily,google,duckduckgo,searxng,keenable,
 * querit,bgpt}.py). Each returns its results as prompt text (`formalized_content`) and raw `json`.
 */
import { credential, oneOfCodes, nonNegativeInteger, positiveInteger } from "../components/param-checks.js";
import type { ParamProblem, Params } from "../components/types.js";
import { finiteNumber, isNothing, jsonPointer } from "../util/values.js";
import { GOOGLE_COUNTRIES, GOOGLE_LANGUAGES } from "./codes.js";
import { defineTool } from "./define-tool.js";

const QUERY = { query: { default: "{sys.query}" } };

export const TavilySearch = defineTool({
  name: "TavilySearch",
  meta: { ...QUERY, topic: { default: "general" }, include_domains: { default: [] }, exclude_domains: { default: [] } },
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
  timeoutSeconds: 12,
  check: (params) => [...credential(params, "api_key", "the Tavily API key"), ...positiveInteger(params, "max_results"), ...positiveInteger(params, "days")],
});

export const TavilyExtract = defineTool({
  name: "TavilyExtract",
  // urls: a list, or one comma-separated string.
  meta: { urls: { default: "" }, extract_depth: { default: "basic" }, format: { default: "markdown" } },
  defaults: { api_key: "", include_images: false },
  timeoutSeconds: 600,
  check: (params) => credential(params, "api_key", "the Tavily API key"),
});

export const Google = defineTool({
  name: "Google",
  meta: { q: { default: "{sys.query}" }, start: { default: 0 }, num: { default: 6 } },
  defaults: { api_key: "", country: "cn", language: "en" },
  timeoutSeconds: 12,
  check: (params) => [
    ...credential(params, "api_key", "the SerpApi API key"),
    ...oneOfCodes(params, "country", GOOGLE_COUNTRIES, "Google country code"),
    ...oneOfCodes(params, "language", GOOGLE_LANGUAGES, "Google language code"),
    ...nonNegativeInteger(params, "start"),
    ...positiveInteger(params, "num"),
  ],
});

export const DuckDuckGo = defineTool({
  name: "DuckDuckGo",
  // RAGFlow's meta offers channel general/news while its check wants text/news: both spellings are accepted.
  meta: { ...QUERY, channel: { default: "text" } },
  defaults: { top_n: 10 },
  timeoutSeconds: 12,
  check: (params) => positiveInteger(params, "top_n"),
});

export const SearXNG = defineTool({
  name: "SearXNG",
  meta: { ...QUERY, searxng_url: { default: "", textOnly: true } },
  defaults: { top_n: 10 },
  timeoutSeconds: 12,
  check: (params) => positiveInteger(params, "top_n"),
});

export const KeenableSearch = defineTool({
  name: "KeenableSearch",
  meta: { ...QUERY, site: { default: "", textOnly: true } },
  // No key: Keenable's keyless public endpoint is used.
  defaults: { api_key: "", mode: "pro", top_n: 10 },
  timeoutSeconds: 12,
  check: (params) => [
    ...positiveInteger(params, "top_n"),
    ...(params.mode === "realtime" ? credential(params, "api_key", "a Keenable API key (the realtime mode needs one)") : []),
  ],
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

export const QueritSearch = defineTool({
  name: "QueritSearch",
  meta: {
    ...QUERY,
    count: { default: 10 },
    chunks_per_doc: { default: 3 },
    site_include: { default: [] },
    site_exclude: { default: [] },
    time_range: { default: "" },
    country_include: { default: [] },
    language_include: { default: [] },
  },
  // An empty api_key falls back to the QUERIT_API_KEY environment variable.
  defaults: { api_key: "" },
  timeoutSeconds: 12,
  check: checkQueritSearch,
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
  // urls: 1 to 10 absolute http(s) URLs, as a list or one comma-separated string.
  meta: { urls: { default: "" }, format: { default: "markdown" }, crawl_timeout: { default: 10 }, extras_meta: { default: false } },
  defaults: { api_key: "" },
  timeoutSeconds: 70,
  check: checkCrawlTimeout,
});

function checkDaysBack(params: Params): ParamProblem[] {
  const value = params.days_back;
  return value === "" ? [] : positiveInteger(params, "days_back");
}

export const BGPT = defineTool({
  name: "BGPT",
  meta: QUERY,
  defaults: { top_n: 10, api_key: "", days_back: null },
  timeoutSeconds: 30,
  check: (params) => [...positiveInteger(params, "top_n"), ...checkDaysBack(params)],
});
