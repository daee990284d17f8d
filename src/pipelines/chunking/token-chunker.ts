/**
 * RAGFlow's TokenChunker (`rag/flow/chunker/token_chunker.py`, research §4.3): a parsed document
 * cut into chunks of about `chunk_token_size` cl100k tokens.
 *
 * Path A, a Markdown, text or HTML payload: `one` mode gives the whole text (tags removed);
 * backtick delimiters cut it with no size merging; otherwise naive_merge (bare delimiter
 * characters cut it into paragraphs merged by size, with the overlap). Children delimiters then
 * cut each chunk again. Path B, items: see token-chunker-json.ts.
 *
 * Not ported: PDF text-chunk preview images (§4.8: they need the PDF's pages; text chunks of a
 * PDF get no preview `img_id`).
 */
import { DocumentParseError, type Chunk, type Payload, type ProgressSink } from "../payload.js";
import { type ChunkOptions, OutputBudget, checkAborted, payloadFormat, payloadItems, startProgress } from "./chunk-run.js";
import { backtickDelimiters, delimiterRegex, literalDelimiters, splitDropping } from "./delimiters.js";
import { attachMediaContext } from "./media-context.js";
import { naiveMerge } from "./naive-merge.js";
import { removeTag } from "./pdf-positions.js";
import { pyIsBlank, pyStrip } from "./python-str.js";
import { finishChunks, itemChunks, itemText, mergeBySize, splitChildren, splitItemRuns } from "./token-chunker-json.js";
import { normalizeOverlappedPercent, type TokenChunkerParams } from "./token-chunker-params.js";
import { cl100kCounter } from "./tokens.js";

const TEXT_FORMATS = new Set(["markdown", "text", "html"]);

/** Path A: a Markdown, text or HTML payload. */
function chunkText(params: TokenChunkerParams, text: string, overlap: number, tokens: Awaited<ReturnType<typeof cl100kCounter>>, budget: OutputBudget): Chunk[] {
  if (params.delimiter_mode === "one") {
    if (pyIsBlank(text)) return [];
    const whole = removeTag(text);
    budget.spend(whole.length);
    return [{ text: whole }];
  }
  const primary = delimiterRegex(backtickDelimiters(params.delimiters));
  const pieces = primary
    ? splitDropping(text, primary).filter((piece) => piece !== "")
    : naiveMerge(text, params.chunk_token_size, params.delimiters.join(""), overlap, tokens);
  const children = delimiterRegex(literalDelimiters(params.children_delimiters));
  const chunks: Chunk[] = [];
  for (const piece of pieces) {
    if (pyIsBlank(piece)) continue;
    if (!children) {
      chunks.push({ text: pyStrip(piece) });
      continue;
    }
    // Children are not stripped, and keep the whole piece (without a leading "\n") as mom.
    const mom = piece.startsWith("\n") ? piece.slice(1) : piece;
    for (const child of splitDropping(piece, children)) if (child !== "" && !pyIsBlank(child)) chunks.push({ text: child, mom });
  }
  for (const chunk of chunks) budget.spend(chunk.text.length + (chunk.mom?.length ?? 0));
  return chunks;
}

/** Path B, `one` mode: every item's text (tags removed) joined with "\n" as one chunk. */
function oneChunkOfItems(payload: Payload, budget: OutputBudget): Chunk[] {
  const sections = payloadItems(payload)
    .map((item) => itemText(item))
    .filter((text): text is string => text !== undefined && !pyIsBlank(text))
    .map(removeTag);
  const merged = sections.join("\n");
  if (pyIsBlank(merged)) return [];
  budget.spend(merged.length);
  return [{ text: merged }];
}

/**
 * RAGFlow's TokenChunker on one document's payload. `params` come from checkTokenChunkerParams.
 * Throws DocumentParseError for a payload it cannot read (an item that is not an object, a
 * malformed position tag) or one whose chunks would pass the text limit.
 */
export async function tokenChunk(params: TokenChunkerParams, payload: Payload, progress: ProgressSink, options: ChunkOptions = {}): Promise<Chunk[]> {
  const tokens = await cl100kCounter();
  startProgress(progress, "Start to split into chunks.");
  const budget = new OutputBudget(payload.name, options.limits);
  const overlap = normalizeOverlappedPercent(params.overlapped_percent);
  const format = payloadFormat(payload);
  let chunks: Chunk[];
  if (format !== undefined && TEXT_FORMATS.has(format)) {
    const text = payload[format as "markdown" | "text" | "html"] ?? "";
    if (typeof text !== "string") throw new DocumentParseError(payload.name, `the ${format} payload is not text`);
    chunks = chunkText(params, text, overlap, tokens, budget);
  } else if (params.delimiter_mode === "one") {
    chunks = oneChunkOfItems(payload, budget);
  } else {
    const primary = delimiterRegex(backtickDelimiters(params.delimiters));
    const children = delimiterRegex(literalDelimiters(params.children_delimiters));
    const items = itemChunks(payloadItems(payload), payload.name, tokens);
    checkAborted(options.signal);
    let work;
    if (primary) {
      work = splitChildren(splitItemRuns(items, primary, tokens), children);
      attachMediaContext(work, params.table_context_size, params.image_context_size, tokens);
    } else {
      attachMediaContext(items, params.table_context_size, params.image_context_size, tokens);
      checkAborted(options.signal);
      work = splitChildren(mergeBySize(items, params.chunk_token_size, overlap, tokens), children);
    }
    checkAborted(options.signal);
    chunks = finishChunks(work, payload.name, budget);
  }
  progress({ progress: 1, message: "Done." });
  return chunks;
}
