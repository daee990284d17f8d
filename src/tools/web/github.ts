/**
 * GitHub (agent/tools/github.py) through the repository search API:
 * GET {base}/search/repositories?q=<query>&sort=stars&order=desc&per_page=<top_n> with
 * `X-GitHub-Api-Version: 2022-11-28`; a token (tools.GitHub.apiKeyEnv or api_key) is sent as a
 * Bearer token when there is one, for GitHub's higher rate limit. Each item becomes a chunk:
 * "<description>\n stars:<watchers>".
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, optionalApiKey, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { GITHUB_TIMEOUT_S } from "../timeouts.js";

export const GITHUB_BASE = "https://api.github.com";

export const runGitHub: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "", json: [] };
  const token = optionalApiKey(ctx, "GitHub");
  const api = new ApiClient("GitHub", ctx.signal, toolTimeoutMs(ctx.params, GITHUB_TIMEOUT_S), {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    "user-agent": "canvasflow",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  const request = { url: apiUrl(toolBaseUrl(ctx, "GitHub", GITHUB_BASE), "/search/repositories", { q: query, sort: "stars", order: "desc", per_page: wholeNumber(ctx.params.top_n, "top_n", 10, 1) }) };
  const answer = await api.json(request);
  // Rate limits and bad queries come back as {"message": …} without items.
  if (!isPlainObject(answer) || !Array.isArray(answer.items)) {
    const said = isPlainObject(answer) ? stringField(answer.message) : "";
    throw new Error(`GitHub: ${request.url.host} returned no items${said ? `: ${said}` : ""}`);
  }
  const items = answer.items.filter(isPlainObject);
  const formalized = recordWebHits(
    ctx,
    items.map((item) => ({ title: stringField(item.name), url: stringField(item.html_url), content: `${item.description === null || item.description === undefined ? "None" : String(item.description)}\n stars:${String(item.watchers ?? item.stargazers_count ?? 0)}` })),
  );
  return { formalized_content: formalized, json: items };
};
