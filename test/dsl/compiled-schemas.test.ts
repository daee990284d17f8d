import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compiledSchemaFiles, compiledSchemaPath, compileSchemaSource } from "../../src/dsl/compile-schemas.js";
import { compiledValidator } from "../../src/dsl/compiled-validators.js";
import { dslAjv } from "../../src/dsl/ajv.js";
import { loadSchema, packageRoot } from "../../src/dsl/schemas.js";

describe("schemas/compiled/", () => {
  it("holds, for every DSL schema, exactly the code ajv compiles from it today (else run `npm run schemas:compile`)", () => {
    for (const relative of compiledSchemaFiles()) {
      const stored = readFileSync(compiledSchemaPath(relative), "utf8");
      expect(stored === compileSchemaSource(relative), `schemas/compiled/ is stale for schemas/${relative}: run \`npm run schemas:compile\``).toBe(true);
    }
  });

  it("holds nothing for a schema that is gone", () => {
    const expected = new Set(compiledSchemaFiles().map((relative) => compiledSchemaPath(relative)));
    const root = join(packageRoot(), "schemas", "compiled");
    const stored = [...readdirSync(root).filter((f) => f.endsWith(".cjs")).map((f) => join(root, f)), ...readdirSync(join(root, "components")).map((f) => join(root, "components", f))];
    expect(stored.filter((file) => !expected.has(file))).toEqual([]);
  });

  it("finds the same errors as ajv compiling the schema at run time", () => {
    const samples: unknown[] = [
      {},
      { components: [] },
      { components: { begin: { obj: { component_name: 7, params: "x" }, downstream: "a" } }, history: {}, path: [1] },
      { components: { begin: { obj: { component_name: "Begin", params: {} }, downstream: [], upstream: [] } }, canvasflow: { version: "x", pending: 3 } },
    ];
    const compiled = compiledValidator("canvas.schema.json")!;
    const runtime = dslAjv().compile(structuredClone(loadSchema("canvas.schema.json")));
    for (const sample of samples) {
      expect(compiled(sample)).toBe(runtime(sample));
      const strip = (errors: typeof compiled.errors) => (errors ?? []).map(({ instancePath, schemaPath, keyword, params, message }) => ({ instancePath, schemaPath, keyword, params, message }));
      expect(strip(compiled.errors)).toEqual(strip(runtime.errors));
    }
  });
});
