import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { PathWriteError, UnsafePathError, assertSafeKey, defineOwn, getByPath, setByPath } from "../../src/pool/path.js";

describe("getByPath", () => {
  const value = {
    a: { b: { c: 1 } },
    list: ["x", "y", { k: "z" }],
    json: '{"inner": [10, 20, {"deep": true}]}',
    nested: { text: '["p", "q"]' },
    zero: 0,
    nul: null,
  };

  it("returns the value itself for an empty path", () => {
    expect(getByPath(value, [])).toBe(value);
    expect(getByPath("not json", [])).toBe("not json");
  });

  it("follows object keys", () => {
    expect(getByPath(value, ["a", "b", "c"])).toBe(1);
    expect(getByPath(value, ["a", "b"])).toEqual({ c: 1 });
    expect(getByPath(value, ["zero"])).toBe(0);
    expect(getByPath(value, ["nul"])).toBeNull();
  });

  it("follows list indices, negative ones from the end", () => {
    expect(getByPath(value, ["list", "0"])).toBe("x");
    expect(getByPath(value, ["list", "2", "k"])).toBe("z");
    expect(getByPath(value, ["list", "-1", "k"])).toBe("z");
    expect(getByPath(value, ["list", "-3"])).toBe("x");
  });

  it("yields undefined for out-of-range or non-numeric list steps", () => {
    expect(getByPath(value, ["list", "3"])).toBeUndefined();
    expect(getByPath(value, ["list", "-4"])).toBeUndefined();
    expect(getByPath(value, ["list", "first"])).toBeUndefined();
    expect(getByPath(value, ["list", "1.0"])).toBeUndefined();
    expect(getByPath(value, ["list", "length"])).toBeUndefined();
  });

  it("parses JSON strings on the way", () => {
    expect(getByPath(value, ["json", "inner", "1"])).toBe(20);
    expect(getByPath(value, ["json", "inner", "-1", "deep"])).toBe(true);
    expect(getByPath(value, ["nested", "text", "1"])).toBe("q");
    expect(getByPath('{"a": {"b": "c"}}', ["a", "b"])).toBe("c");
  });

  it("does not parse the value at the end of the path", () => {
    expect(getByPath({ s: '{"a":1}' }, ["s"])).toBe('{"a":1}');
  });

  it("yields undefined for missing steps and for stepping into scalars or bad JSON", () => {
    expect(getByPath(value, ["missing"])).toBeUndefined();
    expect(getByPath(value, ["missing", "deeper"])).toBeUndefined();
    expect(getByPath(value, ["nul", "x"])).toBeUndefined();
    expect(getByPath(value, ["zero", "x"])).toBeUndefined();
    expect(getByPath({ s: "not json" }, ["s", "x"])).toBeUndefined();
    expect(getByPath({ s: "null" }, ["s", "x"])).toBeUndefined();
    expect(getByPath({ s: "5" }, ["s", "x"])).toBeUndefined();
    expect(getByPath(undefined, ["a"])).toBeUndefined();
    expect(getByPath(null, ["a"])).toBeUndefined();
    expect(getByPath(true, ["a"])).toBeUndefined();
  });

  it("reads only own keys, never inherited ones", () => {
    expect(getByPath({}, ["toString"])).toBeUndefined();
    expect(getByPath({}, ["hasOwnProperty"])).toBeUndefined();
    expect(getByPath(Object.create({ inherited: 1 }), ["inherited"])).toBeUndefined();
  });

  it("refuses __proto__, constructor and prototype anywhere in the path", () => {
    for (const key of ["__proto__", "constructor", "prototype"]) {
      expect(() => getByPath({}, [key])).toThrow(UnsafePathError);
      expect(() => getByPath({ a: {} }, ["a", key])).toThrow(UnsafePathError);
      // A walk that stops before the key reads nothing, so it may simply yield undefined.
      expect(getByPath(undefined, ["missing", key])).toBeUndefined();
      expect(() => getByPath(JSON.parse(`{"${key}": {"x": 1}}`), [key, "x"])).toThrow(UnsafePathError);
    }
  });
});

describe("UnsafePathError", () => {
  it("names the segment and the path", () => {
    const error = (() => {
      try {
        assertSafeKey("__proto__", ["a", "__proto__", "b"]);
      } catch (e) {
        return e;
      }
    })() as UnsafePathError;
    expect(error).toBeInstanceOf(UnsafePathError);
    expect(error.name).toBe("UnsafePathError");
    expect(error.segment).toBe("__proto__");
    expect(error.path).toEqual(["a", "__proto__", "b"]);
    expect(error.message).toBe('path "a.__proto__.b" uses the forbidden key "__proto__"');
  });

  it("assertSafeKey accepts ordinary keys", () => {
    expect(() => assertSafeKey("proto", ["proto"])).not.toThrow();
    expect(() => assertSafeKey("", [""])).not.toThrow();
  });
});

describe("setByPath", () => {
  it("returns the value for an empty path", () => {
    expect(setByPath({ a: 1 }, [], "v")).toBe("v");
  });

  it("writes into nested objects, creating missing ones", () => {
    expect(setByPath({ a: { b: 1 } }, ["a", "c"], 2)).toEqual({ a: { b: 1, c: 2 } });
    expect(setByPath(undefined, ["x", "y"], 1)).toEqual({ x: { y: 1 } });
    expect(setByPath(null, ["x"], 1)).toEqual({ x: 1 });
  });

  it("replaces scalar intermediates with objects", () => {
    expect(setByPath({ a: 5 }, ["a", "b"], 1)).toEqual({ a: { b: 1 } });
    expect(setByPath("plain text", ["a"], 1)).toEqual({ a: 1 });
  });

  it("writes list items by index, negative from the end", () => {
    expect(setByPath(["a", "b", "c"], ["1"], "B")).toEqual(["a", "B", "c"]);
    expect(setByPath(["a", "b", "c"], ["-1"], "C")).toEqual(["a", "b", "C"]);
    expect(setByPath({ l: [{ k: 1 }] }, ["l", "0", "k"], 2)).toEqual({ l: [{ k: 2 }] });
  });

  it("appends at index == length", () => {
    expect(setByPath(["a"], ["1"], "b")).toEqual(["a", "b"]);
    expect(setByPath([], ["0"], "first")).toEqual(["first"]);
  });

  it("refuses list indices outside the list (no holes, no huge sparse lists)", () => {
    const error = (() => {
      try {
        setByPath({ l: ["a", "b"] }, ["l", "3"], "x");
      } catch (e) {
        return e;
      }
    })() as Error;
    expect(error).toBeInstanceOf(PathWriteError);
    expect(error.name).toBe("PathWriteError");
    expect(error.message).toContain("index 3 is outside the list (length 2)");
    expect(() => setByPath([], ["1000000000"], 1)).toThrow(PathWriteError);
    expect(() => setByPath(["a", "b"], ["-3"], "x")).toThrow(PathWriteError);
  });

  it("turns a list into an object when the step is not an index", () => {
    // Documented: non-container or non-index steps write an object (the list is replaced).
    expect(setByPath(["a"], ["key"], 1)).toEqual({ key: 1 });
  });

  it("parses a JSON string on the way and writes into the parsed value", () => {
    expect(setByPath('{"a": 1}', ["b"], 2)).toEqual({ a: 1, b: 2 });
    expect(setByPath({ s: "[1, 2]" }, ["s", "0"], 9)).toEqual({ s: [9, 2] });
  });

  it("does not mutate the original (copy on write)", () => {
    const inner = { c: [1, 2] };
    const root = { a: inner, other: { untouched: true } };
    const next = setByPath(root, ["a", "c", "0"], 99) as typeof root;
    expect(root).toEqual({ a: { c: [1, 2] }, other: { untouched: true } });
    expect(next.a.c).toEqual([99, 2]);
    expect(next.a).not.toBe(inner);
    expect(next.a.c).not.toBe(inner.c);
    // Siblings off the path are shared, not copied.
    expect(next.other).toBe(root.other);
  });

  it("refuses __proto__, constructor and prototype as a key", () => {
    for (const key of ["__proto__", "constructor", "prototype"]) {
      expect(() => setByPath({}, [key], { polluted: true })).toThrow(UnsafePathError);
      expect(() => setByPath({}, [key, "polluted"], true)).toThrow(UnsafePathError);
      expect(() => setByPath({ a: {} }, ["a", key, "polluted"], true)).toThrow(UnsafePathError);
      expect(() => setByPath([], [key], true)).toThrow(UnsafePathError);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("copies an own '__proto__' key of parsed JSON as data, without touching prototypes", () => {
    const root = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const next = setByPath(root, ["b"], 2) as Record<string, unknown>;
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.hasOwn(next, "__proto__")).toBe(true);
    expect((next as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

// ---- properties ----

const key = fc.oneof(
  fc.constantFrom("a", "b", "0", "1", "2", "-1", "-2", "", "01", "toString", "length"),
  fc.string({ maxLength: 4 }),
);
const safeKey = key.filter((k) => k !== "__proto__" && k !== "constructor" && k !== "prototype");
/** Paths with no numeric steps but "0" (which never points past the end): see safeIndexPath. */
const safePath = fc.array(safeKey.filter((k) => !/^-?\d+$/.test(k) || k === "0"), { maxLength: 5 });
const root = fc.oneof(fc.jsonValue(), fc.jsonValue().map((v) => JSON.stringify(v)));

describe("defineOwn", () => {
  it("sets ordinary keys and keeps '__proto__' as an own data key", () => {
    const target: Record<string, unknown> = {};
    defineOwn(target, "a", 1);
    defineOwn(target, "__proto__", { injected: true });
    expect(target.a).toBe(1);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.hasOwn(target, "__proto__")).toBe(true);
    expect(Object.keys(target)).toEqual(["a", "__proto__"]);
    expect((target as { injected?: unknown }).injected).toBeUndefined();
  });
});

describe("path properties", () => {
  it("setByPath never mutates its input", () => {
    fc.assert(
      fc.property(root, safePath, fc.jsonValue(), (value, path, written) => {
        const before = structuredClone(value);
        setByPath(value, path, written);
        expect(value).toEqual(before);
      }),
    );
  });

  it("a value written at a path is read back at that path", () => {
    fc.assert(
      fc.property(root, safePath, fc.jsonValue(), (value, path, written) => {
        expect(getByPath(setByPath(value, path, written), path)).toEqual(written);
      }),
    );
  });

  it("writing at a path leaves other top-level keys of an object alone", () => {
    fc.assert(
      fc.property(fc.dictionary(safeKey, fc.jsonValue()), safeKey, safePath, fc.jsonValue(), (obj, head, rest, written) => {
        const next = setByPath(obj, [head, ...rest], written) as Record<string, unknown>;
        for (const k of Object.keys(obj)) if (k !== head) expect(next[k]).toBe(obj[k]);
      }),
    );
  });

  it("any path through a forbidden key throws, for reads and writes", () => {
    fc.assert(
      fc.property(
        root,
        safePath,
        fc.constantFrom("__proto__", "constructor", "prototype"),
        safePath,
        (value, before, forbidden, after) => {
          const path = [...before, forbidden, ...after];
          // A read either stops before the key (undefined) or refuses it; it never returns what
          // lies behind it (a prototype, the Object constructor).
          let read: unknown;
          try {
            read = getByPath(value, path);
          } catch (error) {
            expect(error).toBeInstanceOf(UnsafePathError);
            read = undefined;
          }
          expect(read).toBeUndefined();
          // A write never succeeds (it may fail earlier on, e.g. on a bad list index).
          expect(() => setByPath(value, path, { polluted: true })).toThrow();
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
    );
  });

  it("a write through list indices either lands in range or is refused, never leaving holes", () => {
    const index = fc.integer({ min: -6, max: 6 }).map(String);
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 4 }), index, fc.jsonValue(), (list, i, written) => {
        let next: unknown;
        try {
          next = setByPath(list, [i], written);
        } catch (error) {
          expect(error).toBeInstanceOf(PathWriteError);
          const n = Number(i);
          expect(n > list.length || n < -list.length).toBe(true);
          return;
        }
        expect(Array.isArray(next)).toBe(true);
        const out = next as unknown[];
        expect(Object.keys(out).length).toBe(out.length);
        expect(out.length).toBe(Number(i) === list.length ? list.length + 1 : list.length);
        expect(getByPath(out, [i])).toEqual(written);
      }),
    );
  });

  it("getByPath never throws on safe paths", () => {
    fc.assert(
      fc.property(root, fc.array(safeKey, { maxLength: 5 }), (value, path) => {
        getByPath(value, path);
      }),
    );
  });
});
