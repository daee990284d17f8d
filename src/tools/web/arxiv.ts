/**
 * ArXiv (agent/tools/arxiv.py) through arXiv's Atom API, as the `arxiv` Python package queries
 * it: GET {base}/api/query?search_query=<query>&id_list=&sortBy=<sort_by>&sortOrder=descending
 * &start=0&max_results=<top_n>. Each <entry> becomes a chunk: its title, its PDF link, its summary.
 */
import type { ToolOutput, ToolRun } from "../types.js";
import { choice, textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { parseXml, xmlAll, xmlPath, xmlText, type XmlElement } from "./xml.js";
import { ARXIV_TIMEOUT_S } from "../timeouts.js";

export const ARXIV_BASE = "https://export.arxiv.org";

/** The PDF link of an entry (rel=related, title=pdf), else its abs page turned into /pdf/. */
function pdfUrl(entry: XmlElement): string {
  const pdf = xmlAll(entry, "link").find((link) => link.attribs.title === "pdf");
  if (pdf?.attribs.href) return pdf.attribs.href;
  return xmlText(xmlPath(entry, "id")).replace("/abs/", "/pdf/");
}

export const runArXiv: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "" };
  const sortBy = choice(ctx.params.sort_by, "sort_by", ["submittedDate", "lastUpdatedDate", "relevance"], "submittedDate");
  const api = new ApiClient("ArXiv", ctx.signal, toolTimeoutMs(ctx.params, ARXIV_TIMEOUT_S), { accept: "application/atom+xml" });
  const request = {
    url: apiUrl(toolBaseUrl(ctx, "ArXiv", ARXIV_BASE), "/api/query", {
      search_query: query,
      id_list: "",
      sortBy,
      sortOrder: "descending",
      start: 0,
      max_results: wholeNumber(ctx.params.top_n, "top_n", 12, 1),
    }),
  };
  const entries = xmlAll(parseXml(await api.text(request)), "entry");
  const hits = entries.map((entry) => ({
    title: xmlText(xmlPath(entry, "title")).replace(/\s+/g, " "),
    url: pdfUrl(entry),
    content: xmlText(xmlPath(entry, "summary")).replace(/\s+/g, " "),
  }));
  return { formalized_content: recordWebHits(ctx, hits) };
};
