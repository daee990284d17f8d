/**
 * Reading Dify's YAML exports as Dify reads them: PyYAML's `yaml.safe_load`. The `yaml` package
 * parses, with a custom schema holding SafeLoader's resolvers and constructors (./pyyaml/schema.ts);
 * the value is built as SafeConstructor builds it (./pyyaml/construct.ts) and held as JSON
 * (ints and floats as numbers, dates and datetimes as ISO text, bytes as base64, sets as lists).
 * What PyYAML refuses is refused, with the line and column: a tab between tokens, a plain `=` or
 * `<<` as a value, an unknown tag, an unhashable key. See docs/dify.md#yaml.
 */
import { readFile } from "node:fs/promises";
import { LineCounter, parseDocument } from "yaml";
import { DslReadError } from "../dsl/source.js";
import { ConstructError, constructDocument } from "./pyyaml/construct.js";
import { pyyamlSyntaxProblem } from "./pyyaml/syntax.js";
import { PYYAML_SAFE_TAGS } from "./pyyaml/schema.js";

/** Dify refuses DSL files above 10 MB (DSL_MAX_SIZE); so do we. */
export const MAX_DIFY_YAML_BYTES = 10 * 1024 * 1024;

export { isYamlPath } from "./document.js";

/** Parse YAML text as PyYAML's safe_load does; what it refuses is an error naming the line and column. */
export function parseDifyYaml(text: string, file?: string): unknown {
  if (Buffer.byteLength(text, "utf8") > MAX_DIFY_YAML_BYTES) {
    throw new DslReadError(`the YAML is larger than ${MAX_DIFY_YAML_BYTES / 1024 / 1024} MB, the most Dify accepts`, file);
  }
  const lines = new LineCounter();
  const at = (offset: number) => {
    const pos = lines.linePos(offset);
    return `line ${pos.line}, column ${pos.col}`;
  };
  const document = parseDocument(text, {
    version: "1.1",
    schema: "failsafe",
    customTags: () => [...PYYAML_SAFE_TAGS],
    resolveKnownTags: false,
    uniqueKeys: false,
    prettyErrors: true,
    lineCounter: lines,
  });
  const problem = pyyamlSyntaxProblem(text);
  if (problem) throw new DslReadError(`not valid YAML at ${at(problem.offset)}: ${problem.message}`, file);
  const error = document.errors[0];
  if (error) {
    const pos = error.linePos?.[0];
    const where = pos ? `line ${pos.line}, column ${pos.col}` : "an unknown position";
    throw new DslReadError(`not valid YAML at ${where}: ${firstLine(error.message)}`, file);
  }
  try {
    return constructDocument(document, lines);
  } catch (caught) {
    if (caught instanceof ConstructError) throw new DslReadError(`not valid YAML at ${at(caught.offset)}: ${caught.message}`, file);
    throw caught;
  }
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
