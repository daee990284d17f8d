/**
 * Fuzzing of DSL objects as a library caller hands them over (fast-check, fixed seed): what the
 * text fuzz (dsl-mutants.test.ts) cannot make, because JSON text has no such thing. A hole in a
 * list (`delete list[0]`), a key set to undefined, undefined in a list, NaN and Infinity, a Date,
 * a Map, an object without a prototype, a class instance. For every mutant of the corpus and the
 * fixtures:
 * - validateDsl returns a report and never throws;
 * - migrateDsl returns a result or throws MigrationError, never anything else;
 * - loadCanvas of the object loads exactly when validateDsl said valid, and otherwise throws only
 *   CanvasValidationError.
 * A hole is what JSON calls null: a hole and a null at the same place give the same report.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { CanvasValidationError, loadCanvas, validateDsl } from "../../src/api.js";
import { MigrationError } from "../../src/migrate/types.js";
import { migrateDsl } from "../../src/migrate/runner.js";
import { isPlainObject } from "../../src/util/values.js";
import { valueAt, type Path } from "./mutations.js";
import { fileSeeds, type Seed } from "./seeds.js";

const RUNS = Number(process.env.CANVASFLOW_FUZZ_RUNS ?? 2_000);
const SEED = Number(process.env.CANVASFLOW_FUZZ_SEED ?? 20_241_205);


class Point {
  constructor(
    readonly x = 1,
    readonly y = 2,
  ) {}
}

/** What a JavaScript caller can put where JSON would have a value. */
const ODD_VALUES: ReadonlyArray<{ name: string; make: () => unknown }> = [
  { name: "undefined", make: () => undefined },
  { name: "NaN", make: () => NaN },
  { name: "Infinity", make: () => Infinity },
  { name: "-0", make: () => -0 },
  { name: "a Date", make: () => new Date(0) },
  { name: "a Map", make: () => new Map([["a", 1]]) },
  { name: "a Set", make: () => new Set([1]) },
  { name: "an object without a prototype", make: () => Object.assign(Object.create(null) as object, { a: 1 }) },
  { name: "a class instance", make: () => new Point() },
  { name: "a sparse list", make: () => [, "x"] }, // eslint-disable-line no-sparse-arrays
  { name: "a bigint", make: () => 1n },
];

const KINDS = ["hole", "oddValue", "undefinedKey"] as const;

interface ObjectMutation {
  kind: (typeof KINDS)[number];
  target: number;
  variant: number;
}

const mutationArbitrary: fc.Arbitrary<ObjectMutation> = fc.record({ kind: fc.constantFrom(...KINDS), target: fc.nat({ max: 100_000 }), variant: fc.nat({ max: 1_000 }) });

/** Every place in a document, lists and objects both, up to a depth. */
function places(doc: unknown, maxDepth = 10): Path[] {
  const found: Path[] = [];
  const stack: Array<[unknown, Path]> = [[doc, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (path.length > 0) found.push(path);
    if (path.length >= maxDepth || value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) value.forEach((item, i) => stack.push([item, [...path, i]]));
    else if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) stack.push([item, [...path, key]]);
  }
  return found;
}

function parentOf(doc: unknown, path: Path): Record<string | number, unknown> | undefined {
  let value: unknown = doc;
  for (const key of path.slice(0, -1)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value !== null && typeof value === "object" ? (value as Record<string | number, unknown>) : undefined;
}

/** Applies the mutations to a copy of the seed; returns it and what was done. */
function mutateObject(seed: unknown, mutations: readonly ObjectMutation[]): { doc: unknown; description: string[] } {
  const doc = structuredClone(seed);
  const description: string[] = [];
  for (const m of mutations) {
    const all = places(doc);
    const lists = all.filter((p) => Array.isArray(parentOf(doc, p)));
    const pool = m.kind === "hole" ? lists : all;
    if (pool.length === 0) {
      description.push(`${m.kind}: no place`);
      continue;
    }
    const path = pool[m.target % pool.length];
    const parent = parentOf(doc, path)!;
    const key = path.at(-1)!;
    if (m.kind === "hole") {
      delete parent[key];
      description.push(`delete ${JSON.stringify(path)} (a hole)`);
    } else if (m.kind === "undefinedKey") {
      parent[key] = undefined;
      description.push(`set ${JSON.stringify(path)} to undefined`);
    } else {
      const odd = ODD_VALUES[m.variant % ODD_VALUES.length];
      parent[key] = odd.make();
      description.push(`set ${JSON.stringify(path)} to ${odd.name}`);
    }
  }
  return { doc, description };
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${(error.stack ?? "").split("\n").slice(1, 6).join("\n")}` : String(error);
}

describe(`DSL objects a library caller hands over (seed ${SEED}, ${RUNS} mutants)`, () => {
  let seeds: Seed[] = [];
  beforeAll(() => {
    seeds = fileSeeds();
  });

  it("a hole in a list reads as null: validateDsl, migrateDsl and loadCanvas do not throw on it", async () => {
    const corpus = seeds.find((s) => s.name.includes("legacy-v0.19.1")) ?? seeds[0];
    const withHole = structuredClone(corpus.doc) as Record<string, unknown>;
    const withNull = structuredClone(corpus.doc) as Record<string, unknown>;
    // The first list anywhere in the document gets a hole at 0, the other copy a null there.
    const list = places(withHole).find((p) => Array.isArray(valueAt(withHole, p)) && (valueAt(withHole, p) as unknown[]).length > 0)!;
    expect(list).toBeDefined();
    delete (valueAt(withHole, list) as unknown[])[0];
    (valueAt(withNull, list) as unknown[])[0] = null;
    const holeReport = validateDsl(withHole);
    expect(holeReport).toEqual(validateDsl(withNull));
    expect(() => migrateDsl(withHole)).not.toThrow(TypeError);
  });

  it("never throw anything but their own errors on mutated objects", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 10_000 }), fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 }), async (seedIndex, mutations) => {
        const seed = seeds[seedIndex % seeds.length];
        const { doc, description } = mutateObject(seed.doc, mutations);
        const where = `\n  seed: ${seed.name}\n  mutations:\n${description.map((d) => `    - ${d}`).join("\n")}`;
        let valid: boolean;
        try {
          valid = validateDsl(doc as object).valid;
        } catch (error) {
          throw new Error(`validateDsl threw ${describeError(error)}${where}`);
        }
        try {
          if (isPlainObject(doc)) migrateDsl(doc);
        } catch (error) {
          if (!(error instanceof MigrationError)) throw new Error(`migrateDsl threw ${describeError(error)}${where}`);
        }
        let loaded = false;
        try {
          await loadCanvas(doc as object);
          loaded = true;
        } catch (error) {
          if (!(error instanceof CanvasValidationError)) throw new Error(`loadCanvas threw ${describeError(error)}${where}`);
        }
        if (loaded !== valid) throw new Error(`validateDsl said valid=${valid} but loadCanvas ${loaded ? "loaded it" : "refused it"}${where}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 300_000);
});

