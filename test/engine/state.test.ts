/**
 * Reading a snapshot's run state: a well-formed state comes back as it was; a field of the wrong
 * type is a RunStateError naming the field, never a TypeError and never passed on.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readRunState, RunStateError, type PersistedRunState } from "../../src/engine/state.js";
import { isPlainObject } from "../../src/util/values.js";
import { caught } from "../helpers/caught.js";

const PAUSED: PersistedRunState = {
  version: 1,
  status: "paused",
  outputs: { begin: {}, "UserFillUp:Ask": { tips: "Name?" } },
  component_state: { "IterationItem:It": { index: 1 } },
  open_containers: { "Iteration:I": 1_700_000_000 },
  steps: 3,
  pending: { components: ["UserFillUp:Ask"], inputs: { name: { name: "Name", type: "line" } }, tips: "Name?" },
  reply: ["Name?"],
  references: { chunks: [{ id: "c1", content: "text" }], doc_aggs: [{ doc_id: "d1", doc_name: "d1.md", count: 1 }] },
  error: "earlier",
};

/** The fields of a state read back, each of the type the engine relies on. */
function expectWellTyped(state: PersistedRunState): void {
  expect(state.version).toBe(1);
  expect(["idle", "paused", "failed", "cancelled"]).toContain(state.status);
  expect(isPlainObject(state.outputs) && Object.values(state.outputs).every(isPlainObject)).toBe(true);
  expect(isPlainObject(state.component_state)).toBe(true);
  expect(isPlainObject(state.open_containers) && Object.values(state.open_containers).every((v) => typeof v === "number")).toBe(true);
  expect(Number.isInteger(state.steps) && state.steps >= 0).toBe(true);
  if (state.status === "paused") expect(state.pending).toBeDefined();
  if (state.pending !== undefined) {
    const { components, inputs, tips } = state.pending;
    expect(Array.isArray(components) && components.length > 0 && components.every((c) => typeof c === "string")).toBe(true);
    expect(isPlainObject(inputs) && Object.values(inputs).every(isPlainObject)).toBe(true);
    expect(typeof tips).toBe("string");
  }
  if (state.reply !== undefined) expect(state.reply.every((r) => typeof r === "string")).toBe(true);
  if (state.references !== undefined) {
    expect(state.references.chunks.every(isPlainObject) && state.references.doc_aggs.every(isPlainObject)).toBe(true);
  }
  if (state.error !== undefined) expect(typeof state.error).toBe("string");
}

describe("readRunState", () => {
  it("reads a well-formed paused state back unchanged", () => {
    expect(readRunState(structuredClone(PAUSED))).toEqual(PAUSED);
  });

  it.each([
    ["pending", { ...PAUSED, status: "idle", pending: "UserFillUp:Ask" }],
    ["pending.components", { ...PAUSED, pending: { ...PAUSED.pending, components: [1] } }],
    ["pending.inputs", { ...PAUSED, pending: { ...PAUSED.pending, inputs: ["name"] } }],
    ["pending.tips", { ...PAUSED, pending: { ...PAUSED.pending, tips: 5 } }],
    ["outputs", { ...PAUSED, outputs: { begin: "done" } }],
    ["outputs", { ...PAUSED, outputs: [] }],
    ["open_containers", { ...PAUSED, open_containers: { "Iteration:I": "now" } }],
    ["steps", { ...PAUSED, steps: -1 }],
    ["steps", { ...PAUSED, steps: "3" }],
    ["component_state", { ...PAUSED, component_state: [] }],
    ["reply", { ...PAUSED, reply: "Name?" }],
    ["references", { ...PAUSED, references: { chunks: "c1", doc_aggs: [] } }],
    ["error", { ...PAUSED, error: { message: "x" } }],
  ])("refuses a state whose %s has the wrong type, naming it", (field, state) => {
    const error = caught(() => readRunState(state));
    expect(error).toBeInstanceOf(RunStateError);
    expect(error.message).toContain(field);
  });

  it("either refuses a state with a RunStateError or returns one whose every field is well typed (property)", () => {
    const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined));
    const fieldNames = Object.keys(PAUSED) as Array<keyof PersistedRunState>;
    const pendingNames = ["components", "inputs", "tips"] as const;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...fieldNames), anyValue), { maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom(...pendingNames), anyValue), { maxLength: 2 }),
        fc.constantFrom("idle", "paused", "failed", "cancelled"),
        (changes, pendingChanges, status) => {
          const state: Record<string, unknown> = { ...structuredClone(PAUSED), status };
          const pending = state.pending as Record<string, unknown>;
          for (const [key, value] of pendingChanges) pending[key] = value;
          for (const [key, value] of changes) state[key] = value;
          let read: PersistedRunState;
          try {
            read = readRunState(state);
          } catch (error) {
            expect(error).toBeInstanceOf(RunStateError);
            return;
          }
          expectWellTyped(read);
        },
      ),
      { numRuns: 500, seed: 8 },
    );
  });
});
