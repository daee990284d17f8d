/**
 * The validation code of the built-in schemas (schemas/compiled/, see compile-schemas.ts),
 * loaded one schema at a time when a canvas first needs it. A schema without compiled code
 * (a custom component's) is compiled by ajv instead.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import { compiledSchemaPath } from "./schemas.js";

const require = createRequire(import.meta.url);
const loaded = new Map<string, ValidateFunction | undefined>();

/** The compiled validator of `schemas/<relative>`, if it has one. */
export function compiledValidator(relative: string): ValidateFunction | undefined {
  if (loaded.has(relative)) return loaded.get(relative);
  const file = compiledSchemaPath(relative);
  const validate = existsSync(file) ? (require(file) as { default: ValidateFunction }).default : undefined;
  loaded.set(relative, validate);
  return validate;
}
