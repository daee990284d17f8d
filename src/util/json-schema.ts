/**
 * Checking a JSON document against one of the schemas in `schemas/` and turning ajv's findings
 * into `{pointer, message}` pairs a person can act on (configuration files, mock scripts).
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { loadSchema } from "../dsl/schemas.js";
import { newAjv2020, type Ajv2020 } from "./ajv.js";

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

export interface SchemaIssue {
  /** JSON pointer into the checked document ("" is the whole document). */
  pointer: string;
  message: string;
}

function validator(relative: string): ValidateFunction {
  let validate = validators.get(relative);
  if (!validate) {
    ajv ??= newAjv2020({ allErrors: true, strict: false, allowUnionTypes: true });
    validate = ajv.compile(loadSchema(relative));
    validators.set(relative, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `missing the required property "${String(params.missingProperty)}"`;
    case "additionalProperties":
      return `has the unknown property "${String(params.additionalProperty)}"`;
    case "enum":
      return `must be one of ${((params.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return error.message ?? "is invalid";
  }
}

/**
 * Check a value against one definition inside a schema file (`pointer` such as `/$defs/server`),
 * worded as `schemaIssues` words them: options that a config file section also holds are
 * checked against the same schema.
 */
export function schemaIssuesAt(schemaFile: string, pointer: string, value: unknown): SchemaIssue[] {
  const key = `${schemaFile}#${pointer}`;
  let validate = validators.get(key);
  if (!validate) {
    validator(schemaFile); // adds the file's schema to ajv under its $id
    const id = (loadSchema(schemaFile) as { $id?: string }).$id;
    if (id === undefined) throw new Error(`${schemaFile} has no $id: its definitions cannot be referred to`);
    validate = ajv!.compile({ $ref: `${id}#${pointer}` });
    validators.set(key, validate);
  }
  if (validate(value)) return [];
  return issuesOf(validate.errors ?? []);
}

/**
 * Every problem ajv finds, one per place: anyOf/oneOf wrappers are dropped in favour of the
 * specific errors under them. An unknown property is reported at the property itself.
 */
export function schemaIssues(schemaFile: string, value: unknown): SchemaIssue[] {
  const validate = validator(schemaFile);
  if (validate(value)) return [];
  return issuesOf(validate.errors ?? []);
}

/** ajv's errors (of any validator) as one issue per place, worded as `schemaIssues` words them. */
export function issuesOf(errors: readonly ErrorObject[]): SchemaIssue[] {
  const seen = new Map<string, SchemaIssue>();
  for (const error of errors) {
    if (error.keyword === "anyOf" || error.keyword === "oneOf" || error.keyword === "if") continue;
    const params = error.params as Record<string, unknown>;
    const pointer =
      error.keyword === "additionalProperties"
        ? `${error.instancePath}/${String(params.additionalProperty).replace(/~/g, "~0").replace(/\//g, "~1")}`
        : error.instancePath;
    const issue = { pointer, message: describe(error) };
    const key = `${pointer}\u0000${issue.message}`;
    if (!seen.has(key)) seen.set(key, issue);
  }
  if (seen.size === 0 && errors.length > 0) seen.set("", { pointer: errors[0].instancePath, message: describe(errors[0]) });
  return [...seen.values()];
}

/** `file: /pointer: message` lines, or `file: message` for the whole document. */
export function formatSchemaIssues(file: string, issues: readonly SchemaIssue[]): string {
  return issues.map((i) => `${file}: ${i.pointer === "" ? "" : `${i.pointer}: `}${i.message}`).join("\n");
}
