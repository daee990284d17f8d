/** The memory store's flat form of a kept delta: what comes back is what its JSON would give. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flattenRecord, unflattenRecord } from "../../src/backends/process/flat-record.js";

const primitive = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const { value: flatValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, primitive, fc.array(tie("value"), { maxLength: 5 })),
}));
const key = fc.oneof(fc.string(), fc.constantFrom("__proto__", "ops", "path", "0", "constructor"));

describe("flat records", () => {
  it("property: a record of primitives and lists comes back as JSON.parse(JSON.stringify(record))", () => {
    fc.assert(
      fc.property(fc.dictionary(key, flatValue, { maxKeys: 8 }), (record) => {
        const flat = flattenRecord(record);
        expect(flat).toBeDefined();
        expect(unflattenRecord(flat!)).toEqual(JSON.parse(JSON.stringify(record)));
        expect(JSON.stringify(unflattenRecord(flat!))).toBe(JSON.stringify(record));
      }),
      { seed: 2026_12_02, numRuns: 300 },
    );
  });

  it("lays a checkpoint delta flat: ops, path and the rest, in key order", () => {
    const delta = { ops: [["reset", "S:5"], ["set", "S:5", "n", 1]], status: "running", path: ["S:6"], steps: 6, epoch: 2, last: "S:5" };
    const flat = flattenRecord(delta)!;
    expect(flat.filter((part) => typeof part !== "object")).toEqual(["ops", 2, 2, "reset", "S:5", 4, "set", "S:5", "n", 1, "status", "running", "path", 1, "S:6", "steps", 6, "epoch", 2, "last", "S:5"]);
    expect(unflattenRecord(flat)).toEqual(delta);
    // An empty list and a null stay what they were.
    expect(unflattenRecord(flattenRecord({ ops: [], error: null })!)).toEqual({ ops: [], error: null });
  });

  it("keeps a `__proto__` key as an own property, as JSON.parse does", () => {
    const record = JSON.parse('{"__proto__":["x"],"a":1}') as object;
    const back = unflattenRecord(flattenRecord(record)!);
    expect(Object.keys(back)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });

  it("refuses what it cannot lay flat: nested objects, undefined, non-finite numbers, functions", () => {
    for (const record of [{ a: { b: 1 } }, { a: [1, { b: 2 }] }, { a: undefined }, { a: [undefined] }, { a: Number.NaN }, { a: [Infinity] }, { a: () => 1 }, { a: new Date(0) }, { a: 1n }]) {
      expect(flattenRecord(record), JSON.stringify(Object.keys(record))).toBeUndefined();
    }
  });
});
