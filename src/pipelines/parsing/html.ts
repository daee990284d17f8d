/**
 * The `html` file type (`.htm`, `.html`): the document decoded as find_codec would, cut into
 * sections by RAGFlow's HtmlParser (html-sections.ts), optionally without its table of contents.
 * json gives `{text, doc_type_kwd: "text"}` per non-empty section; text joins them with "\n".
 */
import type { FormatParser, ParserSetup } from "./contract.js";
import { decodeDocumentText } from "./codec.js";
import { HTML_DEFAULT_CHUNK_TOKENS, htmlToSections } from "./html-sections.js";
import { limitTexts, readDocumentBytes } from "./read-document.js";
import { removeToc } from "./toc.js";
import { flagParam, outputFormatOf, positiveIntegerParam } from "./setup-params.js";

export { htmlToSections, type HtmlSectionOptions } from "./html-sections.js";

export const parseHtml: FormatParser<ParserSetup> = async ({ source, setup, limits, warn, signal }) => {
  const type = "html";
  const outputFormat = outputFormatOf(source.name, type, setup, ["json", "text"] as const);
  const chunkTokenNum = positiveIntegerParam(source.name, type, setup, "chunk_token_num", HTML_DEFAULT_CHUNK_TOKENS);
  const removeHeaderFooter = flagParam(source.name, type, setup, "remove_header_footer");
  const removeTocFirst = flagParam(source.name, type, setup, "remove_toc");

  const bytes = await readDocumentBytes(source, limits, signal);
  const decoded = await decodeDocumentText(source.name, bytes);
  if (decoded.warning) warn(decoded.warning);
  signal.throwIfAborted();
  let sections = await htmlToSections(decoded.text, { chunkTokenNum, removeHeaderFooter });
  if (removeTocFirst) sections = removeToc(sections);
  sections = limitTexts(source.name, sections.filter((section) => section !== ""), limits, warn);

  if (outputFormat === "json") return { output_format: "json", json: sections.map((text) => ({ text, doc_type_kwd: "text" as const })) };
  return { output_format: "text", text: sections.join("\n") };
};
