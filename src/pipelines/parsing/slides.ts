/**
 * PPTX (research/ragflow-pipelines.md §4.2 "Slides"), as RAGFlow's python-pptx walk reads it: one
 * item per slide with text; shapes sorted by (top // 10, left) in EMU (a placeholder without a
 * position takes its layout's, then its master's, as python-pptx does); a text frame gives its
 * non-empty paragraphs, bulleted ones as "  " * level + "." + text; a table gives one line per
 * body row of "header: cell" pairs joined by "; "; a group is walked the same way. `.ppt` is refused.
 */
import { DocumentParseError, type ParsedItem } from "../payload.js";
import type { FormatParser } from "./contract.js";
import { checkAborted, extensionOf, outputFormatOf, readWhole, TextBudget } from "./binary-input.js";
import { attr, prefixedAttr, child, childrenNamed, elements, findAll, findFirst, local, parseRelationships, parseXml, relsPathOf, type XmlElement } from "./xml.js";
import { resolvePartPath, withZip, type ZipArchive } from "./zip.js";

interface Position {
  top?: number;
  left?: number;
}

/** A placeholder's identity: python-pptx matches a slide's to its layout's by idx, a layout's to its master's by type. */
interface PlaceholderKey {
  type: string;
  idx: number;
}

interface PlaceholderPositions {
  byIdx: Map<number, Position>;
  byType: Map<string, Position>;
}

const SHAPES = new Set(["sp", "grpSp", "graphicFrame", "cxnSp", "pic", "contentPart"]);

/** python-pptx's mapping from a layout placeholder's type to the master placeholder it inherits from. */
const MASTER_TYPE: Record<string, string> = {
  body: "body",
  chart: "body",
  clipArt: "body",
  ctrTitle: "title",
  dgm: "body",
  dt: "dt",
  ftr: "ftr",
  media: "body",
  obj: "body",
  pic: "body",
  sldNum: "sldNum",
  subTitle: "body",
  tbl: "body",
  title: "title",
};

function placeholderOf(shape: XmlElement): PlaceholderKey | undefined {
  const nv = elements(shape).find((e) => local(e.name).startsWith("nv"));
  const nvPr = nv ? child(nv, "nvPr") : undefined;
  const ph = nvPr ? child(nvPr, "ph") : undefined;
  if (!ph) return undefined;
  return { type: attr(ph, "type") ?? "obj", idx: Number(attr(ph, "idx") ?? 0) };
}

/** The shape's own offset (EMU), from its xfrm. */
function ownPosition(shape: XmlElement): Position {
  const name = local(shape.name);
  const holder = name === "graphicFrame" ? shape : (child(shape, name === "grpSp" ? "grpSpPr" : "spPr") ?? shape);
  const xfrm = child(holder, "xfrm");
  const off = xfrm ? child(xfrm, "off") : undefined;
  if (!off) return {};
  return { left: Number(attr(off, "x") ?? 0), top: Number(attr(off, "y") ?? 0) };
}

function readPlaceholders(xml: string | undefined): PlaceholderPositions {
  const positions: PlaceholderPositions = { byIdx: new Map(), byType: new Map() };
  if (xml === undefined) return positions;
  const tree = findFirst(parseXml(xml), "spTree");
  if (!tree) return positions;
  for (const shape of elements(tree)) {
    const key = placeholderOf(shape);
    if (!key) continue;
    const position = ownPosition(shape);
    if (!positions.byIdx.has(key.idx)) positions.byIdx.set(key.idx, position);
    if (!positions.byType.has(key.type)) positions.byType.set(key.type, position);
  }
  return positions;
}

/** A slide's layout and master placeholders, for shapes that inherit their position. */
interface Inheritance {
  layout: PlaceholderPositions;
  layoutTypes: Map<number, string>;
  master: PlaceholderPositions;
}

function inheritedPosition(key: PlaceholderKey, inheritance: Inheritance): Position {
  const fromLayout = inheritance.layout.byIdx.get(key.idx);
  if (fromLayout?.top !== undefined) return fromLayout;
  if (!fromLayout) return {};
  const layoutType = inheritance.layoutTypes.get(key.idx) ?? "obj";
  return inheritance.master.byType.get(MASTER_TYPE[layoutType] ?? "body") ?? {};
}

function positionOf(shape: XmlElement, inheritance: Inheritance): Position {
  const own = ownPosition(shape);
  if (own.top !== undefined) return own;
  const key = placeholderOf(shape);
  return key ? inheritedPosition(key, inheritance) : {};
}

/** python-pptx's order: by (top // 10, left), missing values as 0; a stable sort, like Python's. */
function sortedShapes(shapes: XmlElement[], inheritance: Inheritance): XmlElement[] {
  const keyed = shapes.map((shape, index) => {
    const { top, left } = positionOf(shape, inheritance);
    return { shape, index, top: Math.floor((top ?? 0) / 10), left: left ?? 0 };
  });
  keyed.sort((a, b) => a.top - b.top || a.left - b.left || a.index - b.index);
  return keyed.map((k) => k.shape);
}

/** A paragraph's text as python-pptx gives it: runs and fields, a line break as a vertical tab. */
function paragraphText(p: XmlElement): string {
  let text = "";
  for (const e of elements(p)) {
    const name = local(e.name);
    if (name === "r" || name === "fld") {
      const t = child(e, "t");
      if (t) text += t.children.filter((c): c is string => typeof c === "string").join("");
    } else if (name === "br") text += "\v";
  }
  return text;
}

function bulleted(p: XmlElement): string {
  const text = paragraphText(p);
  const pPr = child(p, "pPr");
  const isBulleted = pPr !== undefined && ["buChar", "buAutoNum", "buBlip"].some((b) => child(pPr, b) !== undefined);
  if (!isBulleted) return text;
  const level = Number(attr(pPr, "lvl") ?? 0);
  return `${"  ".repeat(level)}.${text}`;
}

function textFrameText(txBody: XmlElement): string {
  return childrenNamed(txBody, "p")
    .filter((p) => paragraphText(p).trim() !== "")
    .map(bulleted)
    .join("\n");
}

/** A table cell's text: its paragraphs joined by newlines. */
function tableCellText(tc: XmlElement): string {
  const txBody = child(tc, "txBody");
  return txBody ? childrenNamed(txBody, "p").map(paragraphText).join("\n") : "";
}

function tableText(tbl: XmlElement): string {
  const grid = child(tbl, "tblGrid");
  const columns = grid ? childrenNamed(grid, "gridCol").length : 0;
  const rows = childrenNamed(tbl, "tr").map((tr) => childrenNamed(tr, "tc"));
  const cell = (r: number, c: number) => {
    const tc = rows[r]?.[c];
    return tc ? tableCellText(tc) : "";
  };
  const lines: string[] = [];
  for (let r = 1; r < rows.length; r++) {
    lines.push(Array.from({ length: columns }, (_, c) => `${cell(0, c)}: ${cell(r, c)}`).join("; "));
  }
  return lines.join("\n");
}

function shapeText(shape: XmlElement, inheritance: Inheritance): string {
  const name = local(shape.name);
  if (name === "sp") {
    const txBody = child(shape, "txBody");
    return txBody ? textFrameText(txBody) : "";
  }
  if (name === "graphicFrame") {
    const tbl = findFirst(shape, "tbl");
    return tbl ? tableText(tbl) : "";
  }
  if (name === "grpSp") {
    return sortedShapes(elements(shape).filter((e) => SHAPES.has(local(e.name))), inheritance)
      .map((s) => shapeText(s, inheritance))
      .filter(Boolean)
      .join("\n");
  }
  return "";
}

const PRESENTATION_REL = /\/officeDocument$/;

async function relsOf(zip: ZipArchive, part: string) {
  const path = relsPathOf(part);
  return zip.has(path) ? parseRelationships(await zip.readText(path)) : new Map();
}

/** The inheritance of a slide: its layout's placeholders and its layout's master's. */
async function inheritanceOf(zip: ZipArchive, slidePart: string, cache: Map<string, Inheritance>): Promise<Inheritance> {
  const empty: Inheritance = { layout: readPlaceholders(undefined), layoutTypes: new Map(), master: readPlaceholders(undefined) };
  const layoutRel = [...(await relsOf(zip, slidePart)).values()].find((rel) => rel.type.endsWith("/slideLayout"));
  if (!layoutRel) return empty;
  const layoutPart = resolvePartPath(slidePart, layoutRel.target);
  const cached = cache.get(layoutPart);
  if (cached) return cached;
  if (!zip.has(layoutPart)) return empty;
  const layoutXml = await zip.readText(layoutPart);
  const layoutTypes = new Map<number, string>();
  const tree = findFirst(parseXml(layoutXml), "spTree");
  for (const shape of tree ? elements(tree) : []) {
    const key = placeholderOf(shape);
    if (key && !layoutTypes.has(key.idx)) layoutTypes.set(key.idx, key.type);
  }
  const masterRel = [...(await relsOf(zip, layoutPart)).values()].find((rel) => rel.type.endsWith("/slideMaster"));
  const masterPart = masterRel ? resolvePartPath(layoutPart, masterRel.target) : undefined;
  const inheritance: Inheritance = {
    layout: readPlaceholders(layoutXml),
    layoutTypes,
    master: readPlaceholders(masterPart && zip.has(masterPart) ? await zip.readText(masterPart) : undefined),
  };
  cache.set(layoutPart, inheritance);
  return inheritance;
}

/** PPTX slides as RAGFlow's `deepdoc` method reads them: json, one item per slide with text. */
export const parseSlides: FormatParser = async (request) => {
  const name = request.source.name;
  if (extensionOf(name) === "ppt") {
    throw new DocumentParseError(name, `${name} is a legacy PowerPoint .ppt file, which RAGFlow cannot parse either; save it as .pptx and parse that`);
  }
  const method = String(request.setup.parse_method ?? "deepdoc").trim().toLowerCase();
  if (method === "tcadp parser") {
    throw new DocumentParseError(name, `Slides parse_method "tcadp parser" needs Tencent Cloud's ADP document-parsing API, which canvasflow does not run; use parse_method "deepdoc", which reads PPTX here`);
  }
  outputFormatOf(request, "Slides", ["json"] as const);
  const bytes = await readWhole(request);
  const budget = new TextBudget(request.limits, name, request.warn);
  return withZip(name, "PPTX", bytes, request.limits, async (zip) => {
    const packageRels = await relsOf(zip, "");
    const main = [...packageRels.values()].find((rel) => PRESENTATION_REL.test(rel.type));
    const presentationPart = main ? resolvePartPath("", main.target) : "ppt/presentation.xml";
    if (!zip.has(presentationPart)) throw new DocumentParseError(name, `${name} is not a PPTX presentation: its ZIP container has no ${presentationPart}`);
    const rels = await relsOf(zip, presentationPart);
    const slideParts = findAll(parseXml(await zip.readText(presentationPart)), "sldId")
      .map((sldId) => rels.get(prefixedAttr(sldId, "id") ?? ""))
      .filter((rel) => rel !== undefined)
      .map((rel) => resolvePartPath(presentationPart, rel.target));
    const cache = new Map<string, Inheritance>();
    const items: ParsedItem[] = [];
    for (const slidePart of slideParts) {
      checkAborted(request);
      if (!zip.has(slidePart)) throw new DocumentParseError(name, `${name} is damaged: its presentation names ${slidePart}, which its ZIP container lacks`);
      const tree = findFirst(parseXml(await zip.readText(slidePart)), "spTree");
      if (!tree) continue;
      const inheritance = await inheritanceOf(zip, slidePart, cache);
      const text = sortedShapes(elements(tree).filter((e) => SHAPES.has(local(e.name))), inheritance)
        .map((shape) => shapeText(shape, inheritance))
        .filter(Boolean)
        .join("\n");
      if (!text.trim()) continue;
      if (!budget.take(text)) break;
      items.push({ text, doc_type_kwd: "text" });
    }
    return { output_format: "json", json: items };
  });
};
