/**
 * BGPT (agent/tools/bgpt.py): POST {base}/api/mcp-search with JSON {query, num_results, api_key?,
 * days_back?}, papers in `results`. Each paper becomes a chunk holding RAGFlow's structured
 * evidence lines (methods, sample size, results, limitations…).
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, optionalApiKey, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { pythonStr } from "../../components/python-text.js";
import { BGPT_TIMEOUT_S } from "../timeouts.js";

export const BGPT_BASE = "https://bgpt.pro";

const FIELDS: ReadonlyArray<[label: string, ...names: string[]]> = [
  ["Title", "title"],
  ["Authors", "authors"],
  ["Journal", "journal"],
  ["Year", "year"],
  ["DOI", "doi"],
  ["Abstract", "abstract"],
  ["Methods", "methods_and_experimental_techniques", "methods"],
  ["Sample size / population", "sample_size_and_population_characteristics", "sample_size_and_population"],
  ["Results", "results_and_conclusions", "results"],
  ["Limitations", "paper_limitations_and_biases", "limitations"],
  ["Conflicts of interest", "conflict_of_interest_statements", "conflict_of_interest"],
  ["Data availability", "data_availability_statements", "data_availability"],
  ["Blind spots", "study_blindspots"],
  ["How to falsify", "how_to_falsify"],
];

export function bgptPaperText(paper: Record<string, unknown>): string {
  return FIELDS.map(([label, ...names]) => {
    for (const name of names) {
      const value = paper[name];
      if (value === null || value === undefined) continue;
      const text = pythonStr(value).trim();
      if (text !== "") return `${label}: ${text}`;
    }
    return `${label}: -`;
  }).join("\n");
}

export const runBGPT: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "", json: [] };
  const body: Record<string, unknown> = { query, num_results: wholeNumber(ctx.params.top_n, "top_n", 10, 1) };
  const key = optionalApiKey(ctx, "BGPT");
  if (key) body.api_key = key;
  const days = ctx.params.days_back;
  if (days !== null && days !== undefined && days !== "") body.days_back = wholeNumber(days, "days_back", 1, 1);
  const api = new ApiClient("BGPT", ctx.signal, toolTimeoutMs(ctx.params, BGPT_TIMEOUT_S));
  const request = { method: "POST" as const, url: apiUrl(toolBaseUrl(ctx, "BGPT", BGPT_BASE), "/api/mcp-search"), json: body };
  const answer = await api.json(request);
  if (!isPlainObject(answer) || (answer.results !== undefined && !Array.isArray(answer.results))) throw api.unexpected(request, "a results list");
  const papers = Array.isArray(answer.results) ? answer.results.filter(isPlainObject) : [];
  const formalized = recordWebHits(
    ctx,
    papers.map((paper) => ({ title: stringField(paper.title) || "Untitled", url: stringField(paper.url) || stringField(paper.doi), content: bgptPaperText(paper) })),
  );
  return { formalized_content: formalized, json: papers };
};
