/**
 * Every legacy and graph-only DSL of the shared corpus migrates to a canvas that validates, runs,
 * and is left alone by a second migration. Property tests check idempotence over generated
 * variants of the corpus (subsets of components, renamed ids).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCanvas, validateDsl } from "../../src/api.js";
import { migrateDsl } from "../../src/migrate/runner.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { corpusFiles, corpusPath } from "../helpers/corpus.js";
import { errors } from "../helpers/dsl.js";
import { fakeProviderRegistry } from "../helpers/fake-providers.js";

const LEGACY = "ragflow/legacy-v0.19.1";
const HEAD_FIXTURES = "ragflow/head/fixtures";
const GRAPH_ONLY = ["dfx_picture_parser", "questions_category", "subaget", "switch"].map((n) => `internal-agent-dsl-testdata/${n}.json`);
/** The two v0.19 canvases RAGFlow still ships as test data. */
const HEAD_LEGACY = ["agent-test-dsl_examples/exesql.json", "agent-test-dsl_examples/headhunter_zh.json"];

const legacyFiles = corpusFiles(LEGACY);
const templates = legacyFiles.filter((f) => !f.includes("/"));

interface Case {
  label: string;
  path: string;
  kind: "legacy" | "graph-only";
}
const cases: Case[] = [
  ...legacyFiles.map((f) => ({ label: `legacy ${f}`, path: corpusPath(LEGACY, f), kind: "legacy" as const })),
  ...HEAD_LEGACY.map((f) => ({ label: `head ${f}`, path: corpusPath(HEAD_FIXTURES, f), kind: "legacy" as const })),
  ...GRAPH_ONLY.map((f) => ({ label: `graph-only ${f.split("/")[1]}`, path: corpusPath(HEAD_FIXTURES, f), kind: "graph-only" as const })),
];

/**
 * The only error left after migration: RAGFlow's own rule that its database cannot be queried.
 * v0.19 refused to load these two fixtures for the same reason (ExeSQLParam.check).
 */
const EXPECTED_ERRORS: Record<string, string> = {
  "legacy fixtures/agent-test-dsl_examples/exesql.json": "database rag_flow of a RAGFlow installation cannot be queried",
  "head agent-test-dsl_examples/exesql.json": "database rag_flow of a RAGFlow installation cannot be queried",
};

function read(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

function bare(dsl: Record<string, unknown>): Record<string, unknown> {
  return (dsl.components === undefined && typeof dsl.dsl === "object" ? dsl.dsl : dsl) as Record<string, unknown>;
}

describe("the migration corpus", () => {
  it("holds the 25 v0.19.1 files (11 templates) and the 4 graph-only fixtures", () => {
    expect(legacyFiles).toHaveLength(25);
    expect(templates).toHaveLength(11);
    expect(cases).toHaveLength(31);
  });

  it.each(cases)("$label migrates, validates, and is then already current", ({ label, path, kind }) => {
    const input = read(path);
    const before = JSON.stringify(input);
    expect(validateDsl(input).kind).toBe(kind);

    const result = migrateDsl(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(result.applied.length).toBeGreaterThan(0);
    expect(result.unsupported).toEqual([]);
    for (const note of result.notes) {
      expect(note.change.length).toBeGreaterThan(0);
      expect(note.reason.length).toBeGreaterThan(0);
      expect(result.applied).toContain(note.step);
    }

    const report = validateDsl(result.dsl);
    expect(report.kind).toBe("agent");
    const expected = EXPECTED_ERRORS[label];
    expect(errors(report.issues).map((i) => i.message)).toEqual(expected ? [expect.stringContaining(expected)] : []);

    const again = migrateDsl(result.dsl);
    expect(again.applied).toEqual([]);
    expect(again.notes).toEqual([]);
    expect(again.dsl).toEqual(result.dsl);
  });

  it.each(templates)("the template %s keeps its envelope and converts every v0.19 component", (file) => {
    const input = read(corpusPath(LEGACY, file));
    const { dsl } = migrateDsl(input);
    expect(Object.keys(dsl).filter((k) => k !== "dsl")).toEqual(Object.keys(input).filter((k) => k !== "dsl"));
    const inner = bare(dsl);
    const names = Object.values(inner.components as Record<string, { obj: { component_name: string } }>).map((c) => c.obj.component_name);
    for (const legacy of ["Answer", "Generate", "Relevant", "RewriteQuestion", "KeywordExtract", "Concentrator", "Template", "Baidu"]) expect(names).not.toContain(legacy);
    expect(inner.path).toEqual([]);
    for (const key of ["answer", "reference", "embed_id"]) expect(inner).not.toHaveProperty(key);
    expect(inner).toMatchObject({ retrieval: [], memory: [], globals: expect.objectContaining({ "sys.query": "" }) });
    // The editor graph describes exactly the components that run.
    const graph = inner.graph as { nodes: Array<{ id: string; data: { label: string } }> };
    const componentIds = Object.keys(inner.components as object).sort();
    expect(graph.nodes.filter((n) => n.data.label !== "Note").map((n) => n.id).sort()).toEqual(componentIds);
  });
});

/** Corpus files whose flow is broken in v0.19 already: the migration keeps (and notes) what they do. */
const BROKEN = {
  // wikipedia:0 leads to generate:0, which does not exist (v0.19 failed on it); generate:1 is never reached.
  dangling: "legacy fixtures/agent-test-dsl_examples/keyword_wikipedia_and_generate.json",
  // Relevant "no" → rewrite → retrieval → Relevant again: v0.19 stopped this loop after 6 rounds ("Too much loops").
  loop: "legacy fixtures/agent-test-dsl_examples/retrieval_relevant_rewrite_and_generate.json",
};

async function firstTurn(path: string, query: string, maxSteps?: number): Promise<CanvasEvent[]> {
  const { dsl } = migrateDsl(read(path));
  const canvas = await loadCanvas(dsl, { registry: fakeProviderRegistry(), ...(maxSteps ? { maxSteps } : {}) });
  return canvas.runToEnd({ query });
}

function lastFinished(events: readonly CanvasEvent[]): { error?: string } {
  const last = events.at(-1);
  if (last?.event !== "workflow_finished") throw new Error(`the run ended with ${last?.event ?? "nothing"}`);
  return last.data;
}

describe("migrated corpus canvases run", () => {
  const runnable = cases.filter((c) => !EXPECTED_ERRORS[c.label] && !Object.values(BROKEN).includes(c.label));

  it.each(runnable)("$label answers a first message", async ({ path }) => {
    const events = await firstTurn(path, "hello");
    const last = events.at(-1)!;
    expect(["workflow_finished", "user_inputs"]).toContain(last.event);
    if (last.event === "workflow_finished") expect(last.data.error).toBeUndefined();
    expect(events.some((e) => e.event === "message")).toBe(true);
  });

  it("keeps the dangling edge of keyword_wikipedia_and_generate: the run ends after wikipedia:0, silently as the edge leads nowhere", async () => {
    const path = cases.find((c) => c.label === BROKEN.dangling)!.path;
    const { notes } = migrateDsl(read(path));
    expect(notes).toContainEqual(expect.objectContaining({ component: "wikipedia:0", change: "dropped the downstream generate:0" }));
    const events = await firstTurn(path, "hello");
    expect(lastFinished(events).error).toBeUndefined();
    expect(events.some((e) => e.event === "message")).toBe(false);
  });

  it("keeps the rewrite loop of retrieval_relevant_rewrite_and_generate: it ends when Relevant says yes, or as a runaway", async () => {
    const path = cases.find((c) => c.label === BROKEN.loop)!.path;
    const runaway = await firstTurn(path, "hello", 60);
    expect(lastFinished(runaway).error).toContain("exceeded 60 component steps");
    // The fake grader's answer holds the question, so "yes" in the question makes the documents relevant.
    const relevant = await firstTurn(path, "yes");
    expect(lastFinished(relevant).error).toBeUndefined();
    expect(relevant.some((e) => e.event === "message")).toBe(true);
  });
});

/** The components of a bare DSL with only `keep` ids left, and references to the others dropped from downstream lists. */
function subset(dsl: Record<string, unknown>, keep: ReadonlySet<string>): Record<string, unknown> {
  const components = dsl.components as Record<string, { downstream?: string[]; upstream?: string[] }>;
  const next: Record<string, unknown> = {};
  for (const [id, entry] of Object.entries(components)) {
    if (!keep.has(id)) continue;
    next[id] = { ...entry, downstream: (entry.downstream ?? []).filter((d) => keep.has(d)), upstream: (entry.upstream ?? []).filter((u) => keep.has(u)) };
  }
  return { ...dsl, components: next };
}

/** Rename one component id everywhere it appears as a whole string or inside a reference. */
function renameId(dsl: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const text = JSON.stringify(dsl);
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return JSON.parse(text.replace(new RegExp(`(?<=["{])${escaped}(?=["}@])`, "g"), to)) as Record<string, unknown>;
}

describe("migration is idempotent (property)", () => {
  const corpus = cases.map((c) => bare(read(c.path)));
  const legacyOnly = corpus.filter((d) => d.components !== undefined);

  it("on generated subsets of the corpus canvases", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...legacyOnly),
        fc.infiniteStream(fc.boolean()),
        (dsl, coin) => {
          const ids = Object.keys(dsl.components as object);
          const keep = new Set(ids.filter((id) => id === "begin" || coin.next().value));
          const variant = subset(dsl, keep);
          const once = migrateDsl(variant);
          const twice = migrateDsl(once.dsl);
          expect(twice.applied).toEqual([]);
          expect(twice.dsl).toEqual(once.dsl);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("on corpus canvases with renamed component ids", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...corpus),
        fc.nat(),
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/),
        (dsl, pick, suffix) => {
          const ids = Object.keys((dsl.components ?? {}) as object).filter((id) => id !== "begin");
          const variant = ids.length > 0 ? renameId(dsl, ids[pick % ids.length], `Renamed:${suffix}`) : dsl;
          const once = migrateDsl(variant);
          const twice = migrateDsl(once.dsl);
          expect(twice.applied).toEqual([]);
          expect(twice.dsl).toEqual(once.dsl);
          expect(errors(validateDsl(once.dsl).issues).filter((i) => i.code === "unknown-reference")).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
