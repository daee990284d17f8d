/**
 * The shared DSL corpus (real RAGFlow and Dify exports), read in place and never modified.
 * It lives beside the project root (`../shared/dsl-corpus`); CANVASFLOW_DSL_CORPUS overrides that.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { sharedCandidates } from "./shared.js";

export function corpusRoot(): string {
  const candidates = [process.env.CANVASFLOW_DSL_CORPUS, ...sharedCandidates().map((shared) => join(shared, "dsl-corpus"))];
  for (const candidate of candidates) if (candidate && existsSync(join(candidate, "ragflow"))) return candidate;
  throw new Error(
    `the DSL corpus was not found (looked in ${candidates.filter(Boolean).join(", ")}); ` +
      "clone the project beside shared/ or set CANVASFLOW_DSL_CORPUS",
  );
}

/** Every file ending in `ext` (.json unless told) under a corpus folder, recursively, as paths relative to that folder. */
export function corpusFiles(folder: string, ext = ".json"): string[] {
  const base = join(corpusRoot(), folder);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(ext)) out.push(relative(base, full));
    }
  };
  walk(base);
  return out;
}

export function corpusPath(folder: string, file: string): string {
  return join(corpusRoot(), folder, file);
}
