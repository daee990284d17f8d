/**
 * AkShare (agent/tools/akshare.py): the latest East Money news of an A-share stock, fetched as
 * akshare's stock_news_em does: GET {base}/search/jsonp?cb=jQuery…&param=<JSON asking the
 * cmsArticleWebOld index for the symbol>, a JSONP answer whose result.cmsArticleWebOld lists
 * {date, mediaName, code, title, content}. Each article is RAGFlow's line:
 * '<a href="<link>"><title></a>\n 新闻内容: <content> \n发布时间:<date> \n文章来源: <source>'.
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { stringField, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { AKSHARE_TIMEOUT_S } from "../timeouts.js";

export const EASTMONEY_SEARCH_BASE = "https://search-api-web.eastmoney.com";
const CALLBACK = "jQuery3510875346244069884_1668256937995";

/** East Money marks the search term with <em>; the text is plain otherwise. */
function plain(text: string): string {
  return text.replace(/<\/?em>/g, "").replace(/\u3000/g, "").replace(/\r\n/g, " ");
}

/** The JSON inside `callback(...)`. */
export function unwrapJsonp(text: string): unknown {
  const start = text.indexOf("(");
  const end = text.lastIndexOf(")");
  if (start < 0 || end <= start) throw new Error("the answer is not JSONP");
  return JSON.parse(text.slice(start + 1, end));
}

export const runAkShare: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const symbol = await textArgument(args.query);
  if (symbol === "") return { formalized_content: "" };
  const topN = wholeNumber(ctx.params.top_n, "top_n", 10, 1);
  const param = {
    uid: "",
    keyword: symbol,
    type: ["cmsArticleWebOld"],
    client: "web",
    clientType: "web",
    clientVersion: "curr",
    param: { cmsArticleWebOld: { searchScope: "default", sort: "default", pageIndex: 1, pageSize: Math.max(topN, 10), preTag: "<em>", postTag: "</em>" } },
  };
  const api = new ApiClient("AkShare", ctx.signal, toolTimeoutMs(ctx.params, AKSHARE_TIMEOUT_S), { accept: "*/*", referer: "https://so.eastmoney.com/" });
  const request = { url: apiUrl(toolBaseUrl(ctx, "AkShare", EASTMONEY_SEARCH_BASE), "/search/jsonp", { cb: CALLBACK, param: JSON.stringify(param) }) };
  let answer: unknown;
  try {
    answer = unwrapJsonp(await api.text(request));
  } catch (error) {
    if (error instanceof SyntaxError || (error as Error).message === "the answer is not JSONP") throw api.unexpected(request, "the JSONP news list");
    throw error;
  }
  const result = isPlainObject(answer) && isPlainObject(answer.result) ? answer.result : {};
  const articles = (Array.isArray(result.cmsArticleWebOld) ? result.cmsArticleWebOld.filter(isPlainObject) : []).slice(0, topN);
  const items = articles.map(
    (a) =>
      `<a href="http://finance.eastmoney.com/a/${stringField(a.code)}.html">${plain(stringField(a.title))}</a>\n 新闻内容: ${plain(stringField(a.content))} \n发布时间:${stringField(a.date)} \n文章来源: ${stringField(a.mediaName)}`,
  );
  return { formalized_content: items.join("\n\n") };
};
