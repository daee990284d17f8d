/** The Parser's setups in both of RAGFlow's dialects, RAGFlow's check messages, and what each parse method means here. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { corpusPath } from "../../helpers/corpus.js";
import { parseRoute } from "../../../src/pipelines/parsing/methods.js";
import { readParserSetups, setupForDocument } from "../../../src/pipelines/parsing/setups.js";


function corpusParser(file: string): Record<string, unknown> {
  const document = JSON.parse(readFileSync(corpusPath("ragflow/head", file), "utf8"));
  const dsl = document.dsl ?? document;
  const parser = Object.values(dsl.components as Record<string, { obj: { component_name: string; params: Record<string, unknown> } }>).find((entry) => entry.obj.component_name === "Parser");
  return parser!.obj.params;
}

describe("Parser setups", () => {
  it("read a Python-dialect `setups` table as the whole list of accepted types, in its order", () => {
    const read = readParserSetups(corpusParser("compiler.json"));
    expect(read.dialect).toBe("python");
    expect(Object.keys(read.setups)).toEqual(["doc", "docx", "email", "html", "image", "markdown", "pdf", "slides", "spreadsheet", "text&code"]);
    expect(read.problems).toEqual([]);
    expect(setupForDocument(read.setups, "Report.PDF")).toMatchObject({ type: "pdf", setup: { parse_method: "DeepDOC", output_format: "json" } });
    // No audio setup in the table: RAGFlow's message, with the extension.
    expect(setupForDocument(read.setups, "talk.mp3")).toEqual({ error: "No suitable for file extension: `.mp3`" });
    expect(setupForDocument(read.setups, "README")).toEqual({ error: "No suitable for file extension: `.`" });
  });

  it("merge Go-dialect flat keys into the defaults, add Go's json type, and warn (not refuse) for the default audio and video setups", () => {
    const read = readParserSetups(corpusParser("advanced_ingestion_pipeline.json"));
    expect(read.dialect).toBe("go");
    expect(read.setups.email).toMatchObject({ output_format: "text", fields: ["from", "to", "cc", "bcc", "date", "subject", "body", "attachments"] });
    expect(read.setups.pdf).toMatchObject({ parse_method: "DeepDOC", lang: "Chinese", remove_toc: false });
    expect(setupForDocument(read.setups, "data.jsonl")).toMatchObject({ type: "json" });
    expect(read.problems).toEqual([
      { pointer: "/audio/vlm/llm_id", severity: "warning", message: expect.stringMatching(/^Audio VLM does not support empty value\. \(a default setup/) },
      { pointer: "/video/vlm/llm_id", severity: "warning", message: expect.stringMatching(/^Video VLM does not support empty value\./) },
    ]);
  });

  it("report RAGFlow's check messages with pointers into the params", () => {
    const read = readParserSetups({
      setups: {
        pdf: { parse_method: "", suffix: ["pdf"], output_format: "html" },
        spreadsheet: { suffix: "xlsx", output_format: "text" },
        image: { parse_method: "gpt-4o", suffix: ["png"], output_format: "json" },
        audio: { suffix: ["mp3"], output_format: "text" },
        slides: "pptx",
      },
    });
    expect(read.problems).toEqual([
      { pointer: "/setups/slides", message: 'the setup of file type "slides" must be an object, got "pptx"' },
      { pointer: "/setups/pdf/output_format", message: "PDF output format abnormal. html is not supported, it should be in ['json', 'markdown']" },
      { pointer: "/setups/pdf/parse_method", message: "Parse method abnormal. does not support empty value." },
      { pointer: "/setups/spreadsheet/suffix", message: 'the suffixes of file type "spreadsheet" must be a list of extensions, got "xlsx"' },
      { pointer: "/setups/spreadsheet/output_format", message: "Spreadsheet output format abnormal. text is not supported, it should be in ['json', 'markdown', 'html']" },
      { pointer: "/setups/image/lang", message: "Image VLM language does not support empty value." },
      { pointer: "/setups/audio/vlm/llm_id", message: "Audio VLM does not support empty value." },
    ]);
  });

  it("require a language for a PDF vision model, as RAGFlow does, and not for a named method", () => {
    expect(readParserSetups({ setups: { pdf: { parse_method: "qwen-vl", suffix: ["pdf"], output_format: "json" } } }).problems).toEqual([
      { pointer: "/setups/pdf/lang", message: "PDF VLM language does not support empty value." },
    ]);
    expect(readParserSetups({ setups: { pdf: { parse_method: "Plain Text", suffix: ["pdf"], output_format: "markdown" } } }).problems).toEqual([]);
  });
});

describe("parse methods", () => {
  it("run the text layer, name a vision model, or refuse what needs RAGFlow's models or a service, naming what runs instead", () => {
    expect(parseRoute("pdf", { parse_method: "plain_text", output_format: "json" })).toEqual({ kind: "local" });
    expect(parseRoute("pdf", { parse_method: "Plain Text", output_format: "json" })).toEqual({ kind: "local" });
    expect(parseRoute("pdf", { parse_method: "gpt-4o-mini", output_format: "json" })).toEqual({ kind: "vision", model: "gpt-4o-mini" });
    const deepdoc = parseRoute("pdf", { parse_method: "DeepDOC", output_format: "json" });
    expect(deepdoc).toEqual({ kind: "refused", message: expect.stringContaining('parse_method "DeepDOC" of the pdf setup needs RAGFlow\'s DeepDOC models (ONNX OCR, layout and table-structure models') });
    expect((deepdoc as { message: string }).message).toContain('"plain_text"');
    expect(parseRoute("pdf", { parse_method: "MinerU-2@inst@MinerU", output_format: "json" })).toMatchObject({ kind: "refused", message: expect.stringContaining("a MinerU OCR service") });
    expect(parseRoute("pdf", { parse_method: "", output_format: "json" })).toMatchObject({ kind: "refused", message: expect.stringMatching(/^Parse method abnormal/) });
    for (const method of ["docling", "opendataloader", "TCADP Parser", "paddleocr", "somark", "mistral ocr"]) {
      expect(parseRoute("pdf", { parse_method: method, output_format: "json" }).kind).toBe("refused");
    }
    expect(parseRoute("spreadsheet", { parse_method: "DeepDOC", output_format: "html" })).toEqual({ kind: "local" });
    expect(parseRoute("slides", { parse_method: "TCADP Parser", output_format: "json" })).toMatchObject({ kind: "refused", message: expect.stringContaining('"deepdoc"') });
    expect(parseRoute("doc", { output_format: "json" })).toMatchObject({ kind: "refused", message: expect.stringContaining("save the document as .docx") });
    expect(parseRoute("image", { parse_method: "ocr", output_format: "json" })).toMatchObject({ kind: "refused", message: expect.stringContaining("vision model") });
    expect(parseRoute("image", { parse_method: "gpt-4o", output_format: "json" })).toEqual({ kind: "vision", model: "gpt-4o" });
    for (const type of ["docx", "markdown", "text&code", "html", "email", "epub", "json"]) expect(parseRoute(type, { output_format: "json" })).toEqual({ kind: "local" });
  });
});
