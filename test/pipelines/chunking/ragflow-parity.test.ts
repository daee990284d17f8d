/**
 * RAGFlow's own chunker parity cases (internal/ingestion/component/chunker/testdata/parity,
 * test/fixtures/ragflow-parity/README.md): every case runs through our TokenChunker or
 * TitleChunker and must give, serialized as RAGFlow's capture script writes it
 * (`json.dumps(..., ensure_ascii=False, sort_keys=True, indent=1) + "\n"`), the golden file byte
 * for byte. The goldens were captured from the Python chunkers.
 *
 * known_diffs.json lists divergences of RAGFlow's Go port from Python; none is a Python
 * behaviour, so no case is skipped (the test checks that every rule still names Go).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTitleChunkerParams, checkTokenChunkerParams, titleChunk, tokenChunk } from "../../../src/pipelines/chunking/chunkers.js";
import type { Payload } from "../../../src/pipelines/payload.js";

const DIR = join(import.meta.dirname, "../../fixtures/ragflow-parity");

interface ParityCase {
  id: string;
  component: "TokenChunker" | "TitleChunker" | "GroupTitleChunker" | "HierarchyTitleChunker";
  param: Record<string, unknown>;
  input: Payload;
}

/** Python's `json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1)`. */
function pythonJson(value: unknown, level = 0): string {
  const pad = (n: number) => " ".repeat(n);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => pad(level + 1) + pythonJson(v, level + 1)).join(",\n")}\n${pad(level)}]`;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    if (keys.length === 0) return "{}";
    return `{\n${keys.map((k) => `${pad(level + 1)}${JSON.stringify(k)}: ${pythonJson((value as Record<string, unknown>)[k], level + 1)}`).join(",\n")}\n${pad(level)}}`;
  }
  if (typeof value === "number" && !Number.isInteger(value)) throw new Error(`a float (${value}) would print differently in Python`);
  return JSON.stringify(value);
}

async function run(c: ParityCase) {
  const notes: string[] = [];
  const progress = (note: { message: string }) => notes.push(note.message);
  if (c.component === "TokenChunker") return { chunks: await tokenChunk(checkTokenChunkerParams(c.param), c.input, progress), notes };
  const method = c.component === "GroupTitleChunker" ? "group" : c.component === "HierarchyTitleChunker" ? "hierarchy" : undefined;
  const params = checkTitleChunkerParams(method ? { ...c.param, method } : c.param);
  return { chunks: await titleChunk(params, c.input, progress), notes };
}

const cases = readdirSync(join(DIR, "cases"))
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(DIR, "cases", f), "utf8")) as ParityCase);

describe("RAGFlow's chunker parity cases", () => {
  it("has the cases and a golden for each", () => {
    expect(cases.length).toBe(24);
    for (const c of cases) expect(readdirSync(join(DIR, "golden"))).toContain(`${c.id}.json`);
  });

  it("known_diffs.json holds only divergences of the Go port, so every case must match", () => {
    const rules = (JSON.parse(readFileSync(join(DIR, "known_diffs.json"), "utf8")) as { rules: Array<{ id: string; tag: string; owner_fix_side?: string }> }).rules;
    for (const rule of rules) expect(rule.tag.startsWith("go_") || rule.owner_fix_side === "python", rule.id).toBe(true);
    // Rules owned by the Python side describe Go's hard cap, which Python (and this port) does not have.
    expect(rules.filter((r) => r.owner_fix_side === "python").every((r) => r.tag === "go_intentional")).toBe(true);
  });

  for (const c of cases) {
    it(c.id, async () => {
      const { chunks, notes } = await run(c);
      const golden = readFileSync(join(DIR, "golden", `${c.id}.json`), "utf8");
      expect(pythonJson({ case_id: c.id, chunks }) + "\n").toBe(golden);
      expect(notes.at(-1)).toBe("Done.");
    });
  }
});
