/**
 * KeenableSearch (agent/tools/keenable.py): POST {base}/v1/search/public (keyless) or
 * {base}/v1/search with `X-API-Key` when a key is set, JSON {query, mode, site?}, read from
 * `results` ({title, url, snippet, description}).
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { choice, stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, optionalApiKey, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { KEENABLE_TIMEOUT_S } from "../timeouts.js";

export const KEENABLE_BASE = "https://api.keenable.ai";

/** Keenable's `snippet` carries the page text; `description` is often empty. Newlines flattened. */
function content(result: Record<string, unknown>): string {
  return (stringField(result.snippet) || stringField(result.description)).split(/\s+/).filter(Boolean).join(" ");
}

export const runKeenable: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "", json: [] };
  const key = optionalApiKey(ctx, "KeenableSearch");
  const api = new ApiClient("KeenableSearch", ctx.signal, toolTimeoutMs(ctx.params, KEENABLE_TIMEOUT_S), {
    "user-agent": "keenable-canvasflow",
    "x-keenable-title": "canvasflow",
    ...(key ? { "x-api-key": key } : {}),
  });
  const site = await textArgument(args.site ?? ctx.params.site);
  const body: Record<string, unknown> = { query, mode: choice(ctx.params.mode, "mode", ["pro", "realtime"], "pro") };
  if (site !== "") body.site = site;
  const request = { method: "POST" as const, url: apiUrl(toolBaseUrl(ctx, "KeenableSearch", KEENABLE_BASE), key ? "/v1/search" : "/v1/search/public"), json: body };
  const answer = await api.json(request);
  if (!isPlainObject(answer)) throw api.unexpected(request, "a JSON object");
  const results = (Array.isArray(answer.results) ? answer.results.filter(isPlainObject) : []).slice(0, wholeNumber(ctx.params.top_n, "top_n", 10, 1));
  const formalized = recordWebHits(ctx, results.map((r) => ({ title: stringField(r.title), url: stringField(r.url), content: content(r) })));
  return { formalized_content: formalized, json: results };
};
