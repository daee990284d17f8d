// Bundles the built modules (dist/src) into dist/bundle: one file per package entry and the CLI,
// plus the chunks they share and the chunks loaded on first use. Node loads the core as a few
// files instead of about 240 modules: importing canvasflow took about twice the CPU unbundled.
// Packages stay external (they are loaded from node_modules, on first use where the code says).
// Every entry is bundled in one build, so that the entries share one copy of each module.
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const entries = Object.values(pkg.exports)
  .filter((target) => typeof target === "object" && typeof target.import === "string")
  .map((target) => target.import.replace("./dist/bundle/", "dist/src/"));
entries.push(pkg.bin.canvasflow.replace("dist/bundle/", "dist/src/"));

rmSync(new URL("../dist/bundle", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: entries,
  outdir: "dist/bundle",
  outbase: "dist/src",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // Class and function names stay what the code calls them (errors and components are named by them).
  keepNames: true,
  logLevel: "warning",
});
