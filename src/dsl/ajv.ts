/**
 * The ajv instance the DSL checks share (the canvas schema, the run-state schema it refers to,
 * and the params schemas of component types), and how its errors are thinned out.
 */
import type { ErrorObject } from "ajv";
import { newAjv2020, type Ajv2020 } from "../util/ajv.js";
import { loadSchema } from "./schemas.js";

export type AjvInstance = Ajv2020;

/** The options of the DSL checks' ajv, shared with the compiler of schemas/compiled/ (compile-schemas.ts). */
export const DSL_AJV_OPTIONS = { allErrors: true, strict: false, allowUnionTypes: true, verbose: true } as const;

let ajvInstance: AjvInstance | undefined;

export function dslAjv(): AjvInstance {
  if (!ajvInstance) {
    ajvInstance = newAjv2020(DSL_AJV_OPTIONS);
    ajvInstance.addSchema(loadSchema("run-state.schema.json"));
  }
  return ajvInstance;
}

/** Collapse ajv's anyOf/oneOf noise: keep the most specific error per instance path. */
export function significantErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const byPath = new Map<string, ErrorObject>();
  for (const error of errors) {
    if (error.keyword === "anyOf" || error.keyword === "oneOf" || error.keyword === "if") continue;
    if (!byPath.has(error.instancePath)) byPath.set(error.instancePath, error);
  }
  if (byPath.size === 0 && errors.length > 0) byPath.set(errors[0].instancePath, errors[0]);
  return [...byPath.values()];
}
