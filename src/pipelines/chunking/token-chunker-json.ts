/**
 * The TokenChunker on items (a Parser's `json`, or an earlier chunker's `chunks`; research §4.3,
 * path B). Each item becomes a working chunk; then either
 *
 * - B1, with backtick delimiters: consecutive text items are joined with "\n" and cut at the
 *   delimiters, each piece a chunk carrying the positions of the items it overlaps; a table or
 *   image stands between runs; then children, then context windows;
 * - B2, without: context windows on the items, then text items merged up to the size (an item
 *   over it stands alone, a table or image breaks the merge, an overlap carries the previous
 *   chunk's tail and the positions of the items in it); then children.
 *
 * Then the text gets its context, loses its position tags, and blank chunks are dropped.
 */
import type { Chunk, PdfPosition } from "../payload.js";
import { pythonStr } from "../../components/python-text.js";
import { OutputBudget, payloadItems } from "./chunk-run.js";
import { segmentsOf, splitDropping } from "./delimiters.js";
import { type ContextChunk } from "./media-context.js";
import { PDF_POSITIONS_KEY, extractPdfPositions, finalizePdfChunk, removeTag } from "./pdf-positions.js";
import { pyIsBlank, pyLen, pySliceFrom, pyStrip, pyTruthy } from "./python-str.js";
import type { TokenCounter } from "./tokens.js";

/** A working chunk: RAGFlow's dict with `ck_type` and `tk_nums`, which are not emitted. */
export interface WorkChunk extends ContextChunk {
  doc_type_kwd: "text" | "table" | "image";
  positions: PdfPosition[];
  img_id?: unknown;
  mom?: string;
}

/** An item's text: `text`, else `content_with_weight`, when a string. */
export function itemText(item: Record<string, unknown>): string | undefined {
  if (typeof item.text === "string") return item.text;
  if (typeof item.content_with_weight === "string") return item.content_with_weight;
  return undefined;
}

/** `_build_json_chunks`: one working chunk per item; text items with blank text are dropped. */
export function itemChunks(items: ReturnType<typeof payloadItems>, document: string, tokens: TokenCounter): WorkChunk[] {
  const chunks: WorkChunk[] = [];
  for (const item of items) {
    const kind = pyStrip(pyTruthy(item.doc_type_kwd) ? pythonStr(item.doc_type_kwd) : "").toLowerCase();
    const ckType = kind === "table" || kind === "image" ? kind : "text";
    const text = itemText(item) ?? "";
    const positions = extractPdfPositions(item, document);
    if (ckType === "text") {
      if (pyIsBlank(text)) continue;
      chunks.push({ text, doc_type_kwd: "text", ck_type: "text", positions, tk_nums: tokens.count(text) });
    } else {
      chunks.push({ text, doc_type_kwd: ckType, ck_type: ckType, img_id: item.img_id, positions, tk_nums: tokens.count(text), context_above: "", context_below: "" });
    }
  }
  return chunks;
}

/** B1: runs of text items joined with "\n" and cut at the delimiters; each piece keeps the positions of the items it overlaps. */
export function splitItemRuns(chunks: readonly WorkChunk[], delimiters: RegExp, tokens: TokenCounter): WorkChunk[] {
  const out: WorkChunk[] = [];
  let run: WorkChunk[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const ranges: Array<[number, number]> = [];
    let offset = 0;
    for (const item of run) {
      ranges.push([offset, offset + item.text.length]);
      offset += item.text.length + 1;
    }
    const combined = run.map((item) => item.text).join("\n");
    for (const segment of segmentsOf(combined, delimiters)) {
      if (pyIsBlank(segment.text)) continue;
      const positions = run.flatMap((item, i) => (segment.start < ranges[i][1] && ranges[i][0] < segment.end ? item.positions : []));
      out.push({ text: segment.text, doc_type_kwd: "text", ck_type: "text", positions, tk_nums: tokens.count(segment.text) });
    }
    run = [];
  };
  for (const chunk of chunks) {
    if (chunk.ck_type === "text") run.push(chunk);
    else {
      flush();
      out.push(chunk);
    }
  }
  flush();
  return out;
}

/**
 * `_split_chunk_docs_by_children`: each text chunk cut at the children delimiters, every piece a
 * chunk whose `mom` is the whole text (its leading "\n" removed). Pieces keep the parent's
 * `tk_nums`, as RAGFlow's copies do.
 */
export function splitChildren(chunks: readonly WorkChunk[], children: RegExp | undefined): WorkChunk[] {
  if (!children) return [...chunks];
  return chunks.flatMap((chunk) => {
    if (chunk.doc_type_kwd !== "text") return [chunk];
    const mom = chunk.text.startsWith("\n") ? chunk.text.slice(1) : chunk.text;
    return splitDropping(chunk.text, children)
      .filter((piece) => piece !== "" && !pyIsBlank(piece))
      .map((piece) => ({ ...chunk, positions: [...chunk.positions], mom, text: piece }));
  });
}

/** `_overlap_tail_positions`: the positions of the items (joined by "\n") whose span reaches past `overlapStart`. */
function tailPositions(items: ReadonlyArray<readonly [string, PdfPosition[]]>, overlapStart: number): PdfPosition[] {
  if (items.length === 0) return [];
  const spans: Array<[number, number]> = [];
  let offset = 0;
  for (const [text] of items) {
    spans.push([offset, offset + pyLen(text)]);
    offset += pyLen(text) + 1;
  }
  const total = spans[spans.length - 1][1];
  return items.flatMap(([, positions], i) => (spans[i][0] < total && spans[i][1] > overlapStart ? positions : []));
}

/** B2: `_merge_text_chunks_by_token_size`. */
export function mergeBySize(chunks: readonly WorkChunk[], chunkTokenSize: number, overlappedPercent: number, tokens: TokenCounter): WorkChunk[] {
  const merged: WorkChunk[] = [];
  // For each merged text chunk, the (text, positions) of the items it was built from.
  const sources: Array<Array<[string, PdfPosition[]]> | undefined> = [];
  let previous = -1;
  const threshold = (chunkTokenSize * (100 - overlappedPercent)) / 100;
  for (const chunk of chunks) {
    if (chunk.ck_type !== "text") {
      merged.push({ ...chunk, positions: [...chunk.positions] });
      sources.push(undefined);
      previous = -1;
      continue;
    }
    const current: WorkChunk = { ...chunk, positions: [...chunk.positions] };
    let source: [string, PdfPosition[]] = [current.text, [...current.positions]];
    // An item over the size stands alone, never merged into the chunk before it.
    const startNew = previous < 0 || merged[previous].tk_nums > threshold || current.tk_nums > chunkTokenSize;
    if (startNew) {
      if (previous >= 0 && overlappedPercent > 0 && merged[previous].text !== "") {
        // The overlap is cut on the text without position tags, so no half tag is carried.
        const visible = removeTag(merged[previous].text);
        const start = Math.trunc((pyLen(visible) * (100 - overlappedPercent)) / 100);
        const inRange = start >= 0 && start < pyLen(visible);
        const overlap = inRange ? pySliceFrom(visible, start) : "";
        const carried = inRange ? tailPositions(sources[previous]!, start) : [];
        current.text = overlap + current.text;
        current.positions = [...carried, ...current.positions];
        source = [current.text, [...current.positions]];
        current.tk_nums = tokens.count(current.text);
      }
      merged.push(current);
      sources.push([source]);
      previous = merged.length - 1;
      continue;
    }
    const target = merged[previous];
    target.text += target.text !== "" && current.text !== "" ? "\n" + current.text : current.text;
    target.positions.push(...current.positions);
    // RAGFlow adds the counts rather than counting the joined text again.
    target.tk_nums += current.tk_nums;
    sources[previous]!.push(source);
  }
  return merged;
}

/** `_finalize_json_chunks`: context joined in, tags removed, blank chunks dropped, positions finished. */
export function finishChunks(chunks: readonly WorkChunk[], document: string, budget: OutputBudget): Chunk[] {
  const out: Chunk[] = [];
  for (const chunk of chunks) {
    const text = removeTag((chunk.context_above ?? "") + chunk.text + (chunk.context_below ?? ""));
    if (pyIsBlank(text)) continue;
    budget.spend(text.length);
    const doc: Chunk = { text, doc_type_kwd: chunk.doc_type_kwd };
    if (chunk.positions.length > 0) doc[PDF_POSITIONS_KEY] = chunk.positions.map((pos) => [...pos] as PdfPosition);
    if (pyTruthy(chunk.mom)) doc.mom = chunk.mom;
    if (pyTruthy(chunk.img_id)) doc.img_id = chunk.img_id as string;
    out.push(finalizePdfChunk(doc, document));
  }
  return out;
}
