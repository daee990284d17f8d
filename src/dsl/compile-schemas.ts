/**
 * The DSL's JSON Schemas compiled ahead of time into validation code (ajv's standalone code),
 * so that checking a canvas loads neither ajv nor its code generator: compiling the canvas
 * schema took longer than the rest of `canvasflow run` on a small canvas. The code is written
 * to `schemas/compiled/` by `npm run schemas:compile` and checked against the schemas by
 * test/dsl/compiled-schemas.test.ts, so it never drifts from them.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type StandaloneModule from "ajv/dist/standalone/index.js";
import { newAjv2020 } from "../util/ajv.js";
import { lazyPackage } from "../util/optional-package.js";
import { DSL_AJV_OPTIONS } from "./ajv.js";
import { loadSchema, packageRoot } from "./schemas.js";

export { compiledSchemaPath } from "./schemas.js";

const standalone = lazyPackage<typeof StandaloneModule>("ajv/dist/standalone/index.js", "compiling the DSL's schemas");

/** The schemas compiled ahead of time: the canvas and every built-in component's params. */
export function compiledSchemaFiles(): string[] {
  const components = readdirSync(join(packageRoot(), "schemas", "components")).filter((name) => name.endsWith(".schema.json")).sort();
  return ["canvas.schema.json", ...components.map((name) => `components/${name}`)];
}

/** The CommonJS validation code of one schema, as the DSL checks' ajv would compile it. */
export function compileSchemaSource(relative: string): string {
  const ajv = newAjv2020({ ...DSL_AJV_OPTIONS, code: { source: true, lines: true } });
  ajv.addSchema(loadSchema("run-state.schema.json"));
  const validate = ajv.compile(structuredClone(loadSchema(relative)));
  return `// Generated from schemas/${relative} by \`npm run schemas:compile\`; do not edit.\n${standalone().default(ajv, validate)}\n`;
}
