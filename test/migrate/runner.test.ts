/**
 * The runner: ordered steps on a copy, only the ones that detect, errors named by step, and the
 * idempotence guard. Also: migrations-dsl/index.ts lists every step file, in order.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DSL_MIGRATIONS } from "../../migrations-dsl/index.js";
import { MigrationError, type MigrationStep } from "../../src/migrate/types.js";
import { migrateDsl, needsMigration } from "../../src/migrate/runner.js";
import { unsupportedParts } from "../../src/migrate/runner.js";

function step(id: string, detect: (dsl: Record<string, unknown>) => boolean, change: (dsl: Record<string, unknown>) => void): MigrationStep {
  return {
    id,
    description: id,
    detect,
    migrate(dsl) {
      change(dsl);
      return { dsl, notes: [{ step: id, change: `${id} ran`, reason: "test" }] };
    },
  };
}

describe("migrations-dsl/index.ts", () => {
  it("lists every NNN-name.ts step file exactly once, in numeric order, under its file name", () => {
    const files = readdirSync(new URL("../../migrations-dsl/", import.meta.url))
      .filter((f) => /^\d{3}-.+\.ts$/.test(f))
      .sort();
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(DSL_MIGRATIONS.map((s) => `${s.id}.ts`)).toEqual(files);
    for (const s of DSL_MIGRATIONS) expect(s.description.length).toBeGreaterThan(10);
  });
});

describe("migrateDsl", () => {
  const a = step("001-a", (d) => d.version === 1, (d) => (d.version = 2));
  const b = step("002-b", (d) => d.version === 2, (d) => (d.version = 3));

  it("applies the detecting steps in order, each seeing the previous one's output", () => {
    const result = migrateDsl({ version: 1 }, [a, b]);
    expect(result.dsl).toEqual({ version: 3 });
    expect(result.applied).toEqual(["001-a", "002-b"]);
    expect(result.notes.map((n) => n.change)).toEqual(["001-a ran", "002-b ran"]);
  });

  it("skips steps that do not detect, and reports nothing applied for a current DSL", () => {
    expect(migrateDsl({ version: 2 }, [a, b]).applied).toEqual(["002-b"]);
    const current = migrateDsl({ version: 3 }, [a, b]);
    expect(current).toEqual({ dsl: { version: 3 }, notes: [], unsupported: [], applied: [] });
  });

  it("works on a deep copy: the input is never modified", () => {
    const input = { version: 1, nested: { list: [1, 2] } };
    const mutate = step("001-m", (d) => d.version === 1, (d) => {
      (d.nested as { list: number[] }).list.push(3);
      d.version = 9;
    });
    const result = migrateDsl(input, [mutate]);
    expect(input).toEqual({ version: 1, nested: { list: [1, 2] } });
    expect(result.dsl).toEqual({ version: 9, nested: { list: [1, 2, 3] } });
  });

  it("migrates the DSL inside a template envelope and keeps the envelope", () => {
    const envelope = { id: 7, title: "T", dsl: { version: 1 }, avatar: "x" };
    expect(migrateDsl(envelope, [a, b]).dsl).toEqual({ id: 7, title: "T", dsl: { version: 3 }, avatar: "x" });
    expect(needsMigration(envelope, [a])).toBe(true);
    expect(needsMigration({ dsl: { version: 3 }, id: 1 }, [a, b])).toBe(false);
  });

  it("names the step that failed", () => {
    const broken: MigrationStep = { id: "009-broken", description: "x", detect: () => true, migrate: () => { throw new Error("boom"); } };
    expect(() => migrateDsl({}, [broken])).toThrow(new MigrationError("009-broken", "failed: boom"));
  });

  it("refuses a step whose output it would migrate again (not idempotent)", () => {
    const forever = step("001-forever", () => true, (d) => (d.n = ((d.n as number) ?? 0) + 1));
    expect(() => migrateDsl({}, [forever])).toThrow(/001-forever: still recognizes the migrated DSL as old/);
  });

  it("rejects what is not a DSL object", () => {
    expect(() => migrateDsl([] as unknown as object)).toThrow(TypeError);
  });
});

describe("unsupportedParts", () => {
  it("lists the Unsupported components with their original type and reason", () => {
    const dsl = {
      components: {
        begin: { obj: { component_name: "Begin", params: {} } },
        "Jin10:A": { obj: { component_name: "Unsupported", params: { component_name: "Jin10", params: { x: 1 }, reason: "gone" } } },
      },
    };
    expect(unsupportedParts(dsl)).toEqual([{ component: "Jin10:A", componentType: "Jin10", reason: "gone" }]);
  });
});
