/**
 * Reading a DSL: from a file or text, bare or inside a template envelope.
 */
import { readFile } from "node:fs/promises";
import { describeJson, isPlainObject } from "../util/values.js";
import type { CanvasDsl, DslSource, TemplateEnvelope } from "../contracts/dsl.js";

export type { DslSource };

/** A file or text that is not a DSL at all (unreadable, not JSON, not an object). */
export class DslReadError extends Error {
  constructor(
    /** What is wrong, without the file name. */
    readonly reason: string,
    readonly file?: string,
  ) {
    super(file ? `${file}: ${reason}` : reason);
    this.name = "DslReadError";
  }
}

/** True for `{id, title, dsl: {...}}` template envelopes (RAGFlow's agent/templates/*.json). */
export function isTemplateEnvelope(value: unknown): value is TemplateEnvelope {
  if (!isPlainObject(value)) return false;
  return isPlainObject(value.dsl) && !("components" in value) && !("graph" in value);
}

/** Split an envelope from its DSL; a bare DSL passes through. */
export function unwrapDsl(value: unknown, file?: string): DslSource {
  if (!isPlainObject(value)) {
    throw new DslReadError(`expected a JSON object (a canvas DSL or a template envelope), got ${describeJson(value)}`, file);
  }
  if (isTemplateEnvelope(value)) {
    const { dsl, ...envelope } = value;
    return { dsl, envelope, ...(file ? { file } : {}) };
  }
  return { dsl: value as CanvasDsl, ...(file ? { file } : {}) };
}

/** Parse DSL text (JSON). */
export function parseDslText(text: string, file?: string): DslSource {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DslReadError(`not valid JSON: ${(error as Error).message}`, file);
  }
  return unwrapDsl(value, file);
}

/** Read and parse a DSL file. */
export async function readDslFile(file: string): Promise<DslSource> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (error as Error).message;
    throw new DslReadError(reason, file);
  }
  return parseDslText(text, file);
}
