/**
 * DocGenerator (agent/component/docs_generator.py, formerly PDFGenerator): renders `content` (a
 * Markdown template with references) into a pdf, docx, txt, markdown or html file and returns a
 * download descriptor that a Message shows as a download. A canvas node only, not an Agent tool.
 */
import { positiveNumber } from "../components/param-checks.js";
import type { ParamProblem, Params } from "../components/types.js";
import { defineTool, lazyRun } from "./define-tool.js";

function checkDocument(params: Params): ParamProblem[] {
  const problems: ParamProblem[] = [];
  if (typeof params.content !== "string" || params.content.trim() === "") problems.push({ pointer: "/content", message: "content is empty: there is nothing to put in the document" });
  const size = positiveNumber(params, "font_size");
  if (size.length > 0) return [...problems, ...size];
  if (Number(params.font_size) < 12) problems.push({ pointer: "/font_size", message: `font_size must be 12 or more, not ${JSON.stringify(params.font_size)}` });
  return problems;
}

export const DocGenerator = defineTool({
  name: "DocGenerator",
  // content is a template: its references are read, but the whole text is never a bare reference.
  meta: { content: { default: "", textOnly: true } },
  defaults: {
    output_format: "pdf",
    filename: "",
    header_text: "",
    footer_text: "",
    watermark_text: "",
    add_page_numbers: true,
    add_timestamp: true,
    include_download_info_in_content: false,
    font_size: 12,
  },
  usableAsTool: false,
  timeoutSeconds: 600,
  primaryOutput: "download",
  check: checkDocument,
  thoughts: () => "Generating the document...",
  run: lazyRun(() => import("./docs/generate.js"), (m) => m.runDocGenerator),
});
