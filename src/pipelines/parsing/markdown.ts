/**
 * The `markdown` file type (`.md`, `.markdown`, `.mdx`), RAGFlow's Markdown parser with tables
 * kept in place (research/ragflow-pipelines.md §4.2 "Markdown"): the text decoded as find_codec
 * would, pipe tables turned into HTML (markdown-tables.ts), then cut into elements
 * (markdown-elements.ts). json gives `{text, image?, doc_type_kwd}` per element; text joins the
 * elements with "\n".
 *
 * Images: RAGFlow downloads every image an element references (and reads local paths) and
 * stacks them into the element's image. Here a remote image is never fetched and a local path
 * never read; the user is told. An image embedded as a base64 `data:image/…` URL needs neither,
 * so it becomes the element's image (the first one, when an element has several).
 */
import type { FormatParser, ParserSetup } from "./contract.js";
import type { ParsedItem } from "../payload.js";
import { decodeDocumentText } from "./codec.js";
import { normalizeNewlines } from "./delimiters.js";
import { MarkdownElementExtractor, type MarkdownElement } from "./markdown-elements.js";
import { inlineMarkdownTables } from "./markdown-tables.js";
import { limitTexts, readDocumentBytes } from "./read-document.js";
import { flagParam, outputFormatOf, stringParam } from "./setup-params.js";

export { renderMarkdownTable, inlineMarkdownTables } from "./markdown-tables.js";
export { MarkdownElementExtractor, type MarkdownElement } from "./markdown-elements.js";

interface ImageReference {
  url: string;
  line: number;
}

const MARKDOWN_IMAGE = /!\[[^\]]*\]\(([^)\s]+)/g;
const HTML_IMAGE = /<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+;base64,[a-z0-9+/]+={0,2}$/i;

/** The images a Markdown text references (Markdown and HTML syntax), with the line each starts on. */
export function imageReferences(text: string): ImageReference[] {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const seen = new Set<string>();
  const references: ImageReference[] = [];
  const add = (url: string, offset: number) => {
    const line = lineOf(offset);
    const key = `${line}\n${url}`;
    if (url && !seen.has(key)) {
      seen.add(key);
      references.push({ url, line });
    }
  };
  for (const match of text.matchAll(MARKDOWN_IMAGE)) add(match[1], match.index);
  for (const match of text.matchAll(HTML_IMAGE)) add(match[1] ?? match[2] ?? match[3], match.index);
  return references;
}

export const parseMarkdown: FormatParser<ParserSetup> = async ({ source, setup, limits, warn, signal }) => {
  const type = "markdown";
  const outputFormat = outputFormatOf(source.name, type, setup, ["json", "text"] as const);
  const delimiter = stringParam(source.name, type, setup, "delimiter");
  const flatten = flagParam(source.name, type, setup, "flatten_media_to_text");

  const bytes = await readDocumentBytes(source, limits, signal);
  const decoded = await decodeDocumentText(source.name, bytes);
  if (decoded.warning) warn(decoded.warning);
  const [markdown = ""] = limitTexts(source.name, [decoded.text], limits, warn);
  signal.throwIfAborted();
  const text = await inlineMarkdownTables(`${normalizeNewlines(markdown)}\n`);
  signal.throwIfAborted();
  const elements = new MarkdownElementExtractor(text).extract(delimiter);
  const contents = limitTexts(
    source.name,
    elements.map((element) => element.content),
    limits,
    warn,
  );

  if (outputFormat === "text") return { output_format: "text", text: contents.filter((content) => content !== "").join("\n") };

  const references = imageReferences(text);
  const notLoaded: string[] = [];
  let extraEmbedded = 0;
  const imageOf = (element: MarkdownElement): string | undefined => {
    let image: string | undefined;
    for (const { url, line } of references) {
      if (line < element.startLine || line > element.endLine) continue;
      if (!DATA_IMAGE.test(url)) notLoaded.push(url);
      else if (image === undefined) image = url;
      else extraEmbedded++;
    }
    return image;
  };
  const items: ParsedItem[] = contents.map((content, index) => {
    const image = imageOf(elements[index]);
    return image === undefined ? { text: content, doc_type_kwd: "text" } : { text: content, image, doc_type_kwd: flatten ? "text" : "image" };
  });
  if (notLoaded.length > 0) {
    const shown = notLoaded.slice(0, 3).map((url) => (url.length > 80 ? `${url.slice(0, 77)}...` : url));
    warn(
      `${source.name}: ${notLoaded.length} image${notLoaded.length === 1 ? " was" : "s were"} not loaded (${shown.join(", ")}${notLoaded.length > 3 ? ", …" : ""}): remote images are never fetched and local files never read; embed an image as a data:image/…;base64 URL to keep it`,
    );
  }
  if (extraEmbedded > 0) warn(`${source.name}: ${extraEmbedded} embedded image${extraEmbedded === 1 ? " was" : "s were"} left out: an element keeps its first image only`);
  return { output_format: "json", json: items };
};
