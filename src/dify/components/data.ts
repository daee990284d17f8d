/**
 * Dify's data nodes:
 * - knowledge-retrieval: canvasflow's Retrieval over the configured knowledge bases (dataset ids
 *   map through `services.tools.knowledgeBases`, `"*"` for any); `result` is
 *   `[{content, title, metadata: {score, document_name, …}}]`;
 * - list-operator: filter → extract (1-based) → order → limit; `result`, `first_record`,
 *   `last_record`;
 * - document-extractor: the text of a file or files (text, markdown, JSON, CSV, HTML), read from
 *   its `url` (through the SSRF-guarded client) or carried inline.
 */
import type { ComponentContext, ComponentDefinition, ParamProblem, ReferenceChunk } from "../../components/types.js";
import { sendHttpRequest } from "../../components/http/request.js";
import { egressPolicyOf } from "../../sandbox/egress/service.js";
import { htmlToText } from "../../components/http/html-to-text.js";
import { toolSpans, type ToolContext } from "../../tools/types.js";
import { isPlainObject } from "../../util/values.js";
import { compare } from "../conditions.js";
import { textOf } from "../render.js";
import { checkSelector, list, readSelector, record, referencesIn, renderText } from "./common.js";

export const DifyKnowledgeRetrieval: ComponentDefinition = {
  name: "DifyKnowledgeRetrieval",
  thoughts: () => "",
  timeoutMs: 60_000,
  references: (params) => referencesIn([params.query_variable_selector]),
  check(params, info): ParamProblem[] {
    const problems = checkSelector(params, "query_variable_selector", true, info);
    if (list(params.dataset_ids).length === 0) problems.push({ pointer: "/dataset_ids", severity: "warning", message: "no dataset is chosen: the retrieval searches the knowledge base configured for any id (\"*\"), if there is one" });
    return problems;
  },
  async invoke(ctx) {
    const query = textOf(readSelector(ctx, ctx.params.query_variable_selector));
    ctx.setInput("query", query);
    const retrieval = ctx.canvas.componentType("Retrieval");
    if (!retrieval?.tool) throw new Error("the Retrieval tool is not registered");
    const multiple = record(ctx.params.multiple_retrieval_config);
    const params = {
      ...(retrieval.defaults ?? {}),
      dataset_ids: list(ctx.params.dataset_ids).filter((id): id is string => typeof id === "string"),
      ...(Number(multiple.top_k) > 0 ? { top_n: Number(multiple.top_k) } : {}),
      ...(typeof multiple.score_threshold === "number" && record(multiple).score_threshold_enabled !== false ? { similarity_threshold: multiple.score_threshold } : {}),
      empty_response: " ",
    };
    let chunks: ReferenceChunk[] = [];
    const toolContext: ToolContext = {
      signal: ctx.signal,
      services: ctx.services,
      params,
      label: ctx.id,
      addReferences: (found, documents) => {
        chunks = [...found];
        ctx.addReferences(found, documents);
      },
      addUsage: (usage) => ctx.addUsage(usage),
      ...toolSpans(ctx),
    };
    if (query.trim() !== "") await retrieval.tool.run({ query }, toolContext);
    ctx.setOutput(
      "result",
      chunks.map((chunk) => ({
        content: chunk.content,
        title: chunk.document_name ?? "",
        url: chunk.url ?? null,
        metadata: {
          score: chunk.similarity ?? null,
          document_id: chunk.document_id ?? null,
          document_name: chunk.document_name ?? null,
          dataset_id: chunk.dataset_id ?? null,
          segment_id: chunk.id,
        },
      })),
    );
  },
};

/** An item's value for a filter or sort `key` (an object's field, a file's attribute; the item itself otherwise). */
function keyed(item: unknown, key: unknown): unknown {
  return isPlainObject(item) && typeof key === "string" && key !== "" ? item[key] : item;
}

function sortKey(value: unknown): string | number {
  return typeof value === "number" ? value : textOf(value);
}

export const DifyListOperator: ComponentDefinition = {
  name: "DifyListOperator",
  thoughts: () => "",
  references: (params) => referencesIn([params.variable], [record(params.extract_by).serial, ...list(record(params.filter_by).conditions).map((c) => record(c).value)]),
  check(params, info): ParamProblem[] {
    return checkSelector(params, "variable", true, info);
  },
  invoke(ctx) {
    const value = readSelector(ctx, ctx.params.variable);
    if (value === undefined) throw new Error("the list variable is not found");
    if (!Array.isArray(value)) throw new Error(`the variable must be a list, it holds ${typeof value}`);
    let items = [...value];
    const filter = record(ctx.params.filter_by);
    if (filter.enabled === true) {
      for (const condition of list(filter.conditions).filter(isPlainObject)) {
        const operator = String(condition.comparison_operator);
        const expected = typeof condition.value === "string" ? renderText(ctx, condition.value) : condition.value;
        items = items.filter((item) => compare(operator, keyed(item, condition.key), coerceExpected(keyed(item, condition.key), expected)));
      }
    }
    const extract = record(ctx.params.extract_by);
    if (extract.enabled === true) {
      const serial = Number(renderText(ctx, extract.serial ?? "1"));
      if (!Number.isInteger(serial) || serial < 1 || serial > items.length) throw new Error(`extract_by: item ${String(extract.serial)} is not in a list of ${items.length}`);
      items = [items[serial - 1]];
    }
    const order = record(ctx.params.order_by);
    if (order.enabled === true) {
      const direction = order.value === "desc" ? -1 : 1;
      items = items
        .map((item, index) => ({ item, index, key: sortKey(keyed(item, order.key)) }))
        .sort((a, b) => (a.key < b.key ? -direction : a.key > b.key ? direction : a.index - b.index))
        .map((x) => x.item);
    }
    const limit = record(ctx.params.limit);
    if (limit.enabled === true && Number(limit.size) >= 0) items = items.slice(0, Math.floor(Number(limit.size)));
    ctx.setOutput("result", items);
    ctx.setOutput("first_record", items.length > 0 ? items[0] : null);
    ctx.setOutput("last_record", items.length > 0 ? items[items.length - 1] : null);
  },
};

/** A filter's expected text as a number when the items are numbers. */
function coerceExpected(actual: unknown, expected: unknown): unknown {
  if (typeof actual === "number" && typeof expected === "string" && expected.trim() !== "" && Number.isFinite(Number(expected))) return Number(expected);
  return expected;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml|csv|markdown))/i;
const TEXT_EXTENSIONS = /\.(txt|md|markdown|json|csv|tsv|html?|xml|ya?ml|log)$/i;

/** The text of one file: carried inline, or fetched from its URL. */
async function fileText(ctx: ComponentContext, file: unknown): Promise<string> {
  if (typeof file === "string") return file;
  if (!isPlainObject(file)) throw new Error("a file must be a file object");
  for (const key of ["text", "content"]) if (typeof file[key] === "string") return file[key] as string;
  const url = typeof file.url === "string" ? file.url : typeof file.remote_url === "string" ? file.remote_url : undefined;
  const name = typeof file.filename === "string" ? file.filename : typeof file.name === "string" ? file.name : (url ?? "");
  const mime = typeof file.mime_type === "string" ? file.mime_type : "";
  if (!(TEXT_TYPES.test(mime) || TEXT_EXTENSIONS.test(name))) throw new Error(`the file ${name || "(no name)"} is not a text, markdown, JSON, CSV or HTML file, which are all canvasflow extracts`);
  if (!url) throw new Error(`the file ${name} has no url to read it from`);
  const response = await sendHttpRequest({ method: "GET", url: new URL(url), headers: {}, timeoutMs: 30_000, egress: egressPolicyOf(ctx.services), signal: ctx.signal });
  if (response.status < 200 || response.status >= 300) throw new Error(`the file ${name} could not be read (HTTP ${response.status})`);
  return /html/i.test(mime) || /\.html?$/i.test(name) ? htmlToText(response.text) : response.text;
}

export const DifyDocumentExtractor: ComponentDefinition = {
  name: "DifyDocumentExtractor",
  thoughts: () => "",
  timeoutMs: 120_000,
  references: (params) => referencesIn([params.variable_selector]),
  check(params, info): ParamProblem[] {
    return checkSelector(params, "variable_selector", true, info);
  },
  async invoke(ctx) {
    const value = readSelector(ctx, ctx.params.variable_selector);
    if (value === undefined) throw new Error("the file variable is not found");
    if (Array.isArray(value)) {
      const texts: string[] = [];
      for (const file of value) texts.push(await fileText(ctx, file));
      ctx.setOutput("text", texts);
    } else ctx.setOutput("text", value === null ? "" : await fileText(ctx, value));
  },
};
