/**
 * A DOCX body read the way RAGFlow's `Docx` parser reads it through python-docx (rag/app/naive.py,
 * research/ragflow-pipelines.md §4.2 "DOCX"): the body's paragraphs and tables in order, each
 * paragraph with its style's name, its text as python-docx gives it, and its pictures; each table
 * as HTML with equal adjacent cells merged into a colspan and a "Table Location" caption built
 * from the headings before it.
 */
import { DocumentParseError } from "../payload.js";
import { attr, child, childrenNamed, elements, findAllDeep, local, parseRelationships, parseXml, relsPathOf, type XmlElement } from "./xml.js";
import { resolvePartPath, type ZipArchive } from "./zip.js";

/** One block of the body, in document order. */
export type DocxBlock =
  | { kind: "paragraph"; style: string; text: string; images: string[] }
  | { kind: "table"; rows: string[][] };

/** A main section as RAGFlow's Docx parser returns it: text, image (a data: URL), table HTML. */
export interface DocxSection {
  text: string;
  image?: string;
  table?: string;
}

export interface DocxPackage {
  /** The main document part's path (word/document.xml). */
  documentPart: string;
  blocks: DocxBlock[];
  /** The header and footer parts' paths. */
  headerFooterParts: string[];
}

const OFFICE_DOCUMENT = /\/officeDocument$/;

/** python-docx shows built-in style names as Word's UI does ("heading 1" is written "Heading 1"). */
function uiStyleName(name: string): string {
  if (/^(?:caption|footer|header|heading [1-9])$/.test(name)) return name[0].toUpperCase() + name.slice(1);
  return name;
}

interface Styles {
  names: Map<string, string>;
  defaultParagraph: string;
}

function readStyles(xml: string | undefined): Styles {
  const names = new Map<string, string>();
  let defaultParagraph = "";
  if (xml === undefined) return { names, defaultParagraph };
  for (const style of childrenNamed(child(parseXml(xml), "styles") ?? { name: "", attrs: {}, children: [] }, "style")) {
    if (attr(style, "type") !== "paragraph") continue;
    const id = attr(style, "styleId") ?? "";
    const nameElement = child(style, "name");
    const name = uiStyleName(nameElement ? (attr(nameElement, "val") ?? "") : "");
    names.set(id, name);
    if (attr(style, "default") === "1" || attr(style, "default") === "true") defaultParagraph = name;
  }
  return { names, defaultParagraph };
}

/** A run's text as python-docx gives it: text, tabs, breaks (a page or column break gives nothing). */
function runText(run: XmlElement): string {
  let text = "";
  for (const e of elements(run)) {
    switch (local(e.name)) {
      case "t":
        text += e.children.filter((c): c is string => typeof c === "string").join("");
        break;
      case "tab":
      case "ptab":
        text += "\t";
        break;
      case "cr":
        text += "\n";
        break;
      case "br": {
        const type = attr(e, "type");
        if (type === undefined || type === "textWrapping") text += "\n";
        break;
      }
      case "noBreakHyphen":
        text += "-";
        break;
    }
  }
  return text;
}

/** A paragraph's text: its direct runs and hyperlinks' runs (python-docx's `Paragraph.text`). */
export function paragraphText(p: XmlElement): string {
  let text = "";
  for (const e of elements(p)) {
    const name = local(e.name);
    if (name === "r") text += runText(e);
    else if (name === "hyperlink") for (const r of childrenNamed(e, "r")) text += runText(r);
  }
  return text;
}

const IMAGE_MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  bmp: "image/bmp",
  tif: "image/tiff",
  tiff: "image/tiff",
  svg: "image/svg+xml",
  webp: "image/webp",
  emf: "image/emf",
  wmf: "image/wmf",
};

export function imageMime(path: string): string {
  return IMAGE_MIME[path.slice(path.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";
}

/** Reads the main document part into blocks (pictures as data: URLs). */
export async function readDocxPackage(zip: ZipArchive): Promise<DocxPackage> {
  const name = zip.document;
  const packageRels = zip.has("_rels/.rels") ? parseRelationships(await zip.readText("_rels/.rels")) : new Map();
  const main = [...packageRels.values()].find((rel) => OFFICE_DOCUMENT.test(rel.type));
  const documentPart = main ? resolvePartPath("", main.target) : "word/document.xml";
  if (!zip.has(documentPart)) throw new DocumentParseError(name, `${name} is not a DOCX document: its ZIP container has no ${documentPart} (a .docx made by Word or LibreOffice has one)`);
  const relsPath = relsPathOf(documentPart);
  const rels = zip.has(relsPath) ? parseRelationships(await zip.readText(relsPath)) : new Map();
  const stylesRel = [...rels.values()].find((rel) => rel.type.endsWith("/styles"));
  const stylesPath = stylesRel ? resolvePartPath(documentPart, stylesRel.target) : undefined;
  const styles = readStyles(stylesPath && zip.has(stylesPath) ? await zip.readText(stylesPath) : undefined);

  const root = parseXml(await zip.readText(documentPart));
  const body = child(child(root, "document") ?? root, "body");
  if (!body) throw new DocumentParseError(name, `${name} is not a DOCX document: ${documentPart} has no w:body`);

  const imageCache = new Map<string, string>();
  const imageOf = async (relId: string): Promise<string | undefined> => {
    const rel = rels.get(relId);
    if (!rel || rel.external) return undefined;
    const path = resolvePartPath(documentPart, rel.target);
    if (!zip.has(path)) return undefined;
    let url = imageCache.get(path);
    if (url === undefined) {
      url = `data:${imageMime(path)};base64,${Buffer.from(await zip.read(path)).toString("base64")}`;
      imageCache.set(path, url);
    }
    return url;
  };

  const blocks: DocxBlock[] = [];
  // Only the body's direct paragraphs and tables, as python-docx's body iteration sees them
  // (content controls such as Word's generated TOC are skipped, as in RAGFlow).
  for (const block of elements(body)) {
    const kind = local(block.name);
    if (kind === "p") {
      const pStyle = child(child(block, "pPr") ?? block, "pStyle");
      const styleId = pStyle ? attr(pStyle, "val") : undefined;
      const style = (styleId !== undefined ? styles.names.get(styleId) : undefined) ?? styles.defaultParagraph;
      const images: string[] = [];
      for (const pic of findAllDeep(block, "pic")) {
        const blip = findAllDeep(pic, "blip")[0];
        const embed = blip ? attr(blip, "embed") : undefined;
        const url = embed ? await imageOf(embed) : undefined;
        if (url) images.push(url);
      }
      blocks.push({ kind: "paragraph", style, text: paragraphText(block), images });
    } else if (kind === "tbl") {
      blocks.push({ kind: "table", rows: tableGrid(block) });
    }
  }
  const headerFooterParts = [...rels.values()].filter((rel) => /\/(?:header|footer)$/.test(rel.type)).map((rel) => resolvePartPath(documentPart, rel.target));
  return { documentPart, blocks, headerFooterParts };
}

/** A cell's text: its paragraphs' texts joined by newlines (python-docx's `_Cell.text`). */
function cellText(tc: XmlElement): string {
  return childrenNamed(tc, "p").map(paragraphText).join("\n");
}

/**
 * The table's rows as python-docx's `row.cells` gives them: a cell spanning n grid columns
 * appears n times; a cell continuing a vertical merge is the cell above it.
 */
export function tableGrid(tbl: XmlElement): string[][] {
  const rows: string[][] = [];
  // Per row: the text at each grid column, to resolve vertical merges.
  const grids: string[][] = [];
  for (const tr of childrenNamed(tbl, "tr")) {
    const cells: string[] = [];
    const grid: string[] = [];
    const trPr = child(tr, "trPr");
    const before = trPr ? child(trPr, "gridBefore") : undefined;
    let column = before ? Number(attr(before, "val") ?? 0) || 0 : 0;
    for (const tc of childrenNamed(tr, "tc")) {
      const tcPr = child(tc, "tcPr");
      const spanElement = tcPr ? child(tcPr, "gridSpan") : undefined;
      const span = Math.max(1, spanElement ? Number(attr(spanElement, "val") ?? 1) || 1 : 1);
      const vMerge = tcPr ? child(tcPr, "vMerge") : undefined;
      const continues = vMerge !== undefined && (attr(vMerge, "val") ?? "continue") === "continue";
      if (continues) {
        // The cell above at this grid column, with its own span (python-docx yields its cells).
        const above = grids[grids.length - 1];
        const text = above?.[column] ?? "";
        for (let i = 0; i < span; i++) {
          cells.push(text);
          grid[column + i] = text;
        }
      } else {
        const text = cellText(tc);
        for (let i = 0; i < span; i++) {
          cells.push(text);
          grid[column + i] = text;
        }
      }
      column += span;
    }
    rows.push(cells);
    grids.push(grid);
  }
  return rows;
}

/** Cell text made safe inside HTML (RAGFlow writes it raw, so a "<" in a cell breaks its table). */
function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

/** A table as RAGFlow writes it: `<table>`, an optional caption, rows whose equal adjacent cells share a colspan. */
export function tableHtml(rows: readonly string[][], caption: string): string {
  let html = "<table>";
  if (caption) html += `<caption>Table Location: ${escapeHtml(caption)}</caption>`;
  for (const cells of rows) {
    html += "<tr>";
    let i = 0;
    while (i < cells.length) {
      let span = 1;
      while (i + span < cells.length && cells[i + span] === cells[i]) span++;
      html += span === 1 ? `<td>${escapeHtml(cells[i])}</td>` : `<td colspan='${span}'>${escapeHtml(cells[i])}</td>`;
      i += span;
    }
    html += "</tr>";
  }
  return `${html}</table>`;
}

const HEADING = /Heading\s*(\d+)/i;

/** The heading level of a style name ("Heading 2" → 2), or undefined. */
export function headingLevel(style: string): number | undefined {
  if (!HEADING.test(style)) return undefined;
  const digits = /(\d+)/.exec(style);
  return digits ? Number(digits[1]) : undefined;
}

/**
 * The caption chain of a table: the document's name, then the nearest heading before the table
 * (levels 1–7) and each nearest heading of a higher level before it, outermost first.
 */
export function tableLocation(blocks: readonly DocxBlock[], tableIndex: number, documentName: string): string {
  const docName = documentName.replace(/\.[a-zA-Z]+$/, "") || "Untitled Document";
  const headings: { level: number; text: string }[] = [];
  for (let i = 0; i < tableIndex; i++) {
    const block = blocks[i];
    if (block.kind !== "paragraph") continue;
    const level = headingLevel(block.style);
    const text = block.text.trim();
    if (level !== undefined && text) headings.push({ level, text });
  }
  const nearest = [...headings].reverse().find((h) => h.level <= 7);
  if (!nearest) return "";
  const chain = [nearest];
  let current = nearest.level;
  while (current > 1) {
    const parent = [...headings].reverse().find((h) => h.level < current);
    if (!parent) break;
    chain.push(parent);
    current = parent.level;
  }
  chain.sort((a, b) => a.level - b.level);
  return [docName, ...chain.map((h) => h.text)].join(" > ");
}

/** RAGFlow's line cleaning: ideographic spaces become spaces, then trimmed. */
function clean(text: string): string {
  return text.replace(/\u3000/g, " ").trim();
}

/**
 * The main sections, as RAGFlow's `Docx.__call__` builds them: a text paragraph, then its
 * picture; a picture in an empty paragraph is held and comes out before the next block, unless a
 * Caption paragraph takes it; a table as an item with its HTML.
 */
export function docxSections(blocks: readonly DocxBlock[], documentName: string): DocxSection[] {
  const lines: (DocxSection & { style?: string })[] = [];
  let heldImage: string | undefined;
  const flushHeld = () => {
    if (heldImage !== undefined) lines.push({ text: "", image: heldImage, style: "Image" });
    heldImage = undefined;
  };
  blocks.forEach((block, index) => {
    if (block.kind === "table") {
      flushHeld();
      lines.push({ text: "", table: tableHtml(block.rows, tableLocation(blocks, index, documentName)) });
      return;
    }
    const text = block.text.trim();
    // Several pictures in one paragraph: RAGFlow stacks them into one image; the first is kept here.
    const picture = block.images[0];
    if (!text) {
      if (picture !== undefined) {
        // RAGFlow overwrites a held picture with the next one; it comes out on its own instead.
        flushHeld();
        heldImage = picture;
      }
      return;
    }
    if (block.style === "Caption") {
      let former: string | undefined;
      const last = lines[lines.length - 1];
      if (last?.image !== undefined && last.style !== "Caption") {
        former = last.image;
        lines.pop();
      } else if (heldImage !== undefined) {
        former = heldImage;
        heldImage = undefined;
      }
      lines.push({ text: clean(text), ...(former !== undefined ? { image: former } : {}), style: "Caption" });
      return;
    }
    flushHeld();
    lines.push({ text: clean(text) });
    if (picture !== undefined) lines.push({ text: "", image: picture });
  });
  flushHeld();
  return lines.map(({ style: _style, ...section }) => section);
}
