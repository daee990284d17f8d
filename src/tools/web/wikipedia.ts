/**
 * Wikipedia (agent/tools/wikipedia.py) through the MediaWiki action API at
 * https://<language>.wikipedia.org/w/api.php, as the `wikipedia` Python package uses it:
 * a full-text search (list=search) for the titles, then the plain-text introductions
 * (prop=extracts, exintro, explaintext) and URLs of those pages, 20 titles per request.
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { ApiClient, type ApiRequest } from "./http-json.js";
import { WIKIPEDIA_TIMEOUT_S } from "../timeouts.js";

/** `{language}` is replaced by the language param; a configured baseURL may use it too. */
export const WIKIPEDIA_BASE = "https://{language}.wikipedia.org";
/** MediaWiki returns at most 20 introductions per request. */
const EXTRACTS_PER_REQUEST = 20;
/** Wikimedia asks API clients to say who they are. */
const USER_AGENT = "canvasflow/0.1 (RAGFlow-compatible agent runtime; Wikipedia tool)";

export interface WikipediaPage {
  title: string;
  url: string;
  summary: string;
}

/** The `query` object of an answer; an `error` object (HTTP 200) is a failure worth quoting. */
function queryOf(api: ApiClient, request: ApiRequest, answer: unknown): Record<string, unknown> {
  if (!isPlainObject(answer)) throw api.unexpected(request, "a JSON object");
  if (isPlainObject(answer.error)) {
    throw new Error(`Wikipedia: ${request.url.host} refused the request: ${stringField(answer.error.info) || stringField(answer.error.code) || "no reason given"}`);
  }
  // A search without hits has no `query` at all in some MediaWiki versions.
  return isPlainObject(answer.query) ? answer.query : {};
}

async function searchTitles(api: ApiClient, endpoint: string, query: string, limit: number): Promise<string[]> {
  const request = {
    url: apiUrl(endpoint, "", { action: "query", format: "json", formatversion: 2, list: "search", srsearch: query, srlimit: limit, srprop: "" }),
  };
  const found = queryOf(api, request, await api.json(request)).search;
  return Array.isArray(found) ? found.filter(isPlainObject).map((hit) => stringField(hit.title)).filter((title) => title !== "") : [];
}

/** Introductions of the pages, keyed by the title asked for (redirects and normalisations followed). */
async function introductions(api: ApiClient, endpoint: string, titles: readonly string[]): Promise<Map<string, WikipediaPage>> {
  const pages = new Map<string, WikipediaPage>();
  for (let start = 0; start < titles.length; start += EXTRACTS_PER_REQUEST) {
    const batch = titles.slice(start, start + EXTRACTS_PER_REQUEST);
    const request = {
      url: apiUrl(endpoint, "", {
        action: "query",
        format: "json",
        formatversion: 2,
        prop: "extracts|info|pageprops",
        exintro: 1,
        explaintext: 1,
        exlimit: EXTRACTS_PER_REQUEST,
        inprop: "url",
        ppprop: "disambiguation",
        redirects: 1,
        titles: batch.join("|"),
      }),
    };
    const query = queryOf(api, request, await api.json(request));
    // Follow "normalized" and "redirects" from the title asked for to the page's title.
    const renamed = new Map<string, string>();
    for (const key of ["normalized", "redirects"]) {
      const list = query[key];
      if (Array.isArray(list)) for (const item of list.filter(isPlainObject)) renamed.set(stringField(item.from), stringField(item.to));
    }
    const byTitle = new Map<string, Record<string, unknown>>();
    if (Array.isArray(query.pages)) for (const page of query.pages.filter(isPlainObject)) byTitle.set(stringField(page.title), page);
    for (const asked of batch) {
      let title = asked;
      for (let hops = 0; hops < 3 && renamed.has(title); hops++) title = renamed.get(title)!;
      const page = byTitle.get(title);
      // Missing pages and disambiguation pages are skipped, as RAGFlow skips pages it cannot load.
      if (!page || page.missing === true || (isPlainObject(page.pageprops) && "disambiguation" in page.pageprops)) continue;
      pages.set(asked, { title: stringField(page.title), url: stringField(page.fullurl), summary: stringField(page.extract).trim() });
    }
  }
  return pages;
}

export const runWikipedia: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "", json: [] };
  const language = typeof ctx.params.language === "string" && ctx.params.language.trim() !== "" ? ctx.params.language.trim() : "en";
  const topN = wholeNumber(ctx.params.top_n, "top_n", 10, 1);
  const base = toolBaseUrl(ctx, "Wikipedia", WIKIPEDIA_BASE).replaceAll("{language}", encodeURIComponent(language));
  const endpoint = `${base}/w/api.php`;
  const api = new ApiClient("Wikipedia", ctx.signal, toolTimeoutMs(ctx.params, WIKIPEDIA_TIMEOUT_S), { "user-agent": USER_AGENT });
  const titles = await searchTitles(api, endpoint, query, topN);
  const found = await introductions(api, endpoint, titles);
  const pages = titles.flatMap((title) => (found.has(title) ? [found.get(title)!] : []));
  const formalized = recordWebHits(
    ctx,
    pages.map((page) => ({ title: page.title, url: page.url, content: page.summary })),
  );
  return { formalized_content: formalized, json: pages };
};
