/**
 * PDF coordinates on items and chunks, as RAGFlow's `rag/flow/parser/pdf_chunk_metadata.py`
 * reads and writes them (research/ragflow-pipelines.md §3.2, §3.3): an item's positions come from
 * `_pdf_positions`, `positions`, a `@@page\tx0\tx1\ttop\tbottom##` `position_tag`, `position_int`,
 * or `page_number` with its box, in that order, with RAGFlow's page-number normalisation; a
 * finished chunk carries them as `position_int`, `page_num_int` and `top_int`.
 *
 * RAGFlow normalises again each time it reads positions (building, merging, finishing), so a page
 * of -1 becomes 0 and then 1; that is kept.
 */
import { DocumentParseError, type Chunk, type PdfPosition } from "../payload.js";
import { pyFloat, pyInt } from "./python-str.js";

export const PDF_POSITIONS_KEY = "_pdf_positions";

const TAG = /@@[\t0-9.-]+?##/g;

/** RAGFlow's `remove_tag`: the text without its `@@…##` coordinate tags. */
export function removeTag(text: string): string {
  return text.replace(TAG, "");
}

type Raw = Record<string, unknown>;

function isPlainRecord(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `RAGFlowPdfParser.extract_positions` of a position tag, as `[lastPage0, left, right, top, bottom]`. */
function tagPositions(tag: string, document: string): unknown[][] {
  const out: unknown[][] = [];
  for (const [found] of tag.matchAll(/@@[0-9-]+\t[0-9.\t]+##/g)) {
    const fields = found.replace(/^#+|#+$/g, "").replace(/^@+|@+$/g, "").split("\t");
    if (fields.length !== 5) throw new DocumentParseError(document, `the position tag ${JSON.stringify(found)} has ${fields.length} fields, not 5 (page, left, right, top, bottom)`);
    const [pages, ...box] = fields;
    const coordinates = box.map((field) => pyFloat(field));
    const bad = coordinates.findIndex((n) => n === undefined);
    if (bad >= 0) throw new DocumentParseError(document, `the position tag ${JSON.stringify(found)} has a coordinate that is not a number: ${JSON.stringify(box[bad])}`);
    const pageNumbers = pages.split("-").map((page) => pyInt(page));
    if (pageNumbers.some((page) => page === undefined)) throw new DocumentParseError(document, `the position tag ${JSON.stringify(found)} has a page that is not a number: ${JSON.stringify(pages)}`);
    out.push([pageNumbers.at(-1)! - 1, ...coordinates]);
  }
  return out;
}

function rawPositions(item: Raw, document: string): unknown[] {
  if (Array.isArray(item[PDF_POSITIONS_KEY])) return item[PDF_POSITIONS_KEY] as unknown[];
  if (Array.isArray(item.positions)) return item.positions;
  if (typeof item.position_tag === "string" && item.position_tag !== "") return tagPositions(item.position_tag, document);
  if (Array.isArray(item.position_int)) return item.position_int.filter((pos) => Array.isArray(pos) && pos.length >= 5);
  const has = (key: string) => item[key] !== undefined && item[key] !== null;
  if (has("page_number") && ["x0", "x1", "top", "bottom"].every(has)) return [[item.page_number, item.x0, item.x1, item.top, item.bottom]];
  return [];
}

/** RAGFlow's `extract_pdf_positions`: the canonical `[page1, left, right, top, bottom]` list of an item or chunk. */
export function extractPdfPositions(item: unknown, document: string): PdfPosition[] {
  if (!isPlainRecord(item)) return [];
  const positions = rawPositions(item, document);
  const pageNumber = item.page_number;
  let reference = typeof pageNumber === "number" || typeof pageNumber === "boolean" ? pyInt(pageNumber) : undefined;
  if (typeof pageNumber === "number" && !Number.isFinite(pageNumber)) throw new DocumentParseError(document, `page_number ${pageNumber} is not a page`);
  if (reference !== undefined && reference <= 0) reference += 1;
  const out: PdfPosition[] = [];
  for (const pos of positions) {
    if (!Array.isArray(pos) || pos.length < 5) continue;
    let pageValue: unknown = pos[0];
    if (Array.isArray(pageValue)) {
      if (pageValue.length === 0) throw new DocumentParseError(document, `a position's page list is empty: ${JSON.stringify(pos)}`);
      pageValue = pageValue.at(-1);
    }
    if (typeof pageValue === "number" && !Number.isFinite(pageValue) && !Number.isNaN(pageValue)) {
      throw new DocumentParseError(document, `a position's page is infinite: ${JSON.stringify(pos)}`);
    }
    let page = pyInt(pageValue);
    // int(float("nan")) and unreadable values skip the position, as RAGFlow's except clause does.
    if (page === undefined) continue;
    if (reference !== undefined && page === reference - 1) page = reference;
    else if (page <= 0) page += 1;
    const box = [pos[1], pos[2], pos[3], pos[4]].map((value) => pyFloat(value));
    if (box.some((n) => n === undefined)) continue;
    out.push([page, box[0]!, box[1]!, box[2]!, box[3]!]);
  }
  return out;
}

/** RAGFlow's `merge_pdf_positions`: the positions of several records, each once, sorted by page, top, left. */
export function mergePdfPositions(sources: readonly unknown[], document: string): PdfPosition[] {
  const merged: PdfPosition[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    const positions = Array.isArray(source) ? source : extractPdfPositions(source, document);
    for (const pos of positions) {
      if (!Array.isArray(pos) || pos.length < 5) continue;
      const five = pos.slice(0, 5) as PdfPosition;
      const key = five.join(",");
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(five);
    }
  }
  // Array.prototype.sort is stable, as Python's sort is.
  return merged.sort((a, b) => a[0] - b[0] || a[3] - b[3] || a[1] - b[1]);
}

/** RAGFlow's `build_pdf_position_fields`: whole-number boxes, their pages and their tops. */
function positionFields(positions: readonly PdfPosition[], document: string): Pick<Chunk, "position_int" | "page_num_int" | "top_int"> {
  const position_int: PdfPosition[] = [];
  const page_num_int: number[] = [];
  const top_int: number[] = [];
  for (const pos of positions) {
    if (pos.some((n) => n === Infinity || n === -Infinity)) throw new DocumentParseError(document, `a position has an infinite coordinate: ${JSON.stringify(pos)}`);
    if (pos.some((n) => Number.isNaN(n))) continue; // int(nan) raises ValueError, which RAGFlow skips
    const whole = pos.map((n) => Math.trunc(n) + 0) as PdfPosition;
    position_int.push(whole);
    page_num_int.push(whole[0]);
    top_int.push(whole[3]);
  }
  return { position_int, page_num_int, top_int };
}

/**
 * RAGFlow's `finalize_pdf_chunk`: `_pdf_positions` becomes `position_int`, `page_num_int` and
 * `top_int` (when there are any) and is removed.
 */
export function finalizePdfChunk(chunk: Chunk, document: string): Chunk {
  const positions = extractPdfPositions(chunk, document);
  const { [PDF_POSITIONS_KEY]: _dropped, ...rest } = chunk;
  return positions.length > 0 ? { ...rest, ...positionFields(positions, document) } : rest;
}
