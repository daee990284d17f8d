/**
 * Crawler (agent/tools/crawler.py, crawl4ai in RAGFlow): fetches the page with undici through the
 * egress guard (DNS pinned; loopback and private networks refused unless the operator allows
 * them: services.egress), optionally through `proxy`, and returns it as
 * `extract_type` says: "markdown" (node-html-markdown, scripts and styles dropped), "html" (the
 * cleaned HTML: no scripts, styles or comments) or "content" (the plain text).
 */
import type { NodeHtmlMarkdown } from "node-html-markdown";
import { htmlToText } from "../../components/http/html-to-text.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { choice, textArgument, toolTimeoutMs } from "./args.js";
import { guardedGet, httpUrl } from "./guarded-fetch.js";
import { CRAWLER_TIMEOUT_S } from "../timeouts.js";
import { importPackage } from "../../util/optional-package.js";

/** Pages larger than this are refused: a model cannot read them anyway. */
const MAX_PAGE_CHARS = 5_000_000;

let markdown: NodeHtmlMarkdown | undefined;

/** The converter, made on first use (the library loads then). */
async function converter(): Promise<NodeHtmlMarkdown> {
  if (!markdown) {
    const { NodeHtmlMarkdown } = await importPackage<typeof import("node-html-markdown")>("node-html-markdown", "Crawler (pages as Markdown)");
    markdown = new NodeHtmlMarkdown({ ignore: ["script", "style", "noscript", "template", "svg", "iframe"], maxConsecutiveNewlines: 2 });
  }
  return markdown;
}

/** The HTML without scripts, styles, templates and comments. */
export function cleanHtml(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, "")
    .trim();
}

export async function htmlToMarkdown(html: string): Promise<string> {
  return (await converter()).translate(cleanHtml(html)).trim();
}

export const runCrawler: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const target = await textArgument(args.query);
  if (target === "") return { formalized_content: "" };
  const url = httpUrl(target, "query (the page URL)");
  const extract = choice(ctx.params.extract_type, "extract_type", ["markdown", "html", "content"], "markdown");
  const proxyText = typeof ctx.params.proxy === "string" ? ctx.params.proxy.trim() : "";
  const response = await guardedGet(ctx, {
    url,
    timeoutMs: toolTimeoutMs(ctx.params, CRAWLER_TIMEOUT_S),
    headers: { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8", "user-agent": "Mozilla/5.0 (compatible; canvasflow-crawler)" },
    ...(proxyText !== "" ? { proxy: httpUrl(proxyText, "proxy") } : {}),
  });
  if (response.status >= 400) throw new Error(`Crawler: ${url.host} answered HTTP ${response.status} for ${url.pathname}`);
  if (response.text.length > MAX_PAGE_CHARS) throw new Error(`Crawler: the page at ${url.host}${url.pathname} is ${response.text.length} characters, over the ${MAX_PAGE_CHARS} read at most`);
  const contentType = String(response.headers["content-type"] ?? "");
  const isHtml = contentType === "" || /html|xml/i.test(contentType);
  if (!isHtml) return { formalized_content: response.text };
  const text = extract === "html" ? cleanHtml(response.text) : extract === "content" ? htmlToText(response.text) : await htmlToMarkdown(response.text);
  return { formalized_content: text };
};
