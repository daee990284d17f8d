/**
 * Which parser reads each file type, loaded when a document of that type first comes (each pulls
 * in its own libraries: pdf.js, mammoth, a ZIP reader…).
 */
import type { FormatParser } from "./contract.js";
import type { ParseRoute } from "./methods.js";

type Loader = () => Promise<FormatParser>;

/** The parsers of this process, by file type. */
const LOCAL: Readonly<Record<string, Loader>> = {
  "text&code": async () => (await import("./text-code.js")).parseTextCode,
  markdown: async () => (await import("./markdown.js")).parseMarkdown,
  html: async () => (await import("./html.js")).parseHtml,
  email: async () => (await import("./email.js")).parseEmail,
  json: async () => (await import("./json.js")).parseJson,
  pdf: async () => (await import("./pdf.js")).parsePdfPlainText,
  docx: async () => (await import("./docx.js")).parseDocx,
  spreadsheet: async () => (await import("./spreadsheet.js")).parseSpreadsheet,
  slides: async () => (await import("./slides.js")).parseSlides,
  epub: async () => (await import("./epub.js")).parseEpub,
};

/** Vision parsers, by file type: pages or images described by the setup's model. */
const VISION: Readonly<Record<string, Loader>> = {
  pdf: async () => (await import("./pdf.js")).parsePdfWithVision,
  image: async () => (await import("./image.js")).parseImageWithVision,
};

/** Speech parsers, by file type: recordings transcribed by the setup's model. */
const SPEECH: Readonly<Record<string, Loader>> = {
  audio: async () => (await import("./audio.js")).parseAudioWithSpeech,
};

const BY_ROUTE = { local: LOCAL, vision: VISION, speech: SPEECH } as const;

/** The parser of `type` for a route that is not refused. */
export async function formatParser(type: string, route: Exclude<ParseRoute, { kind: "refused" }>): Promise<FormatParser> {
  const load = BY_ROUTE[route.kind][type];
  if (!load) throw new Error(`canvasflow has no ${route.kind === "local" ? "" : `${route.kind}-model `}parser for the file type "${type}"`);
  return load();
}
