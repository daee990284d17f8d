/**
 * What the fuzz test mutates: the RAGFlow corpus (HEAD and v0.19.1, read in place), our own
 * fixtures, and snapshots of the fixtures after one turn (so the run state is mutated too).
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCanvas } from "../../src/api.js";
import type { CanvasRuntimeOptions } from "../../src/engine/canvas.js";
import { corpusFiles, corpusPath } from "../helpers/corpus.js";

export interface Seed {
  name: string;
  doc: unknown;
}

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../../fixtures");

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Every corpus DSL under ragflow/head and ragflow/legacy-v0.19.1, and fixtures/*.json. */
export function fileSeeds(): Seed[] {
  const seeds: Seed[] = [];
  for (const folder of ["ragflow/head", "ragflow/legacy-v0.19.1"]) {
    for (const file of corpusFiles(folder)) seeds.push({ name: `${folder}/${file}`, doc: readJson(corpusPath(folder, file)) });
  }
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith(".json")).sort()) {
    seeds.push({ name: `fixtures/${file}`, doc: readJson(join(FIXTURES, file)) });
  }
  return seeds;
}

/**
 * Each fixture after one turn, as `canvas.toJSON()` saves it (a paused one keeps its pending
 * input): run state, history and globals to mutate.
 */
export async function snapshotSeeds(options: CanvasRuntimeOptions): Promise<Seed[]> {
  const seeds: Seed[] = [];
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith(".json")).sort()) {
    const canvas = await loadCanvas(join(FIXTURES, file), options);
    await canvas.runToEnd({ query: "fuzz" });
    seeds.push({ name: `snapshot of fixtures/${file} (${canvas.status})`, doc: JSON.parse(JSON.stringify(canvas.toJSON())) });
  }
  return seeds;
}
