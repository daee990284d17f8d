/**
 * What a setup's parse method means here (research/ragflow-pipelines.md §4.2, §11): a parser
 * that runs in this process, a vision model the canvas's provider routing answers, or a method
 * that needs RAGFlow's own models or a third-party service, which is refused with a message
 * naming the method and what does run for that file type.
 */
import type { ParserSetup } from "./contract.js";
import { normalizeMethod } from "./setups.js";

export type ParseRoute =
  /** A parser of this process for the file type (the setup's output format picks its shape). */
  | { readonly kind: "local" }
  /** Each page or image described by a vision chat model of this name. */
  | { readonly kind: "vision"; readonly model: string }
  /** The recording transcribed by a speech-to-text model of this name. */
  | { readonly kind: "speech"; readonly model: string }
  /** The method cannot run here: the message says why and what does. */
  | { readonly kind: "refused"; readonly message: string };

/** Services and models outside canvasflow, by the method names that ask for them. */
const EXTERNAL: Record<string, string> = {
  deepdoc: "RAGFlow's DeepDOC models (ONNX OCR, layout and table-structure models, and the XGBoost text-concatenation model)",
  mineru: "a MinerU OCR service",
  docling: "a Docling server (DOCLING_SERVER_URL)",
  opendataloader: "an OpenDataLoader service",
  "tcadp parser": "Tencent Cloud's ADP document-parsing API",
  paddleocr: "a PaddleOCR service",
  somark: "the SoMark OCR service",
  "mistral ocr": "Mistral's OCR API",
};

/** A provider-qualified OCR model (`name@instance@mineru`) selects that provider, as in RAGFlow. */
function externalProvider(method: string): string | undefined {
  if (EXTERNAL[method]) return method;
  return ["mineru", "paddleocr", "somark", "mistral ocr"].find((provider) => method.endsWith(`@${provider}`));
}

function refused(method: string, provider: string, type: string, alternatives: string): ParseRoute {
  return {
    kind: "refused",
    message: `parse_method "${method}" of the ${type} setup needs ${EXTERNAL[provider]}, which canvasflow cannot run; what runs here for ${type}: ${alternatives}`,
  };
}

const PDF_ALTERNATIVES = `"plain_text" (the PDF's text layer; no OCR, so a scanned PDF gives no text) or the name of a vision model (each page rendered and described by it)`;

/** How a document of `type` is parsed with `setup`. */
export function parseRoute(type: string, setup: ParserSetup): ParseRoute {
  const stated = typeof setup.parse_method === "string" ? setup.parse_method : "";
  const method = normalizeMethod(stated);
  switch (type) {
    case "pdf": {
      if (method === "") return { kind: "refused", message: `Parse method abnormal. does not support empty value. (the pdf setup's parse_method); what runs here for pdf: ${PDF_ALTERNATIVES}` };
      if (method === "plain_text") return { kind: "local" };
      const provider = externalProvider(method);
      if (provider) return refused(stated, provider, "pdf", PDF_ALTERNATIVES);
      return { kind: "vision", model: stated.trim() };
    }
    case "spreadsheet":
    case "slides": {
      if (method === "tcadp parser") return refused(stated, method, type, `"deepdoc" (read in this process; no model is involved for ${type})`);
      return { kind: "local" };
    }
    case "doc":
      return {
        kind: "refused",
        message: "`.doc` files (Word 97–2003) are read by Apache Tika in RAGFlow, which canvasflow cannot run: save the document as .docx, which the docx setup parses here",
      };
    case "image": {
      if (method === "" || method === "ocr") {
        return {
          kind: "refused",
          message: `parse_method "${stated || "ocr"}" of the image setup needs RAGFlow's DeepDOC OCR models, which canvasflow cannot run; what runs here for images: the name of a vision model as parse_method (the image described by it)`,
        };
      }
      return { kind: "vision", model: stated.trim() };
    }
    case "audio": {
      const model = typeof setup.vlm?.llm_id === "string" ? setup.vlm.llm_id.trim() : "";
      if (model === "") return { kind: "refused", message: "Audio VLM does not support empty value. (the audio setup's vlm.llm_id): name a speech-to-text model, e.g. whisper-1, which the config routes like any llm_id" };
      return { kind: "speech", model };
    }
    case "video":
      return {
        kind: "refused",
        message: "video needs a model that reads video (the video setup's vlm.llm_id), which canvasflow's OpenAI-compatible vision chat cannot be given: describe the video first and give the text",
      };
    default:
      return { kind: "local" };
  }
}
