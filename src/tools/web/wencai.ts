/**
 * WenCai (agent/tools/wencai.py, which calls pywencai; RAGFlow's own call is commented out at
 * HEAD, so it returns an empty report). Here the request pywencai sends: POST
 * {base}/customized/chart/get-robot-data with JSON {question, perpage, page, secondary_intent:
 * <query_type>, source, version, log_info, add_info}. The answer's
 * data.answer[0].txt[0].content.components each hold a table (data.datas rows, data.columns)
 * or text; the report is RAGFlow's: each part's title, a newline, its Markdown table or text,
 * parts separated by blank lines.
 *
 * iwencai.com checks a `hexin-v` token computed by its own JavaScript; this tool does not compute
 * it, so the public site may refuse (the error says so). A configured baseURL (a gateway that adds
 * the token, or a stand-in) is used as is.
 */
import { isPlainObject } from "../../util/values.js";
import { markdownTable } from "../sql/markdown-table.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { choice, stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { WENCAI_TIMEOUT_S } from "../timeouts.js";

export const IWENCAI_BASE = "https://www.iwencai.com";
const QUERY_TYPES = ["stock", "zhishu", "fund", "hkstock", "usstock", "threeboard", "conbond", "insurance", "futures", "lccp", "foreign_exchange"] as const;

/** The parts of an answer: [title, text] pairs. */
export function wencaiParts(answer: unknown): Array<[string, string]> {
  const data = isPlainObject(answer) && isPlainObject(answer.data) ? answer.data : {};
  const first = Array.isArray(data.answer) ? data.answer.find(isPlainObject) : undefined;
  const txt = first && Array.isArray(first.txt) ? first.txt.find(isPlainObject) : undefined;
  const content = txt && isPlainObject(txt.content) ? txt.content : {};
  const components = Array.isArray(content.components) ? content.components.filter(isPlainObject) : [];
  const parts: Array<[string, string]> = [];
  for (const component of components) {
    const body = isPlainObject(component.data) ? component.data : {};
    const config = isPlainObject(component.config) ? component.config : {};
    const title = stringField(component.title) || stringField(config.title) || stringField(component.show_type);
    if (Array.isArray(body.datas)) {
      const rows = body.datas.filter(isPlainObject);
      // Image columns carry nothing a model can read (RAGFlow skips such tables too).
      const columns = (Array.isArray(body.columns) ? body.columns.filter(isPlainObject).map((c) => stringField(c.key) || stringField(c.index_name)) : Object.keys(rows[0] ?? {})).filter(
        (c) => c !== "" && c !== "image_url",
      );
      if (rows.length > 0) parts.push([title, markdownTable(columns, rows)]);
    } else if (typeof body.content === "string" || typeof component.text === "string") {
      parts.push([title, stringField(body.content) || stringField(component.text)]);
    }
  }
  return parts;
}

export const runWenCai: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const question = await textArgument(args.query);
  if (question === "") return { formalized_content: "", report: "" };
  const api = new ApiClient("WenCai", ctx.signal, toolTimeoutMs(ctx.params, WENCAI_TIMEOUT_S), {
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  });
  const request = {
    method: "POST" as const,
    url: apiUrl(toolBaseUrl(ctx, "WenCai", IWENCAI_BASE), "/customized/chart/get-robot-data"),
    json: {
      question,
      perpage: wholeNumber(ctx.params.top_n, "top_n", 10, 1),
      page: 1,
      secondary_intent: choice(ctx.params.query_type, "query_type", QUERY_TYPES, "stock"),
      source: "Ths_iwencai_Xuangu",
      version: "2.0",
      log_info: JSON.stringify({ input_type: "typewrite" }),
      add_info: JSON.stringify({ urp: { scene: 1, company: 1, business: 1 }, contentType: "json", searchInfo: true }),
    },
  };
  const answer = await api.json(request);
  const report = wencaiParts(answer)
    .map(([title, text]) => (title ? `${title}\n${text}` : text))
    .join("\n\n");
  return { formalized_content: report, report };
};
