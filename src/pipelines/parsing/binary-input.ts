/**
 * What the binary-format parsers share: reading a document whole within the size limit
 * (pipelines.limits.maxFileBytes), and a budget for the text they produce (maxTextChars).
 */
import { DocumentParseError, type ParseLimits } from "../payload.js";
import type { FormatParseRequest } from "./contract.js";

/** Refuses a document larger than ParseLimits.maxFileBytes before reading it. */
export function checkFileSize(request: FormatParseRequest): void {
  const { source, limits } = request;
  if (source.size > limits.maxFileBytes) {
    throw new DocumentParseError(source.name, `${source.name} has ${source.size} bytes, more than the ${limits.maxFileBytes} a document may have (the config's pipelines.limits.maxFileBytes)`);
  }
}

/** The document's bytes, refused before reading when it is larger than ParseLimits.maxFileBytes. */
export async function readWhole(request: FormatParseRequest): Promise<Uint8Array> {
  const { source, limits } = request;
  checkFileSize(request);
  const bytes = await source.bytes();
  if (bytes.byteLength > limits.maxFileBytes) {
    throw new DocumentParseError(source.name, `${source.name} has ${bytes.byteLength} bytes, more than the ${limits.maxFileBytes} a document may have (the config's pipelines.limits.maxFileBytes)`);
  }
  if (bytes.byteLength === 0) throw new DocumentParseError(source.name, `${source.name} is empty`);
  return bytes;
}

/**
 * Characters of text a parser may still produce. `take` answers whether a piece fits; the first
 * piece that does not makes one warning, and the parser stops adding text.
 */
export class TextBudget {
  private used = 0;
  private warned = false;

  constructor(
    private readonly limits: Pick<ParseLimits, "maxTextChars">,
    private readonly document: string,
    private readonly warn: (message: string) => void,
  ) {}

  get exhausted(): boolean {
    return this.warned;
  }

  take(text: string): boolean {
    if (this.warned) return false;
    if (this.used + text.length > this.limits.maxTextChars) {
      this.warned = true;
      this.warn(`${this.document}: the text stops after ${this.used} characters, the most a document may give (the config's pipelines.limits.maxTextChars); the rest is left out`);
      return false;
    }
    this.used += text.length;
    return true;
  }
}

/** The setup's output_format, checked against what the file type can give. */
export function outputFormatOf<F extends string>(request: FormatParseRequest, kind: string, allowed: readonly F[]): F {
  const format = request.setup.output_format;
  if (!(allowed as readonly string[]).includes(format)) {
    throw new DocumentParseError(request.source.name, `${kind} output format abnormal. ${JSON.stringify(format)} is not supported, it should be in [${allowed.join(", ")}] (setup output_format)`);
  }
  return format as F;
}

/** The document's extension, lower-cased, without the dot. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** Throws when the run was cancelled, between pages, rows or parts. */
export function checkAborted(request: FormatParseRequest): void {
  if (request.signal.aborted) {
    throw new DocumentParseError(request.source.name, `parsing ${request.source.name} was cancelled`);
  }
}
