/**
 * PubMed (agent/tools/pubmed.py) through NCBI's E-utilities, as Biopython's Entrez sends them:
 * GET {base}/esearch.fcgi?db=pubmed&retmax=<top_n>&term=<query>&tool=…&email=… (XML
 * eSearchResult/IdList/Id), then GET {base}/efetch.fcgi?db=pubmed&id=<ids>&retmode=xml
 * (PubmedArticleSet/PubmedArticle). Each article becomes a chunk: RAGFlow's "Title/Authors/
 * Journal/Volume/Issue/Pages/DOI/Abstract" text, with the PubMed URL.
 */
import type { ToolOutput, ToolRun } from "../types.js";
import { textArgument, toolTimeoutMs, wholeNumber } from "./args.js";
import { recordWebHits } from "./chunks.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { parseXml, xmlAll, xmlPath, xmlText, type XmlElement } from "./xml.js";
import { PUBMED_TIMEOUT_S } from "../timeouts.js";

export const EUTILS_BASE = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils";

/** RAGFlow strips <b> and <i> from the XML before reading it; textContent does the same. */
export function pubmedArticleText(article: XmlElement): { title: string; url: string; content: string } {
  const text = (path: string, base: XmlElement = article) => xmlText(xmlPath(base, path));
  const title = text("MedlineCitation/Article/ArticleTitle");
  const authors = xmlAll(article, "Author")
    .map((author) => `${text("ForeName", author)} ${text("LastName", author)}`.trim())
    .filter((name) => name !== "");
  const doi = xmlAll(article, "ArticleId").find((id) => id.attribs.IdType === "doi");
  const content = [
    `Title: ${title || "No title"}`,
    `Authors: ${authors.length > 0 ? authors.join(", ") : "Unknown Authors"}`,
    `Journal: ${text("MedlineCitation/Article/Journal/Title") || "Unknown Journal"}`,
    `Volume: ${text("MedlineCitation/Article/Journal/JournalIssue/Volume") || "-"}`,
    `Issue: ${text("MedlineCitation/Article/Journal/JournalIssue/Issue") || "-"}`,
    `Pages: ${text("MedlineCitation/Article/Pagination/MedlinePgn") || "-"}`,
    `DOI: ${xmlText(doi) || "-"}`,
    `Abstract: ${text("MedlineCitation/Article/Abstract/AbstractText") || "No abstract available"}`,
  ].join("\n");
  return { title, url: `https://pubmed.ncbi.nlm.nih.gov/${text("MedlineCitation/PMID")}`, content };
}

export const runPubMed: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const query = await textArgument(args.query);
  if (query === "") return { formalized_content: "" };
  const base = toolBaseUrl(ctx, "PubMed", EUTILS_BASE);
  const api = new ApiClient("PubMed", ctx.signal, toolTimeoutMs(ctx.params, PUBMED_TIMEOUT_S), { accept: "text/xml" });
  const email = typeof ctx.params.email === "string" && ctx.params.email.trim() !== "" ? ctx.params.email.trim() : undefined;
  const who = { tool: "canvasflow", email };
  const search = { url: apiUrl(base, "/esearch.fcgi", { db: "pubmed", retmax: wholeNumber(ctx.params.top_n, "top_n", 12, 1), term: query, ...who }) };
  const ids = xmlAll(parseXml(await api.text(search)), "Id").map(xmlText).filter((id) => id !== "");
  if (ids.length === 0) return { formalized_content: "" };
  const fetchRequest = { url: apiUrl(base, "/efetch.fcgi", { db: "pubmed", id: ids.join(","), retmode: "xml", ...who }) };
  const articles = xmlAll(parseXml(await api.text(fetchRequest)), "PubmedArticle").map(pubmedArticleText);
  return { formalized_content: recordWebHits(ctx, articles) };
};
