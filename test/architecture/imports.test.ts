/**
 * The package's own modules never import its barrel (src/index.ts): the barrel exports the
 * server, so a module that imports it loads the server and closes an import circle with it
 * (issue 25). The contracts (src/contracts/) are a leaf: they import each other and the reference
 * grammar's types (src/refs/, which imports nothing outside itself), nothing else. Import circles
 * in general, type-only imports included, are checked by `npm run check:imports` (madge), which
 * `npm test` runs first.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve("src");
const BARREL = join(SRC, "index.ts");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The relative specifiers a module imports or re-exports, statically or with import(). */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.[^"']*)["']/g)) found.push(match[1]);
  return found;
}

describe("imports inside src/", () => {
  it("no module imports the package barrel", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file === BARREL) continue;
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        if (resolve(dirname(file), spec.replace(/\.js$/, ".ts")) === BARREL) offenders.push(`${relative(SRC, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the contracts import only contracts and the reference grammar, which imports nothing outside itself", () => {
    const leaves: Record<string, string[]> = { contracts: ["contracts", "refs"], refs: ["refs"] };
    const offenders: string[] = [];
    for (const [folder, allowed] of Object.entries(leaves)) {
      for (const file of sourceFiles(join(SRC, folder))) {
        for (const spec of specifiers(readFileSync(file, "utf8"))) {
          const target = relative(SRC, resolve(dirname(file), spec)).split(/[\\/]/)[0];
          if (!allowed.includes(target)) offenders.push(`${relative(SRC, file)} imports ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("canvasflow/graph stays out of the core, and imports no server, queue or driver", () => {
    const graphDir = join(SRC, "graph");
    const inGraph = (file: string) => file.startsWith(graphDir + "/");
    const outsiders = sourceFiles(SRC).filter((file) => !inGraph(file)).flatMap((file) =>
      specifiers(readFileSync(file, "utf8")).filter((spec) => inGraph(resolve(dirname(file), spec))).map((spec) => `${relative(SRC, file)} imports ${spec}`),
    );
    expect(outsiders).toEqual([]);
    // Every module src/graph/ loads, directly or through others, and none in a role's folder.
    const seen = new Set<string>();
    const queue = sourceFiles(graphDir);
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const spec of specifiers(readFileSync(file, "utf8"))) queue.push(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
    }
    // The core's own modules (api.ts and what it loads) are allowed; the roles and the drivers' backends are not.
    const roles = /^(server|worker|cli|backends\/(redis|postgres|sqlite))\/|^index\.ts$/;
    const loaded = [...seen].map((file) => relative(SRC, file).split("\\").join("/"));
    expect(loaded).toContain("api.ts");
    expect(loaded.filter((file) => roles.test(file))).toEqual([]);
  });

  it("the check sees an import of the barrel", () => {
    expect(specifiers('import { a } from "../index.js";\nconst m = await import("../../index.js");\nexport * from "./x.js";')).toEqual(["../index.js", "../../index.js", "./x.js"]);
  });
});
