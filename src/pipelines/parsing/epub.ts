/**
 * EPUB (research/ragflow-pipelines.md §4.2 "EPUB"): the content documents in spine order
 * (META-INF/container.xml → the OPF's manifest and spine; without one, every .xhtml/.html/.htm
 * file sorted by name), each turned into sections by an HTML walk, as RAGFlow's EpubParser hands
 * each one to its HtmlParser with 512 tokens per section.
 *
 * The HTML walk below is a small one of this module's own, written while the HTML parser
 * (`htmlToSections`) is built beside it; `chapterSections` is the one place to switch to it.
 */
import type * as Htmlparser2 from "htmlparser2";
import { DocumentParseError, type ParsedItem } from "../payload.js";
import type { FormatParser } from "./contract.js";
import { checkAborted, outputFormatOf, readWhole, startNote, TextBudget } from "./binary-input.js";
import { attr, childrenNamed, findAll, findFirst, parseXml } from "./xml.js";
import { withZip, type ZipArchive } from "./zip.js";
import { cl100kCounter, type TokenCounter } from "../chunking/tokens.js";
import { lazyPackage } from "../../util/optional-package.js";

const htmlparser2 = lazyPackage<typeof Htmlparser2>("htmlparser2", "Reading EPUB chapters");

type DomDocument = ReturnType<typeof Htmlparser2.parseDocument>;
type DomNode = DomDocument["children"][number];
type DomElement = Extract<DomNode, { name: string; attribs: Record<string, string> }>;

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

const BLOCK_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "article", "section", "aside", "ul", "ol", "li", "table", "pre", "code", "blockquote", "figure", "figcaption"]);
const TITLE_PREFIX: Record<string, string> = { h1: "#", h2: "##", h3: "###", h4: "####", h5: "#####", h6: "######" };
const HARD_BREAK = "\x0b";

interface TextPiece {
  content: string;
  tag: string;
  block: number | undefined;
  breaks: number;
}

function isElement(node: DomNode): node is DomElement {
  return "name" in node && "attribs" in node;
}

/** Walks the body: text pieces with their block and the line breaks before them; tables kept whole. */
function walk(node: DomNode, parentTag: string, block: number | undefined, breaks: number, state: { pieces: TextPiece[]; tables: string[]; blocks: number }): boolean {
  if (node.type === "text") {
    const content = (node as { data: string }).data;
    if (!content.trim()) return false;
    state.pieces.push({ content, tag: parentTag, block, breaks });
    return true;
  }
  if (!isElement(node) || node.type === "script" || node.type === "style") return false;
  const name = node.name.toLowerCase();
  if (name === "table") {
    // As RAGFlow: inline styles dropped, entities left decoded.
    for (const element of [node, ...htmlparser2().DomUtils.findAll(() => true, node.children)]) delete element.attribs.style;
    state.tables.push(htmlparser2().DomUtils.getOuterHTML(node, { encodeEntities: false }));
    return false;
  }
  const ownBlock = BLOCK_TAGS.has(name) ? ++state.blocks : block;
  let pending = breaks;
  let emitted = false;
  for (const child of node.children) {
    if (isElement(child) && child.name.toLowerCase() === "br") {
      pending++;
      continue;
    }
    if (walk(child, name, ownBlock, pending, state)) {
      pending = 0;
      emitted = true;
    }
  }
  return emitted;
}

/** Collapses whitespace on each line between hard breaks (kept inside pre/textarea). */
function fold(raw: string, preserve: boolean): string {
  if (preserve) return raw.split(HARD_BREAK).join("\n");
  return raw
    .split(HARD_BREAK)
    .map((line) => line.replace(/[ \t\r\n\f]+/g, " ").trim())
    .join("\n");
}

function mergeBlocks(pieces: readonly TextPiece[]): string[] {
  const blocks: string[] = [];
  let current = "";
  let preserve = false;
  let lastBlock: number | undefined;
  for (const piece of pieces) {
    let content = piece.content;
    if (piece.block !== undefined) {
      if (TITLE_PREFIX[piece.tag]) content = `${TITLE_PREFIX[piece.tag]} ${content}`;
      if (lastBlock !== piece.block) {
        if (current) blocks.push(fold(current, preserve));
        current = content;
        preserve = piece.tag === "pre" || piece.tag === "textarea";
        lastBlock = piece.block;
        continue;
      }
    }
    current += HARD_BREAK.repeat(piece.breaks) + content;
  }
  if (current) blocks.push(fold(current, preserve));
  return blocks;
}

const SPACELESS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";
const ATOM = new RegExp(`[${SPACELESS}]|[^\\s${SPACELESS}]+|\\s+`, "g");

/** Splits a block past the budget at whitespace (per character in scripts without spaces). */
function splitOversized(block: string, max: number, tokens: TokenCounter): string[] {
  const pieces: string[] = [];
  let current = "";
  let count = 0;
  for (const atom of block.match(ATOM) ?? []) {
    const n = atom.trim() ? tokens.count(atom) : 0;
    if (current && count + n > max) {
      pieces.push(current);
      current = "";
      count = 0;
    }
    if (n > max) {
      for (let i = 0; i < atom.length; i += max) pieces.push(atom.slice(i, i + max));
      continue;
    }
    current += atom;
    count += n;
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Packs blocks greedily into sections of at most `max` tokens, joined by newlines. */
function packBlocks(blocks: readonly string[], max: number, tokens: TokenCounter): string[] {
  const sections: string[] = [];
  let current = "";
  let count = 0;
  for (const block of blocks) {
    const n = tokens.count(block);
    if (n > max) {
      if (current) sections.push(current);
      current = "";
      count = 0;
      sections.push(...splitOversized(block, max, tokens));
    } else if (count + n <= max) {
      current += (current ? "\n" : "") + block;
      count += n;
    } else {
      sections.push(current);
      current = block;
      count = n;
    }
  }
  if (current) sections.push(current);
  return sections;
}

/** A chapter's sections: text blocks packed to `max` tokens, then its tables as HTML. */
export function chapterSections(html: string, max: number, tokens: TokenCounter): string[] {
  const document = htmlparser2().parseDocument(html, { decodeEntities: true });
  const body = htmlparser2().DomUtils.findOne((e) => e.name.toLowerCase() === "body", document.children, true);
  const state = { pieces: [] as TextPiece[], tables: [] as string[], blocks: 0 };
  for (const child of (body ?? document).children) walk(child, body ? "body" : "", undefined, 0, state);
  return [...packBlocks(mergeBlocks(state.pieces), max, tokens), ...state.tables];
}

/** EPUB: chapters in spine order, as text or json sections. */
export const parseEpub: FormatParser = async (request) => {
  const name = request.source.name;
  const format = outputFormatOf(request, "EPUB", ["text", "json"] as const);
  startNote(request, "an EPUB.");
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
      for (const section of chapterSections(html, CHUNK_TOKEN_NUM, tokens)) {
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
