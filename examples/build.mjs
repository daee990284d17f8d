// Writes examples/<name>.json, the canvas each example module compiles to (`npm run examples:build`,
// after `npm run build`: the modules import "canvasflow/graph", the built package). With --check
// it writes nothing and exits 1 naming the files that are stale (test/examples runs it).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const EXAMPLES = ["rag-approval", "map-reduce", "tool-loop"];

const folder = fileURLToPath(new URL(".", import.meta.url));

/** The JSON file of an example, as it should be. */
export async function exampleJson(name) {
  const { graph } = await import(`./${name}.mjs`);
  return `${JSON.stringify(graph.dsl, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const stale = [];
  for (const name of EXAMPLES) {
    const path = `${folder}${name}.json`;
    const json = await exampleJson(name);
    let stored;
    try {
      stored = readFileSync(path, "utf8");
    } catch {
      stored = undefined;
    }
    if (stored === json) continue;
    if (check) stale.push(`examples/${name}.json`);
    else {
      writeFileSync(path, json);
      console.log(`wrote examples/${name}.json`);
    }
  }
  if (stale.length > 0) {
    console.error(`stale: ${stale.join(", ")}: run \`npm run examples:build\``);
    process.exit(1);
  }
}
