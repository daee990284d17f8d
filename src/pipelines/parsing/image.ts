/**
 * Image (research/ragflow-pipelines.md §4.2 "Image"): with a vision model named as the setup's
 * parse_method, the picture is described by that model (with the setup's system_prompt when it
 * has one), and the Parser gives one image item. The `ocr` method needs RAGFlow's DeepDOC OCR and
 * is refused before this point (methods.ts).
 */
import { DocumentParseError, type ParsedItem } from "../payload.js";
import { checkAborted, readWhole } from "./binary-input.js";
import type { FormatParser } from "./contract.js";
import { extensionOf } from "./setups.js";

const MIME_TYPES: Readonly<Record<string, string>> = { jpg: "image/jpeg", jpeg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp", bmp: "image/bmp" };

/** What the model is asked when the setup gives no prompt (RAGFlow's describe prompt, in our words). */
const DESCRIBE_PROMPT = "Describe this image in detail: every piece of text it shows, word for word, then what it depicts, its layout, and any figures or tables with their values.";

export const parseImageWithVision: FormatParser = async (request) => {
  const name = request.source.name;
  if (!request.vision) throw new DocumentParseError(name, `${name}: the image setup names a vision model, and this run has none (give the canvas an LLM provider: --mock-llm, or a model in the config)`);
  const mime = MIME_TYPES[extensionOf(name)];
  if (!mime) throw new DocumentParseError(name, `${name}: a vision model reads JPEG, PNG, GIF, WebP and BMP pictures, not .${extensionOf(name)}`);
  const bytes = await readWhole(request);
  checkAborted(request);
  const prompt = typeof request.setup.system_prompt === "string" && request.setup.system_prompt.trim() !== "" ? request.setup.system_prompt : DESCRIBE_PROMPT;
  const text = await request.vision.describe(bytes, mime, prompt, request.signal);
  const item: ParsedItem = { text, image: `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`, doc_type_kwd: "image" };
  // RAGFlow's image setup always gives json.
  return { output_format: "json", json: [item] };
};
