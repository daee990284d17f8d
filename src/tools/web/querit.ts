/**
 * QueritSearch and QueritContents (agent/tools/querit.py) with `Authorization: Bearer <key>`
 * (api_key, else tools.<Name>.apiKeyEnv, else QUERIT_API_KEY as RAGFlow reads it):
 * - POST {base}/v1/search {query, count, chunksPerDoc?, filters?{sites{include,exclude},
 *   timeRange{date}, geo{countries{include}}, languages{include}}}, hits in `results.result`
 *   ({title, url, snippet});
 * - POST {base}/v1/contents {urls, format, crawlTimeout, extrasMeta}, pages in `results`
 *   ({url, title?, content}) and per-URL `statuses`.
 */
import { UnavailableError } from "../../components/unavailable.js";
import { isPlainObject } from "../../util/values.js";
import type { ToolContext, ToolOutput, ToolRun } from "../types.js";
import { choice, flag, listArgument, stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { chunksPrompt, recordWebHits, webChunks } from "./chunks.js";
import { apiUrl, optionalApiKey, toolBaseUrl } from "./endpoint.js";
import { httpUrl } from "./guarded-fetch.js";
import { ApiClient } from "./http-json.js";
import { QUERIT_CONTENTS_TIMEOUT_S, QUERIT_SEARCH_TIMEOUT_S } from "../timeouts.js";

export const QUERIT_BASE = "https://api.querit.ai";

function client(ctx: ToolContext, tool: string, timeoutSeconds: number): { api: ApiClient; base: string } {
  const key = optionalApiKey(ctx, tool) ?? (toolEnv(ctx).QUERIT_API_KEY?.trim() || undefined);
  if (!key) throw new UnavailableError(`${tool} has no API key: set api_key on the component, tools.${tool}.apiKeyEnv in canvasflow.config.json, or QUERIT_API_KEY`);
  return { api: new ApiClient(tool, ctx.signal, toolTimeoutMs(ctx.params, timeoutSeconds), { authorization: `Bearer ${key}` }), base: toolBaseUrl(ctx, tool, QUERIT_BASE) };
}

function toolEnv(ctx: ToolContext): Readonly<Record<string, string | undefined>> {
  const tools = ctx.services.tools;
  const env = isPlainObject(tools) ? tools.env : undefined;
  return isPlainObject(env) ? (env as Record<string, string | undefined>) : {};
}

export const runQueritSearch: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "", json: {} };
  const { api, base } = client(ctx, "QueritSearch", QUERIT_SEARCH_TIMEOUT_S);
  const value = (key: string) => args[key] ?? ctx.params[key];
  const body: Record<string, unknown> = { query, count: wholeNumber(value("count"), "count", 10, 1) };
  const chunks = value("chunks_per_doc");
  if (chunks !== null && chunks !== undefined && chunks !== "") body.chunksPerDoc = wholeNumber(chunks, "chunks_per_doc", 3, 1);
  const include = await listArgument(value("site_include"), "site_include");
  const exclude = await listArgument(value("site_exclude"), "site_exclude");
  const timeRange = await textArgument(value("time_range"));
  const countries = await listArgument(value("country_include"), "country_include");
  const languages = await listArgument(value("language_include"), "language_include");
  const filters: Record<string, unknown> = {};
  if (include.length > 0 || exclude.length > 0) filters.sites = { ...(include.length > 0 ? { include } : {}), ...(exclude.length > 0 ? { exclude } : {}) };
  if (timeRange !== "") filters.timeRange = { date: timeRange };
  if (countries.length > 0) filters.geo = { countries: { include: countries } };
  if (languages.length > 0) filters.languages = { include: languages };
  if (Object.keys(filters).length > 0) body.filters = filters;
  const request = { method: "POST" as const, url: apiUrl(base, "/v1/search"), json: body };
  const answer = await api.json(request);
  if (!isPlainObject(answer)) throw api.unexpected(request, "a JSON object");
  const container = isPlainObject(answer.results) ? answer.results : {};
  const hits = Array.isArray(container.result) ? container.result.filter(isPlainObject) : [];
  const formalized = recordWebHits(ctx, hits.map((hit) => ({ title: stringField(hit.title), url: stringField(hit.url), content: stringField(hit.snippet) })));
  return { formalized_content: formalized, json: answer };
};

export const runQueritContents: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const urls = await listArgument(args.urls ?? ctx.params.urls, "urls");
  if (urls.length === 0) return { formalized_content: "", json: {} };
  if (urls.length > 10) throw new Error(`urls holds ${urls.length} URLs: Querit reads 1 to 10 at a time`);
  urls.forEach((url, i) => httpUrl(url, `urls[${i}]`));
  const crawlTimeout = wholeNumber(args.crawl_timeout ?? ctx.params.crawl_timeout, "crawl_timeout", 10, 1);
  if (crawlTimeout > 60) throw new Error(`crawl_timeout must be a whole number of seconds from 1 to 60, not ${crawlTimeout}`);
  const { api, base } = client(ctx, "QueritContents", QUERIT_CONTENTS_TIMEOUT_S);
  const body = {
    urls,
    format: choice(args.format ?? ctx.params.format, "format", ["text", "markdown", "html"], "markdown"),
    crawlTimeout,
    extrasMeta: flag(args.extras_meta ?? ctx.params.extras_meta, "extras_meta", false),
  };
  const request = { method: "POST" as const, url: apiUrl(base, "/v1/contents"), json: body };
  const answer = await api.json(request);
  if (!isPlainObject(answer) || (answer.results !== undefined && !Array.isArray(answer.results))) throw api.unexpected(request, "a results list");
  const pages = Array.isArray(answer.results) ? answer.results.filter(isPlainObject) : [];
  const { chunks, documents } = webChunks(pages.map((page) => ({ title: stringField(page.title) || stringField(page.url), url: stringField(page.url), content: stringField(page.content) })));
  if (chunks.length > 0) ctx.addReferences(chunks, documents);
  const failed = (Array.isArray(answer.statuses) ? answer.statuses.filter(isPlainObject) : []).filter((s) => s.status !== undefined && String(s.status).toLowerCase() !== "success");
  const failures = failed.map((s) => `\nCould not read ${stringField(s.url) || "a URL"}: ${stringField(s.error) || stringField(s.message) || String(s.status)}`);
  return { formalized_content: [chunksPrompt(chunks), ...failures].filter((p) => p !== "").join("\n"), json: answer };
};
