/**
 * TavilySearch and TavilyExtract (agent/tools/tavily.py) over Tavily's REST API:
 * POST {base}/search and POST {base}/extract with a JSON body and `Authorization: Bearer <key>`,
 * as the tavily-python client sends them.
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolContext, ToolOutput, ToolRun } from "../types.js";
import { choice, flag, listArgument, stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { chunksPrompt, recordWebHits, webChunks, type WebHit } from "./chunks.js";
import { apiUrl, requireApiKey, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { TAVILY_EXTRACT_TIMEOUT_S, TAVILY_SEARCH_TIMEOUT_S } from "../timeouts.js";

export const TAVILY_BASE = "https://api.tavily.com";

function client(ctx: ToolContext, tool: string, timeoutSeconds: number): { api: ApiClient; base: string } {
  const key = requireApiKey(ctx, tool);
  const base = toolBaseUrl(ctx, tool, TAVILY_BASE);
  return { api: new ApiClient(tool, ctx.signal, toolTimeoutMs(ctx.params, timeoutSeconds), { authorization: `Bearer ${key}` }), base };
}

/** Tavily's `results`, checked to be a list of objects. */
function results(api: ApiClient, request: { url: URL }, body: unknown): Array<Record<string, unknown>> {
  if (!isPlainObject(body) || !Array.isArray(body.results)) throw api.unexpected(request, "a results list");
  return body.results.filter(isPlainObject);
}

export const runTavilySearch: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "", json: [] };
  const { api, base } = client(ctx, "TavilySearch", TAVILY_SEARCH_TIMEOUT_S);
  const params = ctx.params;
  const topic = choice(args.topic ?? params.topic, "topic", ["general", "news"], "general");
  const body: Record<string, unknown> = {
    query,
    topic,
    search_depth: choice(params.search_depth, "search_depth", ["basic", "advanced"], "basic"),
    max_results: wholeNumber(params.max_results, "max_results", 6, 1),
    include_domains: await listArgument(args.include_domains ?? params.include_domains, "include_domains"),
    exclude_domains: await listArgument(args.exclude_domains ?? params.exclude_domains, "exclude_domains"),
    include_answer: flag(params.include_answer, "include_answer", false),
    // RAGFlow always turns these two off: images are useless to a text model and raw pages flood its context.
    include_raw_content: false,
    include_images: false,
    include_image_descriptions: flag(params.include_image_descriptions, "include_image_descriptions", false),
  };
  // Tavily only reads `days` for news.
  if (topic === "news") body.days = wholeNumber(params.days, "days", 14, 1);
  const request = { method: "POST" as const, url: apiUrl(base, "/search"), json: body };
  const hits = results(api, request, await api.json(request));
  const webHits: WebHit[] = hits.map((hit) => ({
    title: stringField(hit.title),
    url: stringField(hit.url),
    content: stringField(hit.raw_content) || stringField(hit.content),
    score: typeof hit.score === "number" ? hit.score : undefined,
  }));
  return { formalized_content: recordWebHits(ctx, webHits), json: hits };
};

export const runTavilyExtract: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const urls = await listArgument(args.urls ?? ctx.params.urls, "urls");
  if (urls.length === 0) return { formalized_content: "", json: [] };
  const { api, base } = client(ctx, "TavilyExtract", TAVILY_EXTRACT_TIMEOUT_S);
  const body = {
    urls,
    extract_depth: choice(args.extract_depth ?? ctx.params.extract_depth, "extract_depth", ["basic", "advanced"], "basic"),
    format: choice(args.format ?? ctx.params.format, "format", ["markdown", "text"], "markdown"),
    include_images: false,
  };
  const request = { method: "POST" as const, url: apiUrl(base, "/extract"), json: body };
  const answer = await api.json(request);
  const pages = results(api, request, answer);
  const failed = isPlainObject(answer) && Array.isArray(answer.failed_results) ? answer.failed_results.filter(isPlainObject) : [];
  const { chunks, documents } = webChunks(pages.map((page) => ({ title: stringField(page.url), url: stringField(page.url), content: stringField(page.raw_content) })));
  if (chunks.length > 0) ctx.addReferences(chunks, documents);
  // The model should know which pages could not be read, not just miss them.
  const failures = failed.map((item) => `\nCould not extract ${stringField(item.url) || "a URL"}: ${stringField(item.error) || "no reason given"}`);
  return { formalized_content: [chunksPrompt(chunks), ...failures].filter((part) => part !== "").join("\n"), json: pages };
};
