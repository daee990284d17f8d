// Writes schemas/compiled/ from schemas/ (see src/dsl/compile-schemas.ts). Run after editing a
// DSL schema: `npm run schemas:compile` (it builds first).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { compiledSchemaFiles, compiledSchemaPath, compileSchemaSource } from "../dist/src/dsl/compile-schemas.js";

const files = compiledSchemaFiles();
for (const relative of files) {
  const target = compiledSchemaPath(relative);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, compileSchemaSource(relative));
}
console.log(`compiled ${files.length} schemas into schemas/compiled/`);
