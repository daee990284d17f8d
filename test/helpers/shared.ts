/**
 * The workplace's shared folder (the DSL corpus, real clients), read in place and never modified.
 * It lives beside the project root (`../shared`); a clone elsewhere (a clean clone in /tmp for CI)
 * finds it at /work/shared, or where CANVASFLOW_SHARED says.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The candidates, in order (for messages). */
export function sharedCandidates(): string[] {
  return [process.env.CANVASFLOW_SHARED, join(projectRoot, "../shared"), "/work/shared"].filter((candidate): candidate is string => Boolean(candidate));
}

/** The shared folder holding `inner` (e.g. "clients/ragflow-sdk"), or undefined when none does. */
export function sharedFolder(inner: string): string | undefined {
  for (const candidate of sharedCandidates()) if (existsSync(join(candidate, inner))) return candidate;
  return undefined;
}
