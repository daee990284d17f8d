/**
 * SearXNG (agent/tools/searxng.py) through an instance's JSON API:
 * GET {instance}/search?q=…&format=json&categories=general&language=auto&safesearch=1&pageno=1,
 * read from `results` ({title, url, content, engine, score}). The instance is the user's own: the
 * `searxng_url` param or argument, else tools.SearXNG.baseURL. A URL from the DSL or a model goes
 * through the SSRF guard, as in RAGFlow; a configured one is the operator's and does not.
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { guardedGet, httpUrl } from "./guarded-fetch.js";
import { ApiClient, apiErrorMessage } from "./http-json.js";
import { UnavailableError } from "../../components/unavailable.js";
import { SEARXNG_TIMEOUT_S } from "../timeouts.js";


const SEARCH_PARAMS = { format: "json", categories: "general", language: "auto", safesearch: 1, pageno: 1 } as const;

export const runSearXNG: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "", json: [] };
  const own = (await textArgument(ctx.params.searxng_url)) || (await textArgument(args.searxng_url));
  const timeoutMs = toolTimeoutMs(ctx.params, SEARXNG_TIMEOUT_S);
  let text: string;
  let host: string;
  if (own !== "") {
    const url = apiUrl(httpUrl(own, "searxng_url").href.replace(/\/+$/, ""), "/search", { q: query, ...SEARCH_PARAMS });
    host = url.host;
    const response = await guardedGet(ctx, { url, timeoutMs, headers: { accept: "application/json" } });
    if (response.status >= 400) throw new Error(`SearXNG: ${host} answered HTTP ${response.status}: ${apiErrorMessage(response.text)}`);
    text = response.text;
  } else {
    const base = toolBaseUrl(ctx, "SearXNG", "");
    if (base === "") throw new UnavailableError("SearXNG has no instance: set searxng_url on the component or tools.SearXNG.baseURL in canvasflow.config.json");
    const api = new ApiClient("SearXNG", ctx.signal, timeoutMs);
    const request = { url: apiUrl(base, "/search", { q: query, ...SEARCH_PARAMS }) };
    host = request.url.host;
    text = await api.text(request);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    // An instance without "json" in search.formats answers 403, or HTML.
    throw new Error(`SearXNG: ${host} did not answer with JSON (is "json" enabled in the instance's search.formats?)`);
  }
  if (!isPlainObject(answer) || !Array.isArray(answer.results)) throw new Error(`SearXNG: ${host} answered without a results list`);
  const results = answer.results.filter(isPlainObject).slice(0, wholeNumber(ctx.params.top_n, "top_n", 10, 1));
  const formalized = recordWebHits(ctx, results.map((r) => ({ title: stringField(r.title), url: stringField(r.url), content: stringField(r.content) })));
  return { formalized_content: formalized, json: results };
};
