import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { TextStream } from "../../src/components/text-stream.js";
import { valueKind as componentValueKind } from "../../src/components/value-kind.js";
import {
  describeJson,
  finiteNumber,
  isBlank,
  isNothing,
  isPlainObject,
  jsonPointer,
  listParam,
  numericValue,
  objectRows,
  showValue,
  valueKind,
} from "../../src/util/values.js";

class Point {
  constructor(readonly x: number) {}
}

describe("isPlainObject", () => {
  it("accepts what JSON.parse makes, and objects without a prototype", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(JSON.parse('{"a": [1]}'))).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
  });

  it("refuses nothing, lists, scalars and class instances", () => {
    for (const value of [null, undefined, [], [1], "x", 1, true, new Date(0), new Map(), new Point(1), TextStream.of("x"), () => 1]) {
      expect(isPlainObject(value)).toBe(false);
    }
  });

  it("holds for every JSON object and for no other JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
        expect(isPlainObject(value)).toBe(isObject);
      }),
    );
  });
});

describe("isNothing and isBlank", () => {
  it("isNothing is only null and undefined", () => {
    expect([null, undefined, "", " ", 0, false, [], {}].map(isNothing)).toEqual([true, true, false, false, false, false, false, false]);
  });

  it("isBlank adds text that is only whitespace", () => {
    expect([null, undefined, "", " \t\n", "x", " x ", 0, false, [], {}].map(isBlank)).toEqual([true, true, true, true, false, false, false, false, false, false]);
  });
});

describe("listParam", () => {
  it("gives a list param itself, and no items for anything else", () => {
    const list = [1, 2];
    expect(listParam(list)).toBe(list);
    expect([undefined, null, "", "a,b", 3, { 0: "a" }].map(listParam)).toEqual([[], [], [], [], [], []]);
  });
});

describe("objectRows", () => {
  it("gives the object items of a list with their place in it", () => {
    expect(objectRows([null, { a: 1 }, ["x"], "y", {}, new Date(0)])).toEqual([
      { row: { a: 1 }, index: 1 },
      { row: {}, index: 4 },
    ]);
    expect(objectRows({ a: 1 })).toEqual([]);
    expect(objectRows(undefined)).toEqual([]);
  });
});

describe("valueKind", () => {
  it("names each kind of value as error messages do", () => {
    expect([undefined, null, "", "x", 0, Number.NaN, true, [], [1], {}, Object.create(null)].map(valueKind)).toEqual([
      "nothing",
      "nothing",
      "text",
      "text",
      "a number",
      "a number",
      "a boolean",
      "a list",
      "a list",
      "an object",
      "an object",
    ]);
  });

  it("falls back to typeof for values JSON does not have", () => {
    expect(valueKind(new Point(1))).toBe("object");
    expect(valueKind(() => 1)).toBe("function");
    expect(valueKind(1n)).toBe("bigint");
  });

  it("components also name a streamed text, and agree with util for everything else", () => {
    expect(componentValueKind(TextStream.of("x"))).toBe("streamed text");
    expect(valueKind(TextStream.of("x"))).toBe("object");
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(componentValueKind(value)).toBe(valueKind(value));
      }),
    );
  });
});

describe("describeJson", () => {
  it("names a document's type in JSON's words", () => {
    expect([null, undefined, [], {}, "x", 1, true].map(describeJson)).toEqual(["null", "undefined", "an array", "an object", "a string", "a number", "a boolean"]);
  });

  it("names a class instance by its class", () => {
    expect(describeJson(new Point(1))).toBe("an instance of Point");
    expect(describeJson(new Map())).toBe("an instance of Map");
  });
});

describe("showValue", () => {
  it("shows JSON, cut after 60 characters", () => {
    expect(showValue({ a: [1, "x"] })).toBe('{"a":[1,"x"]}');
    expect(showValue(undefined)).toBe("undefined");
    expect(showValue("y".repeat(80))).toBe(`"${"y".repeat(56)}...`);
    expect(showValue(1n)).toBe("1");
  });
});

describe("numericValue and finiteNumber", () => {
  it("read numbers and decimal text as Python's float() does", () => {
    expect(["1", " 2.5 ", "-3", "+4", ".5", "5.", "1e3", "1E-2", "007"].map(numericValue)).toEqual([1, 2.5, -3, 4, 0.5, 5, 1000, 0.01, 7]);
    expect(numericValue(42)).toBe(42);
    expect(numericValue(-0.5)).toBe(-0.5);
  });

  it("numericValue reads the infinities; finiteNumber does not", () => {
    expect(["inf", "-Infinity", " +INF "].map(numericValue)).toEqual([Infinity, -Infinity, Infinity]);
    expect(numericValue(Infinity)).toBe(Infinity);
    expect(["inf", "-Infinity", "1e999"].map(finiteNumber)).toEqual([undefined, undefined, undefined]);
    expect(finiteNumber(Infinity)).toBeUndefined();
  });

  it("refuse everything else: NaN, blanks, hexadecimal text, booleans, lists", () => {
    for (const value of [Number.NaN, "nan", "", "  ", "0x10", "0b1", "1_000", "1,5", "abc", true, false, null, undefined, [1], { n: 1 }]) {
      expect(numericValue(value)).toBeUndefined();
      expect(finiteNumber(value)).toBeUndefined();
    }
  });

  it("a finite number and its decimal text read as that number", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(finiteNumber(n)).toBe(n);
        expect(finiteNumber(` ${String(n)} `)).toBe(n === 0 ? 0 : n);
      }),
    );
  });

  it("finiteNumber is numericValue without the infinities", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double(), fc.jsonValue()), (value) => {
        const n = numericValue(value);
        expect(finiteNumber(value)).toBe(n !== undefined && Number.isFinite(n) ? n : undefined);
      }),
    );
  });
});

describe("jsonPointer", () => {
  it("escapes ~ and / (RFC 6901)", () => {
    expect(jsonPointer()).toBe("");
    expect(jsonPointer("components", "Agent:A", "obj", 0)).toBe("/components/Agent:A/obj/0");
    expect(jsonPointer("a/b", "c~d", "~1")).toBe("/a~1b/c~0d/~01");
  });

  it("decodes back to its segments", () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (segments) => {
        const decoded = jsonPointer(...segments)
          .split("/")
          .slice(1)
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
        expect(decoded).toEqual(segments);
      }),
    );
  });
});
