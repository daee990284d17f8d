/**
 * Input forms (Begin, UserFillUp): reading submitted values by the field's type.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formFields, resolveInputValue } from "../../src/components/form.js";
import { finiteNumber } from "../../src/util/values.js";

describe("resolveInputValue", () => {
  it("reads number fields with the same rule as every other number (finiteNumber)", () => {
    for (const type of ["integer", "number", "float", "Number"]) {
      expect(resolveInputValue("42", { type })).toBe(42);
      expect(resolveInputValue(" -1.5e2 ", { type })).toBe(-150);
      expect(resolveInputValue("+5", { type })).toBe(5);
      expect(resolveInputValue(".5", { type })).toBe(0.5);
    }
  });

  it("keeps text that is not a finite decimal number as text", () => {
    for (const text of ["abc", "", "0x10", "1e999", "inf", "1,5"]) expect(resolveInputValue(text, { type: "number" })).toBe(text);
  });

  it("a number field reads the text of any finite number back as that number", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(resolveInputValue(String(n), { type: "number" })).toBe(finiteNumber(String(n)));
        expect(resolveInputValue(String(n), { type: "number" })).toBe(n === 0 ? 0 : n);
      }),
    );
  });

  it("unwraps {value, type} submissions, and leaves lists and text fields alone", () => {
    expect(resolveInputValue({ value: "7", type: "integer" }, { type: "line" })).toBe(7);
    expect(resolveInputValue({ value: '{"a":1}' }, { type: "object" })).toEqual({ a: 1 });
    expect(resolveInputValue(["7"], { type: "number" })).toEqual(["7"]);
    expect(resolveInputValue("7", { type: "line" })).toBe("7");
    expect(resolveInputValue("yes", { type: "boolean" })).toBe(true);
  });
});

describe("formFields", () => {
  it("reads an object of fields; RAGFlow's [] and other non-objects are no fields", () => {
    expect(formFields({ inputs: { q: { type: "line" }, n: 3 } })).toEqual({ q: { type: "line" }, n: { value: 3 } });
    expect(formFields({ inputs: [] })).toEqual({});
    expect(formFields({ inputs: "q" })).toEqual({});
    expect(formFields({})).toEqual({});
  });
});
