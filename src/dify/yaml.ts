/**
 * Reading Dify's YAML exports as Dify reads them (PyYAML's safe_load): YAML 1.1, so `yes`/`no`
 * and `on`/`off` are booleans and `0777` is octal; duplicate keys keep the last value; anchors
 * and merge keys work. Timestamps become ISO strings (the engine holds JSON values only).
 */
import { readFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { DslReadError } from "../dsl/source.js";

/** Dify refuses DSL files above 10 MB (DSL_MAX_SIZE); so do we. */
export const MAX_DIFY_YAML_BYTES = 10 * 1024 * 1024;

/** An alias expanded more often than this is an attack (a "billion laughs" file), not a workflow. */
const MAX_ALIAS_COUNT = 10_000;

export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

/** Parse YAML text; a syntax error names its line and column. */
export function parseDifyYaml(text: string, file?: string): unknown {
  if (Buffer.byteLength(text, "utf8") > MAX_DIFY_YAML_BYTES) {
    throw new DslReadError(`the YAML is larger than ${MAX_DIFY_YAML_BYTES / 1024 / 1024} MB, the most Dify accepts`, file);
  }
  const document = parseDocument(text, { version: "1.1", uniqueKeys: false, merge: true, prettyErrors: true });
  const error = document.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    const where = at ? `line ${at.line}, column ${at.col}` : "an unknown position";
    throw new DslReadError(`not valid YAML at ${where}: ${firstLine(error.message)}`, file);
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (caught) {
    throw new DslReadError(`the YAML cannot be read: ${(caught as Error).message}`, file);
  }
  return plainJson(value);
}

/** Read and parse a YAML file. */
export async function readDifyYamlFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DslReadError(code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (error as Error).message, file);
  }
  return parseDifyYaml(text, file);
}

function firstLine(message: string): string {
  return message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
}

/** The value as JSON holds it: dates as ISO strings, maps as plain objects, nothing else. */
function plainJson(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(plainJson);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), plainJson(v)]));
  if (value instanceof Set) return [...value].map(plainJson);
  if (typeof value === "bigint") return Number(value);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: plainJson(item), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}
