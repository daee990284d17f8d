/**
 * RAGFlow's TitleChunker (`rag/flow/chunker/title_chunker/`, research §4.4): a document cut at its
 * headings. Lines (Markdown, text, HTML) or items (JSON, chunks) become records, the records get
 * heading levels from the regex family that fits the document best, the `hierarchy` or `group`
 * method groups them, each group becomes a chunk, and text chunks over `chunk_token_cap` are cut
 * at sentences.
 *
 * Not ported: PDF text-chunk preview images (§4.8, they need the PDF's pages; text chunks of a
 * PDF get no preview `img_id`), and PDF-outline levels (see title-levels.ts).
 */
import { DocumentParseError, type Chunk, type Payload, type ProgressSink } from "../payload.js";
import { pythonStr } from "../../components/python-text.js";
import { type ChunkOptions, OutputBudget, checkAborted, payloadFormat, payloadItems, startProgress } from "./chunk-run.js";
import { PDF_POSITIONS_KEY, extractPdfPositions, finalizePdfChunk, mergePdfPositions, removeTag } from "./pdf-positions.js";
import { pyIsBlank, pyStrip, pyTruthy } from "./python-str.js";
import { compileLevels, type TitleChunkerParams } from "./title-chunker-params.js";
import { groupGroups } from "./title-group.js";
import { hierarchyGroups } from "./title-hierarchy.js";
import { type LineRecord, resolveLevels } from "./title-levels.js";
import { enforceTokenCap } from "./token-cap.js";
import { cl100kCounter } from "./tokens.js";

const TEXT_FORMATS = new Set(["markdown", "text", "html"]);

/** `extract_line_records`: the records the levels and groups are made of. */
function lineRecords(payload: Payload): LineRecord[] {
  const format = payloadFormat(payload);
  if (format !== undefined && TEXT_FORMATS.has(format)) {
    const body = payload[format as "markdown" | "text" | "html"] ?? "";
    if (typeof body !== "string") throw new DocumentParseError(payload.name, `the ${format} payload is not text`);
    const lines = body.split("\n");
    // Plain text: lines stripped, blank ones dropped. Markdown and HTML keep their spacing.
    const kept = format === "text" ? lines.filter((line) => !pyIsBlank(line)).map(pyStrip) : lines.filter((line) => !pyIsBlank(line));
    return kept.map((text) => ({ text, doc_type_kwd: "text", img_id: null, layout: "", positions: [] }));
  }
  return payloadItems(payload).map((item, i) => {
    const text = pyTruthy(item.text) ? item.text : "";
    if (typeof text !== "string") throw new DocumentParseError(payload.name, `item ${i} has a text that is not a string: ${pythonStr(text)}`);
    const layoutType = item.layout_type === undefined ? "" : item.layout_type;
    const layoutNo = item.layoutno === undefined ? "" : item.layoutno;
    return {
      text,
      doc_type_kwd: pyTruthy(item.doc_type_kwd) ? pythonStr(item.doc_type_kwd) : "text",
      img_id: item.img_id,
      layout: pyStrip(`${pythonStr(layoutType)} ${pythonStr(layoutNo)}`),
      positions: extractPdfPositions(item, payload.name),
    };
  });
}

/** `build_chunks_from_record_groups`: a chunk per group, then the root chunk as every chunk's heading if asked. */
function materialise(payload: Payload, records: readonly LineRecord[], groups: readonly number[][], rootAsHeading: boolean, budget: OutputBudget): Chunk[] {
  const textFormat = payload.output_format !== undefined && TEXT_FORMATS.has(payload.output_format);
  const chunks: Chunk[] = [];
  for (const group of groups) {
    if (group.length === 0) continue;
    // A group's records are joined with a newline after each; measured first, since hierarchy repeats bodies.
    budget.spend(group.reduce((n, i) => n + records[i].text.length + 1, 0));
    const joined = group.map((i) => records[i].text + "\n").join("");
    const first = records[group[0]];
    if (textFormat) chunks.push({ text: joined });
    else if (first.doc_type_kwd === "text") {
      chunks.push({
        text: removeTag(joined),
        doc_type_kwd: "text",
        [PDF_POSITIONS_KEY]: mergePdfPositions(
          group.map((i) => ({ [PDF_POSITIONS_KEY]: records[i].positions })),
          payload.name,
        ),
      });
    } else {
      const media: Chunk = { text: first.text, doc_type_kwd: first.doc_type_kwd as Chunk["doc_type_kwd"] };
      // RAGFlow writes img_id: null when the item has none; a chunk here leaves it out.
      if (first.img_id !== undefined && first.img_id !== null) media.img_id = first.img_id as string;
      media[PDF_POSITIONS_KEY] = first.positions;
      chunks.push(media);
    }
  }
  if (rootAsHeading && chunks.length > 1) {
    const root = chunks[0].text;
    budget.spend((root.length + 1) * (chunks.length - 1));
    return chunks.slice(1).map((chunk) => ({ ...chunk, text: root + "\n" + chunk.text }));
  }
  return chunks;
}

/**
 * RAGFlow's TitleChunker on one document's payload. `params` come from checkTitleChunkerParams.
 * Throws DocumentParseError for a payload it cannot read (an item that is not an object, a text
 * that is not a string, a malformed position tag) or one whose chunks would pass the text limit.
 */
export async function titleChunk(params: TitleChunkerParams, payload: Payload, progress: ProgressSink, options: ChunkOptions = {}): Promise<Chunk[]> {
  const tokens = await cl100kCounter();
  startProgress(progress, params.method === "hierarchy" ? "Start to merge hierarchically." : "Start to group by title levels.");
  const budget = new OutputBudget(payload.name, options.limits);
  const records = lineRecords(payload);
  checkAborted(options.signal);
  const resolved = resolveLevels(records, compileLevels(params.levels), params.levels);
  checkAborted(options.signal);
  const groups =
    params.method === "hierarchy"
      ? hierarchyGroups(resolved.levels, (i) => records[i].doc_type_kwd === "text", params.hierarchy, params.include_heading_content)
      : groupGroups(records, resolved, params.hierarchy, params.chunk_token_cap, tokens);
  const built = materialise(payload, records, groups, params.root_chunk_as_heading, budget);
  checkAborted(options.signal);
  const capped = enforceTokenCap(built, params.chunk_token_cap, tokens);
  const textFormat = payload.output_format !== undefined && TEXT_FORMATS.has(payload.output_format);
  const chunks = textFormat ? capped : capped.map((chunk) => finalizePdfChunk(chunk, payload.name));
  progress({ progress: 1, message: "Done." });
  return chunks;
}
