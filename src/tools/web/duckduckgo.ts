/**
 * DuckDuckGo (agent/tools/duckduckgo.py) without a key, as the duckduckgo_search package does:
 * - web ("text", "general"): POST https://html.duckduckgo.com/html/ with the form q=…&kl=wt-wt,
 *   then the "Next" form's fields for further pages, read from the HTML;
 * - news: a search token (vqd) from POST https://duckduckgo.com/ (q=…), then
 *   GET https://duckduckgo.com/news.js?q=…&vqd=…&l=wt-wt&o=json&noamp=1&p=-1&s=<offset> (JSON).
 * A configured baseURL replaces both hosts.
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolContext, ToolOutput, ToolRun } from "../types.js";
import { choice, stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { extractVqd, htmlFragmentText, parseDuckDuckGoHtml, type DuckDuckGoTextHit } from "./duckduckgo-html.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { DUCKDUCKGO_TIMEOUT_S } from "../timeouts.js";

export const DUCKDUCKGO_HTML_BASE = "https://html.duckduckgo.com";
export const DUCKDUCKGO_BASE = "https://duckduckgo.com";
/** Pages read at most for one search (a page holds about ten web hits or thirty news items). */
const MAX_PAGES = 5;
/** The world-wide region, as duckduckgo_search defaults to. */
const REGION = "wt-wt";
/** Safe search "moderate" in news.js terms. */
const SAFE_SEARCH = "-1";
/** DuckDuckGo's HTML endpoint turns away clients that do not look like a browser. */
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

/** One news item, in the duckduckgo_search shape. */
export interface DuckDuckGoNewsHit {
  date: string;
  title: string;
  body: string;
  url: string;
  image: string;
  source: string;
}

function blockedError(host: string): Error {
  return new Error(`DuckDuckGo: ${host} answered with its bot check instead of results (too many searches from this address); try again later`);
}

async function webSearch(api: ApiClient, base: string, query: string, topN: number): Promise<DuckDuckGoTextHit[]> {
  const hits: DuckDuckGoTextHit[] = [];
  const seen = new Set<string>();
  let form: Record<string, string> | undefined = { q: query, b: "", kl: REGION };
  for (let page = 0; page < MAX_PAGES && form && hits.length < topN; page++) {
    const request = { method: "POST" as const, url: apiUrl(base, "/html/"), form, headers: { accept: "text/html" } };
    const response = api.requireOk(request, await api.send(request));
    const parsed = parseDuckDuckGoHtml(response.text);
    // 202 is how DuckDuckGo answers a client it rate-limits.
    if (parsed.blocked || response.status === 202) throw blockedError(request.url.host);
    const before = hits.length;
    for (const hit of parsed.hits) {
      if (seen.has(hit.href)) continue;
      seen.add(hit.href);
      hits.push(hit);
    }
    form = hits.length > before ? parsed.next : undefined;
  }
  return hits.slice(0, topN);
}

async function newsSearch(api: ApiClient, base: string, query: string, topN: number): Promise<DuckDuckGoNewsHit[]> {
  const tokenRequest = { method: "POST" as const, url: apiUrl(base, "/"), form: { q: query }, headers: { accept: "text/html" } };
  const vqd = extractVqd(await api.text(tokenRequest));
  if (!vqd) throw new Error(`DuckDuckGo: ${tokenRequest.url.host} gave no search token (vqd) for the news search`);
  const hits: DuckDuckGoNewsHit[] = [];
  const seen = new Set<string>();
  for (let page = 0, offset = 0; page < MAX_PAGES && hits.length < topN; page++) {
    const request = {
      url: apiUrl(base, "/news.js", { l: REGION, o: "json", noamp: 1, q: query, vqd, p: SAFE_SEARCH, s: offset }),
    };
    const answer = await api.json(request);
    if (!isPlainObject(answer) || !Array.isArray(answer.results)) throw api.unexpected(request, "a results list");
    const items = answer.results.filter(isPlainObject);
    const before = hits.length;
    for (const item of items) {
      const url = stringField(item.url);
      if (url === "" || seen.has(url)) continue;
      seen.add(url);
      const date = typeof item.date === "number" && Number.isFinite(item.date) ? new Date(item.date * 1000).toISOString() : stringField(item.date);
      hits.push({ date, title: stringField(item.title), body: htmlFragmentText(stringField(item.excerpt)), url, image: stringField(item.image), source: stringField(item.source) });
    }
    // A page with nothing new ends the search as surely as one without a "next" link.
    if (hits.length === before || typeof answer.next !== "string") break;
    offset += items.length;
  }
  return hits.slice(0, topN);
}

/**
 * The channel: "news", or web search for "text" (the param's default) and "general" (the
 * spelling RAGFlow's function schema offers the model).
 */
function channelOf(args: Record<string, unknown>, ctx: ToolContext): "text" | "news" {
  const channel = choice(args.channel ?? ctx.params.channel, "channel", ["text", "general", "news"], "text");
  return channel === "news" ? "news" : "text";
}

export const runDuckDuckGo: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "", json: [] };
  const topN = wholeNumber(ctx.params.top_n, "top_n", 10, 1);
  const api = new ApiClient("DuckDuckGo", ctx.signal, toolTimeoutMs(ctx.params, DUCKDUCKGO_TIMEOUT_S), { "user-agent": USER_AGENT });
  if (channelOf(args, ctx) === "news") {
    const news = await newsSearch(api, toolBaseUrl(ctx, "DuckDuckGo", DUCKDUCKGO_BASE), query, topN);
    return { formalized_content: recordWebHits(ctx, news.map((hit) => ({ title: hit.title, url: hit.url, content: hit.body }))), json: news };
  }
  const hits = await webSearch(api, toolBaseUrl(ctx, "DuckDuckGo", DUCKDUCKGO_HTML_BASE), query, topN);
  return { formalized_content: recordWebHits(ctx, hits.map((hit) => ({ title: hit.title, url: hit.href, content: hit.body }))), json: hits };
};
