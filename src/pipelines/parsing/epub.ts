/**
 * EPUB (research/ragflow-pipelines.md §4.2 "EPUB"): the content documents in spine order
 * (META-INF/container.xml → the OPF's manifest and spine; without one, every .xhtml/.html/.htm
 * file sorted by name), each turned into sections by the HTML parser's walk, as RAGFlow's EpubParser hands
 * each one to its HtmlParser with 512 tokens per section (html-sections.ts).
 */
import { DocumentParseError, type ParsedItem } from "../payload.js";
import type { FormatParser } from "./contract.js";
import { checkAborted, outputFormatOf, readWhole, TextBudget } from "./binary-input.js";
import { attr, childrenNamed, findAll, findFirst, parseXml } from "./xml.js";
import { withZip, type ZipArchive } from "./zip.js";
import { cl100kCounter } from "../chunking/tokens.js";
import { htmlToSections } from "./html-sections.js";

const CHUNK_TOKEN_NUM = 512;
const XHTML_MEDIA_TYPES = new Set(["application/xhtml+xml", "text/html", "text/xml"]);

/** The content documents' paths in reading order. */
export async function spineOrder(zip: ZipArchive): Promise<string[]> {
  const fallback = () =>
    zip
      .names()
      .filter((n) => /\.(?:xhtml|html|htm)$/i.test(n) && !n.startsWith("META-INF/"))
      .sort();
  if (!zip.has("META-INF/container.xml")) return fallback();
  const rootfile = findFirst(parseXml(await zip.readText("META-INF/container.xml")), "rootfile");
  const opfPath = rootfile ? (attr(rootfile, "full-path") ?? "") : "";
  if (!opfPath || !zip.has(opfPath)) return fallback();
  const opfDir = opfPath.includes("/") ? opfPath.slice(0, opfPath.lastIndexOf("/") + 1) : "";
  const opf = parseXml(await zip.readText(opfPath));
  const manifest = new Map<string, { href: string; mediaType: string }>();
  for (const item of findAll(opf, "item")) {
    const id = attr(item, "id") ?? "";
    const href = attr(item, "href") ?? "";
    if (id && href) manifest.set(id, { href, mediaType: attr(item, "media-type") ?? "" });
  }
  const spine = findFirst(opf, "spine");
  const items = (spine ? childrenNamed(spine, "itemref") : [])
    .map((ref) => manifest.get(attr(ref, "idref") ?? ""))
    .filter((item) => item !== undefined && XHTML_MEDIA_TYPES.has(item.mediaType))
    .map((item) => opfDir + item!.href);
  return items.length > 0 ? items : fallback();
}

/** EPUB: chapters in spine order, as text or json sections. */
export const parseEpub: FormatParser = async (request) => {
  const name = request.source.name;
  const format = outputFormatOf(request, "EPUB", ["text", "json"] as const);
  const bytes = await readWhole(request);
  const tokens = await cl100kCounter();
  const budget = new TextBudget(request.limits, name, request.warn);
  return withZip(name, "EPUB", bytes, request.limits, async (zip) => {
    const chapters = await spineOrder(zip);
    if (chapters.length === 0) throw new DocumentParseError(name, `${name} is not an EPUB book: it has no XHTML or HTML content documents`);
    const sections: string[] = [];
    for (const chapter of chapters) {
      checkAborted(request);
      // A spine entry the container lacks is skipped, as RAGFlow does.
      if (!zip.has(chapter)) continue;
      const html = new TextDecoder("utf-8").decode(await zip.read(chapter));
      if (!html.trim()) continue;
      // Each chapter through RAGFlow's HtmlParser walk (html-sections.ts), as RAGFlow's EPUB parser does.
      for (const section of await htmlToSections(html, { chunkTokenNum: CHUNK_TOKEN_NUM, tokens })) {
        if (!section) continue;
        if (!budget.take(section)) break;
        sections.push(section);
      }
      if (budget.exhausted) break;
    }
    if (format === "json") return { output_format: "json", json: sections.map((text): ParsedItem => ({ text, doc_type_kwd: "text" })) };
    return { output_format: "text", text: sections.join("\n") };
  });
};
