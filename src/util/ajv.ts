/**
 * ajv's draft 2020-12 class, loaded when the first schema is compiled: ajv is about a hundred
 * CommonJS files, and importing canvasflow should not pay for them before anything is validated.
 */
import type Ajv2020Module from "ajv/dist/2020.js";
import { lazyPackage } from "./optional-package.js";

export type Ajv2020 = InstanceType<typeof Ajv2020Module.default>;
export type Ajv2020Options = ConstructorParameters<typeof Ajv2020Module.default>[0];

const loadAjv2020 = lazyPackage<typeof Ajv2020Module>("ajv/dist/2020.js", "JSON Schema validation");

/** A new ajv instance for draft 2020-12 schemas. */
export function newAjv2020(options: Ajv2020Options): Ajv2020 {
  // ajv is CommonJS: the module object holds the class as `default`.
  return new (loadAjv2020().default)(options);
}
