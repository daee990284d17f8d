/**
 * The ajv instance the DSL checks share (the canvas schema, the run-state schema it refers to,
 * and the params schemas of component types), and how its errors are thinned out.
 */
import Ajv2020Module from "ajv/dist/2020.js";
import type { ErrorObject } from "ajv";
import { loadSchema } from "./schemas.js";

// ajv is CommonJS: under NodeNext its default import is the module object holding the class.
const Ajv2020 = Ajv2020Module.default;
type AjvInstance = InstanceType<typeof Ajv2020>;
let ajvInstance: AjvInstance | undefined;

export function dslAjv(): AjvInstance {
  if (!ajvInstance) {
    ajvInstance = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, verbose: true });
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
