/**
 * The DSL's structure (every field's type) is checked before anything reads the fields: a wrong
 * type anywhere gives a validation report naming the field, never a TypeError.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CanvasValidationError, loadCanvas, validateDsl } from "../../src/api.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import { cli } from "../helpers/cli.js";
import { canvasDsl, errors, node } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";
import { scratchDir } from "../helpers/scratch.js";

const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

/** A paused snapshot that has every part of the DSL: graph, variables, history, run state… */
async function pausedSnapshot(): Promise<CanvasDsl> {
  const dsl = canvasDsl(
    {
      begin: node("Begin", {}, ["UserFillUp:Ask"]),
      "UserFillUp:Ask": node("UserFillUp", { tips: "Name?", inputs: { name: { name: "Name", type: "line" } } }, ["Iteration:I"], { upstream: ["begin"] }),
      "Iteration:I": node("Iteration", { items_ref: "sys.files" }, ["Message:Hi"], { upstream: ["UserFillUp:Ask"] }),
      "IterationItem:It": node("IterationItem", {}, [], { parent_id: "Iteration:I" }),
      "Message:Hi": node("Message", { content: ["Hello {UserFillUp:Ask@name} {env.greeting}"] }, [], { upstream: ["Iteration:I"] }),
    },
    {
      variables: { greeting: { name: "greeting", type: "string", value: "hi" } },
      graph: {
        nodes: [{ id: "begin", type: "beginNode", data: { label: "Begin", name: "Start", form: {} } }],
        edges: [{ id: "e1", source: "begin", target: "UserFillUp:Ask", sourceHandle: "start", targetHandle: "end" }],
      },
      memory: [],
      messages: [],
    },
  );
  const canvas = await loadCanvas(dsl);
  await canvas.runToEnd({ query: "hi" });
  expect(canvas.status).toBe("paused");
  // One turn in the history, so history items exist to break.
  return { ...canvas.toJSON(), history: [["user", "earlier"], ["assistant", "reply"]] };
}

/** A copy of `dsl` with the value at `pointer` replaced. */
function withValue(dsl: CanvasDsl, pointer: string, value: unknown): CanvasDsl {
  const copy = structuredClone(dsl) as Record<string, unknown>;
  const keys = pointer.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
  let target = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1)!] = value;
  return copy as CanvasDsl;
}

/** Each structural field of the DSL, and a value of a type it must not have. */
const WRONG_TYPES: Array<[pointer: string, value: unknown]> = [
  ["/components", ["begin"]],
  ["/components/Message:Hi", "Message"],
  ["/components/Message:Hi/obj", null],
  ["/components/Message:Hi/obj/component_name", 7],
  ["/components/Message:Hi/obj/params", "content"],
  ["/components/begin/downstream", "UserFillUp:Ask"],
  ["/components/begin/downstream", true],
  ["/components/begin/downstream", { 0: "UserFillUp:Ask" }],
  ["/components/begin/downstream/0", 3],
  ["/components/UserFillUp:Ask/upstream", "begin"],
  ["/components/IterationItem:It/parent_id", ["Iteration:I"]],
  ["/globals", "sys.query"],
  ["/variables", "greeting"],
  ["/variables/greeting", "hi"],
  ["/history", "user: earlier"],
  ["/history/0", "earlier"],
  ["/path", "UserFillUp:Ask"],
  ["/graph", []],
  ["/graph/nodes", 7],
  ["/graph/nodes", {}],
  ["/graph/nodes/0", "begin"],
  ["/graph/nodes/0/data", "Start"],
  ["/graph/edges", "e1"],
  ["/graph/edges/0/source", null],
  ["/retrieval", "none"],
  ["/memory", {}],
  ["/messages", "none"],
  ["/task_id", 12],
  ["/canvasflow", "paused"],
  ["/canvasflow/status", 1],
  ["/canvasflow/outputs", []],
  ["/canvasflow/outputs/begin", "done"],
  ["/canvasflow/component_state", "x"],
  ["/canvasflow/open_containers", { "Iteration:I": "now" }],
  ["/canvasflow/steps", "2"],
  ["/canvasflow/pending", "UserFillUp:Ask"],
  ["/canvasflow/pending/components", "UserFillUp:Ask"],
  ["/canvasflow/pending/inputs", []],
  ["/canvasflow/pending/tips", { text: "Name?" }],
  ["/canvasflow/reply", "Name?"],
];

describe("a wrongly typed structural field", () => {
  let snapshot: CanvasDsl;
  beforeAll(async () => {
    snapshot = await pausedSnapshot();
  });

  it("leaves the snapshot used below valid when nothing is changed", () => {
    expect(validateDsl(snapshot)).toMatchObject({ valid: true });
  });

  it.each(WRONG_TYPES)("%s = %j is reported at its pointer, and loadCanvas rejects it with the report", async (pointer, value) => {
    const dsl = withValue(snapshot, pointer, value);
    const report = validateDsl(dsl);
    expect(report.valid).toBe(false);
    // At the field, or at the part of it that is wrong (open_containers/<id>).
    const atField = (p: string) => p === pointer || p.startsWith(`${pointer}/`);
    expect(errors(report.issues).filter((i) => atField(i.pointer))).not.toEqual([]);
    const error = await loadCanvas(dsl).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CanvasValidationError);
    expect((error as CanvasValidationError).report).toEqual(report);
  });

  it("names the field, the value's type and the component in the message", () => {
    const report = validateDsl(withValue(snapshot, "/components/begin/downstream", "UserFillUp:Ask"));
    expect(errors(report.issues)).toEqual([
      {
        severity: "error",
        code: "schema",
        pointer: "/components/begin/downstream",
        componentId: "begin",
        componentName: "Start",
        componentType: "Begin",
        message: '"downstream" must be array, got a string ("UserFillUp:Ask")',
      },
    ]);
  });

  it("stops before the component checks, so none of them reads a field of the wrong type", () => {
    // The unknown reference would be reported by the component checks; the structure comes first.
    const dsl = canvasDsl({
      begin: { ...node("Begin", {}, []), downstream: "Message:M" as unknown as string[] },
      "Message:M": node("Message", { content: ["{Nobody@x}"] }),
    });
    expect(errors(validateDsl(dsl).issues).map((i) => i.code)).toEqual(["schema"]);
  });
});

describe("the CLI on a downstream given as a string", () => {
  const { write } = scratchDir("canvasflow-structure-");
  const file = write("downstream.json", canvasDsl({ begin: { ...node("Begin"), downstream: "Message:M" as unknown as string[] }, "Message:M": node("Message", { content: ["hi"] }) }));

  it("run exits 2 with the validation report, no stack trace", async () => {
    const r = await cli(["run", file, "--query", "hi", "--events", "ndjson"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("/components/begin/downstream");
    expect(r.stderr).toContain('"downstream" must be array, got a string');
    expect(r.stderr).not.toMatch(STACK_TRACE);
  });

  it("validate exits 1 with the report", async () => {
    const r = await cli(["validate", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("INVALID");
    expect(r.stdout).toContain("/components/begin/downstream");
    expect(`${r.stdout}${r.stderr}`).not.toMatch(STACK_TRACE);
  });
});

describe("validateDsl on a value that is not an object", () => {
  it.each([[null], ["begin"], [7], [[]], [[{ components: {} }]]])("returns a report for %j instead of throwing", (value) => {
    const report = validateDsl(value as object);
    expect(report).toMatchObject({ kind: "unknown", valid: false });
    expect(errors(report.issues)).toEqual([expect.objectContaining({ code: "not-a-canvas", pointer: "/", message: expect.stringContaining("expected a JSON object") })]);
  });
});

describe("a component type whose params schema ajv cannot compile", () => {
  it("is reported on the components of that type; validation does not throw", async () => {
    const registry = registryWith({ name: "Odd", paramsSchema: { type: "nonsense" }, invoke: () => undefined });
    const dsl = canvasDsl({ begin: node("Begin", {}, ["Odd:1"]), "Odd:1": node("Odd", { x: 1 }) });
    expect(errors(validateDsl(dsl, { registry }).issues)).toEqual([
      expect.objectContaining({ code: "param", componentId: "Odd:1", pointer: "/components/Odd:1/obj/params", message: expect.stringContaining("the params schema of Odd cannot be used") }),
    ]);
    await expect(loadCanvas(dsl, { registry })).rejects.toBeInstanceOf(CanvasValidationError);
  });
});

describe("a task id a cancel flag cannot be named by (found by the fuzzer)", () => {
  const { write } = scratchDir("canvasflow-structure-task-");

  it("is a validation error naming /task_id, for a long one and for one with a slash", () => {
    const long = { ...canvasDsl({ begin: node("Begin") }), task_id: "{begin@".repeat(100) };
    expect(errors(validateDsl(long).issues)).toEqual([expect.objectContaining({ pointer: "/task_id", message: '"/task_id" must be at most 256 characters, got 700' })]);
    const slash = { ...canvasDsl({ begin: node("Begin") }), task_id: "a/b" };
    expect(errors(validateDsl(slash).issues)[0].message).toMatch(/^"\/task_id" does not fit its rule \(at most 256 printable characters, without \/ or \\ .*\), got "a\/b"$/);
  });

  it("the CLI exits 2 with the report instead of failing with no events", async () => {
    const file = write("task.json", { ...canvasDsl({ begin: node("Begin", {}, ["Message:M"]), "Message:M": node("Message", { content: ["hi"] }) }), task_id: "x".repeat(100_000) });
    const r = await cli(["run", file, "--query", "hi", "--events", "ndjson"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("/task_id");
    expect(r.stderr.length).toBeLessThan(2000);
  });
});
