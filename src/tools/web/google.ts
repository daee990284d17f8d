/**
 * Google (agent/tools/google.py) through SerpApi: GET {base}/search.json?engine=google&q=…
 * &api_key=…&google_domain=google.com&gl=<country>&hl=<language>&start=…&num=…, read from
 * `organic_results`.
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, requireApiKey, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { GOOGLE_TIMEOUT_S } from "../timeouts.js";

export const SERPAPI_BASE = "https://serpapi.com";

/** SerpApi answers a search without hits with this error (HTTP 200), which is no failure. */
const NO_RESULTS = /hasn't returned any results/i;

/** RAGFlow prefers the source description of "about this result" over the snippet. */
function content(hit: Record<string, unknown>): string {
  const about = hit.about_this_result;
  const source = isPlainObject(about) ? about.source : undefined;
  const description = isPlainObject(source) ? stringField(source.description) : "";
  return description || stringField(hit.snippet);
}

function string(value: unknown, fallback: string): string {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : fallback;
}

export const runGoogle: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const q = await textArgument(args.q);
  if (q === "") return { formalized_content: "", json: [] };
  const key = requireApiKey(ctx, "Google");
  const api = new ApiClient("Google", ctx.signal, toolTimeoutMs(ctx.params, GOOGLE_TIMEOUT_S));
  const request = {
    url: apiUrl(toolBaseUrl(ctx, "Google", SERPAPI_BASE), "/search.json", {
      engine: "google",
      q,
      api_key: key,
      google_domain: "google.com",
      gl: string(ctx.params.country, "cn"),
      hl: string(ctx.params.language, "en"),
      // RAGFlow declares start and num but never sends them; they page and size the results here.
      start: wholeNumber(args.start ?? ctx.params.start, "start", 0, 0),
      num: wholeNumber(args.num ?? ctx.params.num, "num", 6, 1),
    }),
  };
  const answer = await api.json(request);
  if (!isPlainObject(answer)) throw api.unexpected(request, "a JSON object");
  if (!Array.isArray(answer.organic_results)) {
    const error = stringField(answer.error);
    if (error !== "" && !NO_RESULTS.test(error)) throw new Error(`Google: ${request.url.host} refused the search: ${error}`);
    return { formalized_content: "", json: [] };
  }
  const hits = answer.organic_results.filter(isPlainObject);
  const formalized = recordWebHits(
    ctx,
    hits.map((hit) => ({ title: stringField(hit.title), url: stringField(hit.link), content: content(hit) })),
  );
  return { formalized_content: formalized, json: hits };
};
