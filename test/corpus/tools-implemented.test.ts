/**
 * Issue 13's acceptance: across the RAGFlow corpus (old DSLs migrated as `canvasflow validate`
 * migrates them), no tool is left "needs a tool provider": every tool type a canvas uses, as a
 * node or as an Agent's tool, has an implementation. Each is called with no services and a
 * cancelled run: whatever it then says (empty output, a missing key, the cancellation), it must
 * not be the missing-provider error.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { builtinRegistry, BUILTIN_COMPONENTS } from "../../src/components/builtins.js";
import { ProviderMissingError } from "../../src/components/needs-provider.js";
import { migrateDsl, needsMigration } from "../../src/migrate/index.js";
import { corpusFiles, corpusPath } from "../helpers/corpus.js";

/** Every component_name in a DSL (nodes, Agent tools, sub-agents' tools). */
function componentNames(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) componentNames(item, out);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "component_name" && typeof inner === "string") out.add(inner);
      else componentNames(inner, out);
    }
  }
  return out;
}

function corpusToolTypes(): string[] {
  const names = new Set<string>();
  for (const file of corpusFiles("ragflow")) {
    let dsl: unknown = JSON.parse(readFileSync(corpusPath("ragflow", file), "utf8"));
    if (needsMigration(dsl as object)) {
      try {
        dsl = migrateDsl(dsl as object).dsl;
      } catch {
        continue; // not a canvas (a fixture of something else); validate reports it
      }
    }
    componentNames(dsl, names);
  }
  const registry = builtinRegistry();
  return [...names].filter((name) => registry.get(name)?.tool !== undefined).sort();
}

describe("the corpus's tools, and every built-in tool, have an implementation", () => {
  const inCorpus = corpusToolTypes();
  const builtIn = BUILTIN_COMPONENTS.filter((def) => def.tool !== undefined).map((def) => def.name);
  const tools = [...new Set([...inCorpus, ...builtIn])].sort();

  it("covers the corpus's tools and the ones the issue added", () => {
    for (const name of ["Retrieval", "TavilySearch", "PubMed", "AkShare", "WenCai", "QWeather"]) expect(inCorpus).toContain(name);
    const added = ["Email", "ArXiv", "GoogleScholar", "GitHub", "SearXNG", "KeenableSearch", "QueritSearch", "QueritContents", "BGPT", "Crawler", "DeepL"];
    for (const name of added) expect(tools).toContain(name);
    // Canvas-only components (no Agent tool binding): their runs are tested in files-tools and browser tests.
    for (const name of ["DocGenerator", "ExcelProcessor", "Browser"]) expect(builtinRegistry().get(name)).toBeDefined();
  });

  it.each(tools)("%s does not need a tool provider", async (name) => {
    const def = builtinRegistry().get(name)!;
    const controller = new AbortController();
    controller.abort(new Error("cancelled by the test"));
    const params = { ...def.defaults };
    let error: unknown;
    try {
      await def.tool!.run({}, { signal: controller.signal, services: {}, params, label: `test → ${name}`, addReferences: () => {}, addUsage: () => {} });
    } catch (caught) {
      error = caught;
    }
    expect(error).not.toBeInstanceOf(ProviderMissingError);
    if (error instanceof Error) expect(error.message).not.toContain("needs a tool provider");
  });
});
