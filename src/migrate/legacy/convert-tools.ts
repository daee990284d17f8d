/**
 * v0.19 tool components → the current tools. A v0.19 tool searched for whatever ran before it;
 * a current tool node reads its query param, so the implicit input becomes that param. v0.19's
 * web tools turned every failure into a result text ("**ERROR**: …") and the turn went on;
 * `exception_method: "comment"` keeps that: the failure is recorded on the node and the flow
 * continues with an empty result.
 */
import { isPlainObject, numericValue } from "../../util/values.js";
import type { Converted } from "./convert-llm.js";
import type { LegacyModel } from "./model.js";

interface ToolMapping {
  /** The current component_name. */
  target: string;
  /** The param that receives the input (the tool's meta query param). */
  input: string;
  /** Legacy params that carry over, with their current names. */
  keep: Readonly<Record<string, string>>;
  /** Params the current tool needs that the legacy one did not have. */
  add?: (legacy: Record<string, unknown>) => Record<string, unknown>;
  /** Why the target differs from the source, when it does. */
  substitute?: string;
}

const SAME = (...keys: string[]): Record<string, string> => Object.fromEntries(keys.map((k) => [k, k]));

/** v0.19 searched on its own without keys; DuckDuckGo is the current keyless web search. */
const DUCKDUCKGO_FOR = (engine: string, dropped: string) =>
  `${engine} has no current counterpart in RAGFlow; DuckDuckGo is the keyless web search closest to it${dropped ? ` (${dropped} dropped)` : ""}`;

export const TOOL_MAPPINGS: Readonly<Record<string, ToolMapping>> = {
  Baidu: { target: "DuckDuckGo", input: "query", keep: SAME("top_n"), add: () => ({ channel: "text" }), substitute: DUCKDUCKGO_FOR("Baidu", "") },
  Bing: {
    target: "DuckDuckGo",
    input: "query",
    keep: SAME("top_n"),
    add: (legacy) => ({ channel: String(legacy.channel ?? "").toLowerCase() === "news" ? "news" : "text" }),
    substitute: DUCKDUCKGO_FOR("Bing", "api_key, country and language"),
  },
  DuckDuckGo: { target: "DuckDuckGo", input: "query", keep: SAME("top_n", "channel") },
  Google: { target: "Google", input: "q", keep: SAME("api_key", "country", "language"), add: (legacy) => ({ start: "0", num: String(numericValue(legacy.top_n) ?? 6) }) },
  GoogleScholar: { target: "GoogleScholar", input: "query", keep: SAME("top_n", "sort_by", "year_low", "year_high", "patents") },
  Wikipedia: { target: "Wikipedia", input: "query", keep: SAME("top_n", "language") },
  PubMed: { target: "PubMed", input: "query", keep: SAME("top_n", "email") },
  ArXiv: { target: "ArXiv", input: "query", keep: SAME("top_n", "sort_by") },
  GitHub: { target: "GitHub", input: "query", keep: SAME("top_n") },
  DeepL: { target: "DeepL", input: "query", keep: SAME("auth_key", "source_lang", "target_lang") },
  QWeather: { target: "QWeather", input: "query", keep: SAME("web_apikey", "lang", "type", "user_type", "time_period", "error_code") },
  AkShare: { target: "AkShare", input: "query", keep: SAME("top_n") },
  WenCai: { target: "WenCai", input: "query", keep: SAME("top_n", "query_type") },
  YahooFinance: { target: "YahooFinance", input: "stock_code", keep: SAME("info", "history", "count", "financials", "income_stmt", "balance_sheet", "cash_flow_statement", "news") },
  Crawler: { target: "Crawler", input: "query", keep: SAME("proxy", "extract_type") },
};

/** Tools whose v0.19 failures became result text rather than a failed turn. */
const ERRORS_AS_RESULTS = new Set(Object.keys(TOOL_MAPPINGS).filter((name) => name !== "Crawler"));

function pick(legacy: Record<string, unknown>, keep: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(keep)) if (legacy[from] !== undefined && legacy[from] !== null) out[to] = legacy[from];
  return out;
}

const COMMENT_ON_ERROR = { exception_method: "comment", exception_default_value: "" };

export function convertTool(model: LegacyModel, id: string, name: string): Converted {
  const mapping = TOOL_MAPPINGS[name];
  const legacy = model.params(id);
  const input = model.inputTemplate(id);
  const soft = ERRORS_AS_RESULTS.has(name);
  return {
    name: mapping.target,
    params: { ...pick(legacy, mapping.keep), ...(mapping.add?.(legacy) ?? {}), [mapping.input]: input, ...(soft ? COMMENT_ON_ERROR : {}) },
    change:
      `${name === mapping.target ? "" : `${name} → ${mapping.target}; `}its input became ${mapping.input} "${input}"` +
      (soft ? '; exception_method "comment" (a failure gives an empty result)' : ""),
    reason: mapping.substitute ?? `v0.19 tools read the previous component's output implicitly${soft ? " and turned failures into result text instead of failing the turn" : ""}`,
  };
}

/** Retrieval: same search settings; kb_ids is now dataset_ids; the query is explicit. */
export function convertRetrieval(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const datasets = Array.isArray(legacy.kb_ids) ? legacy.kb_ids : Array.isArray(legacy.dataset_ids) ? legacy.dataset_ids : [];
  const query = model.inputTemplate(id);
  const params: Record<string, unknown> = {
    ...pick(legacy, SAME("similarity_threshold", "keywords_similarity_weight", "top_n", "top_k", "rerank_id", "empty_response", "use_kg", "kb_vars")),
    dataset_ids: datasets,
    query,
    outputs: { formalized_content: { type: "string", value: "" } },
    ...COMMENT_ON_ERROR,
  };
  return {
    name: "Retrieval",
    params,
    change: `query "${query}", kb_ids → dataset_ids; exception_method "comment" (a failure gives an empty result)`,
    reason: "v0.19 Retrieval searched with the previous component's output implicitly and answered with an empty result when it had no knowledge base",
  };
}

/** What a failed query leaves as the result (the error itself is on the node's node_finished event). */
const SQL_FAILED = "**ERROR**: the SQL query failed.";

const DB_TYPES: Readonly<Record<string, string>> = { postgresql: "postgres" };

/** ExeSQL: ran the SQL the previous component (usually a Generate) wrote. */
export function convertExeSql(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const sql = model.inputTemplate(id);
  const dbType = typeof legacy.db_type === "string" ? DB_TYPES[legacy.db_type] ?? legacy.db_type : "mysql";
  const maxRecords = numericValue(legacy.top_n);
  return {
    name: "ExeSQL",
    params: {
      ...pick(legacy, SAME("database", "username", "host", "port", "password")),
      db_type: dbType,
      max_records: maxRecords !== undefined && Number.isInteger(maxRecords) && maxRecords > 0 ? maxRecords : 1024,
      sql,
      exception_method: "comment",
      exception_default_value: SQL_FAILED,
    },
    change: `sql "${sql}", top_n → max_records; the legacy LLM retry settings (llm_id, loop, sampling) dropped; exception_method "comment" (a failure gives the result "${SQL_FAILED}")`,
    reason: "the current ExeSQL runs the SQL it is given (v0.19 read it implicitly); v0.19 put SQL errors into its result, which the reply then showed",
  };
}

/** Code → CodeExec: arguments were a list of {name, component_id}, now {name: reference}. */
export function convertCode(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const args: Record<string, string> = {};
  if (Array.isArray(legacy.arguments)) {
    for (const arg of legacy.arguments) {
      if (!isPlainObject(arg) || typeof arg.name !== "string" || typeof arg.component_id !== "string") continue;
      const ref = model.referenceTo(arg.component_id);
      if (ref) args[arg.name] = ref;
    }
  }
  const lang = String(legacy.lang ?? "python").toLowerCase();
  return {
    name: "CodeExec",
    params: {
      lang: lang === "nodejs" || lang === "javascript" ? "javascript" : "python",
      script: typeof legacy.script === "string" ? legacy.script : "",
      arguments: args,
      outputs: { result: { value: "", type: "String" } },
    },
    change: `Code → CodeExec with arguments ${JSON.stringify(args)}; the sandbox address and enable_network dropped; its output is {${id}@result}`,
    reason: "Code was renamed CodeExec; the current one returns what main() returns (v0.19 returned the script's printed output)",
  };
}

/** Invoke: variables named their source component; now they hold a reference. */
export function convertInvoke(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const variables = Array.isArray(legacy.variables)
    ? legacy.variables.filter(isPlainObject).map((v) => {
        const { component_id, ...rest } = v;
        const ref = typeof component_id === "string" ? model.referenceTo(component_id) : undefined;
        return ref ? { ...rest, ref } : rest;
      })
    : [];
  return {
    name: "Invoke",
    params: { ...pick(legacy, SAME("url", "method", "headers", "proxy", "timeout", "clean_html", "datatype")), variables },
    change: "variables read their source through references",
    reason: "v0.19 named the source component of each variable; the current Invoke reads references",
  };
}
