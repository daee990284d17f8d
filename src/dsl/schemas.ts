/**
 * The JSON Schemas in `schemas/` (one source of truth for editors, other tools and our ajv).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonSchema } from "../components/types.js";

let root: string | undefined;

/** The package root (holds `schemas/`), found from this module whether it runs from src/ or dist/. */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "schemas", "canvas.schema.json")) && existsSync(join(dir, "package.json"))) {
      root = dir;
      return dir;
    }
    dir = dirname(dir);
  }
  throw new Error("canvasflow: cannot find the package's schemas/ folder");
}

const cache = new Map<string, JsonSchema>();
const files = new WeakMap<JsonSchema, string>();

/** Load `schemas/<relative>` (cached). */
export function loadSchema(relative: string): JsonSchema {
  const hit = cache.get(relative);
  if (hit) return hit;
  const schema = JSON.parse(readFileSync(join(packageRoot(), "schemas", relative), "utf8")) as JsonSchema;
  cache.set(relative, schema);
  files.set(schema, relative);
  return schema;
}

/** The file under `schemas/` a schema object was loaded from (undefined for a custom component's own). */
export function schemaFileOf(schema: JsonSchema): string | undefined {
  return files.get(schema);
}

/** Where the validation code of `schemas/<relative>` is kept (dsl/compile-schemas.ts writes it). */
export function compiledSchemaPath(relative: string): string {
  return join(packageRoot(), "schemas", "compiled", relative.replace(/\.schema\.json$/, ".cjs"));
}

/** The params schema of a built-in component: `schemas/components/<Name>.schema.json`. */
export function componentSchema(componentName: string): JsonSchema {
  return loadSchema(`components/${componentName}.schema.json`);
}
