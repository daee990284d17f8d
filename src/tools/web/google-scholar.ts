/**
 * GoogleScholar (agent/tools/googlescholar.py) through SerpApi, as the Google tool already is:
 * GET {base}/search.json?engine=google_scholar&q=…&api_key=…&num=<top_n>&as_ylo=&as_yhi=
 * &scisbd=1 (sort_by "date")&as_sdt=7 (patents included) or 0, read from `organic_results`. Each
 * hit's content is RAGFlow's "author: …, Abstract: …" from the publication info and snippet.
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { choice, flag, stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, requireApiKey, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { SERPAPI_BASE } from "./google.js";
import { SCHOLAR_TIMEOUT_S } from "../timeouts.js";


function year(value: unknown, name: string): number | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  return wholeNumber(value, name, 0, 1000);
}

function authors(hit: Record<string, unknown>): string {
  const info = isPlainObject(hit.publication_info) ? hit.publication_info : {};
  if (Array.isArray(info.authors)) return info.authors.filter(isPlainObject).map((a) => stringField(a.name)).filter(Boolean).join(",");
  return stringField(info.summary).split(" - ")[0];
}

export const runGoogleScholar: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const q = await textArgument(args.query);
  if (q === "") return { formalized_content: "", json: [] };
  const key = requireApiKey(ctx, "GoogleScholar");
  const params = ctx.params;
  const api = new ApiClient("GoogleScholar", ctx.signal, toolTimeoutMs(params, SCHOLAR_TIMEOUT_S));
  const sortBy = choice(params.sort_by, "sort_by", ["relevance", "date"], "relevance");
  const request = {
    url: apiUrl(toolBaseUrl(ctx, "GoogleScholar", SERPAPI_BASE), "/search.json", {
      engine: "google_scholar",
      q,
      api_key: key,
      num: wholeNumber(params.top_n, "top_n", 12, 1),
      as_ylo: year(params.year_low, "year_low"),
      as_yhi: year(params.year_high, "year_high"),
      scisbd: sortBy === "date" ? 1 : undefined,
      as_sdt: flag(params.patents, "patents", true) ? 7 : 0,
    }),
  };
  const answer = await api.json(request);
  if (!isPlainObject(answer)) throw api.unexpected(request, "a JSON object");
  if (!Array.isArray(answer.organic_results)) {
    const error = stringField(answer.error);
    if (error !== "" && !/hasn't returned any results/i.test(error)) throw new Error(`GoogleScholar: ${request.url.host} refused the search: ${error}`);
    return { formalized_content: "", json: [] };
  }
  const hits = answer.organic_results.filter(isPlainObject);
  const formalized = recordWebHits(
    ctx,
    hits.map((hit) => ({ title: stringField(hit.title), url: stringField(hit.link), content: `\n author: ${authors(hit)}\n Abstract: ${stringField(hit.snippet) || "no abstract"}` })),
  );
  return { formalized_content: formalized, json: hits };
};
