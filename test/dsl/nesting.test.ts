/**
 * Deeply nested DSLs: the depth is checked without recursion before anything walks the DSL, so
 * a DSL nested thousands of levels deep gets a validation error naming where, never a RangeError.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CanvasValidationError, loadCanvas, validateDsl } from "../../src/api.js";
import { MAX_DSL_DEPTH } from "../../src/dsl/structure.js";
import { migrateDsl } from "../../src/migrate/runner.js";
import { MigrationError } from "../../src/migrate/types.js";
import { cli } from "../helpers/cli.js";
import { canvasDsl, errors, node } from "../helpers/dsl.js";
import { scratchDir } from "../helpers/scratch.js";

const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

/** JSON text of `{"a":{"a":…leaf…}}`, `levels` objects deep, built without recursion (JSON.stringify would overflow). */
function nestedText(levels: number, leaf: string): string {
  return `${'{"a":'.repeat(levels)}${leaf}${"}".repeat(levels)}`;
}

/** Canvas JSON text whose Message has a param `extra` holding `extraText`. */
function canvasText(extraText: string, componentName = "Message"): string {
  const dsl = canvasDsl({
    begin: node("Begin", {}, ["Message:A"]),
    "Message:A": node(componentName, { content: ["hi {sys.query}"], extra: "EXTRA" }),
  });
  return JSON.stringify(dsl).replace('"EXTRA"', extraText);
}

/** `/a` repeated: the pointer below `extra` to the first object past the limit. */
function pastTheLimit(levelOfExtra: number): string {
  return "/a".repeat(MAX_DSL_DEPTH + 1 - levelOfExtra);
}

// root (1) → components (2) → Message:A (3) → obj (4) → params (5) → extra (6)
const EXTRA_LEVEL = 6;
const EXTRA = "/components/Message:A/obj/params/extra";

describe("a DSL nested deeper than the limit", () => {
  const deep = canvasText(nestedText(5124, '"{Nobody@x} {sys.query}"'));

  it("gets a validation error at the first object past the limit, not a RangeError", () => {
    const report = validateDsl(JSON.parse(deep) as object);
    expect(errors(report.issues)).toEqual([
      expect.objectContaining({
        code: "too-deep",
        pointer: `${EXTRA}${pastTheLimit(EXTRA_LEVEL)}`,
        componentId: "Message:A",
        componentType: "Message",
        message: expect.stringContaining(`"obj/params/extra/a/a/a/a/a/…" is nested deeper than ${MAX_DSL_DEPTH} levels`),
      }),
    ]);
  });

  it("is found anywhere in the DSL: globals, the graph, the run state, unknown keys", () => {
    const deepValue = JSON.parse(nestedText(5124, "1")) as unknown;
    const base = JSON.parse(canvasText("1")) as Record<string, unknown>;
    const places: Array<[Record<string, unknown>, string]> = [
      [{ ...base, globals: { "env.x": deepValue } }, "/globals/env.x"],
      [{ ...base, graph: { nodes: [{ id: "begin", data: { form: deepValue } }] } }, "/graph/nodes/0/data/form"],
      [{ ...base, history: [["user", deepValue]] }, "/history/0/1"],
      [{ ...base, unknown_key: deepValue }, "/unknown_key"],
    ];
    for (const [dsl, at] of places) {
      const [issue] = errors(validateDsl(dsl).issues);
      expect(issue).toMatchObject({ code: "too-deep" });
      expect(issue.pointer.startsWith(`${at}/a`)).toBe(true);
    }
  });

  it("counts lists as levels too, and a cyclic object is too deep rather than a hang", () => {
    const lists = JSON.parse(canvasText(`${"[".repeat(5000)}${"]".repeat(5000)}`)) as object;
    expect(errors(validateDsl(lists).issues)[0]).toMatchObject({ code: "too-deep", pointer: `${EXTRA}${"/0".repeat(MAX_DSL_DEPTH + 1 - EXTRA_LEVEL)}` });
    const cyclic = JSON.parse(canvasText("{}")) as { components: Record<string, { obj: { params: { extra: Record<string, unknown> } } }> };
    const extra = cyclic.components["Message:A"].obj.params.extra;
    extra.self = extra;
    expect(errors(validateDsl(cyclic).issues)[0]).toMatchObject({ code: "too-deep" });
  });

  it("is rejected by loadCanvas with CanvasValidationError", async () => {
    await expect(loadCanvas(deep)).rejects.toBeInstanceOf(CanvasValidationError);
  });

  it("makes `canvasflow run` exit 2 and `validate` exit 1 with the report, no stack trace", async () => {
    const { write } = scratchDir("canvasflow-nesting-");
    const file = write("deep.json", deep);
    const run = await cli(["run", file, "--query", "hi", "--events", "ndjson"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`nested deeper than ${MAX_DSL_DEPTH} levels`);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    const validate = await cli(["validate", file]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(`nested deeper than ${MAX_DSL_DEPTH} levels`);
  });

  it("stops a legacy DSL's migration with a MigrationError (run, validate and migrate say so, no stack trace)", async () => {
    const legacy = canvasText(nestedText(5124, "1"), "Answer");
    expect(() => migrateDsl(JSON.parse(legacy) as object)).toThrow(MigrationError);
    expect(() => migrateDsl(JSON.parse(legacy) as object)).toThrow(`nested deeper than ${MAX_DSL_DEPTH} levels`);
    const { write } = scratchDir("canvasflow-nesting-");
    const file = write("deep-legacy.json", legacy);
    const run = await cli(["run", file, "--events", "ndjson"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`nested deeper than ${MAX_DSL_DEPTH} levels`);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    const migrate = await cli(["migrate", file]);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toContain(`nested deeper than ${MAX_DSL_DEPTH} levels`);
    expect(migrate.stderr).not.toMatch(STACK_TRACE);
  });
});

describe("a DSL nested exactly to the limit", () => {
  const atLimit = canvasText(nestedText(MAX_DSL_DEPTH - EXTRA_LEVEL, '"{sys.query}"'));

  it("validates, loads, runs, and its snapshot loads again", async () => {
    expect(validateDsl(JSON.parse(atLimit) as object)).toMatchObject({ valid: true });
    const canvas = await loadCanvas(atLimit);
    const events = await canvas.runToEnd({ query: "hi" });
    expect(events.at(-1)?.event).toBe("workflow_finished");
    const again = await loadCanvas(JSON.parse(JSON.stringify(canvas.toJSON())) as object);
    expect(again.status).toBe("idle");
  });

  it("runs through the CLI to workflow_finished", async () => {
    const { write } = scratchDir("canvasflow-nesting-");
    const run = await cli(["run", write("limit.json", atLimit), "--query", "hi", "--events", "ndjson"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.events.at(-1)?.event).toBe("workflow_finished");
  });
});

describe("run inputs nested deeper than the limit", () => {
  it("are a usage error of `canvasflow run --inputs` (exit 2), before anything runs or is saved", async () => {
    const { dir, write } = scratchDir("canvasflow-nesting-");
    const file = write("form.json", canvasDsl({ begin: node("Begin", { mode: "task", inputs: { city: { name: "City", type: "line" } } }) }));
    const session = `${dir}/session.json`;
    const inputs = `{"city":${nestedText(5124, "1")}}`;
    const run = await cli(["run", file, "--inputs", inputs, "--session", session, "--events", "ndjson"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`--inputs is nested deeper than ${MAX_DSL_DEPTH} levels at /city/a/a/`);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    expect(existsSync(session)).toBe(false);
  });
});
