import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MissingReferenceError } from "../../src/pool/pool.js";
import { PathWriteError, UnsafePathError } from "../../src/pool/path.js";
import { caught } from "../helpers/caught.js";
import { poolOf, ref } from "../helpers/pool.js";
import { parseSelector, type Reference } from "../../src/refs/grammar.js";


describe("VariablePool: component outputs", () => {
  it("stores and reads outputs", () => {
    const pool = poolOf(["a"]);
    expect(pool.outputsOf("a")).toBeUndefined();
    pool.setOutput("a", "x", 1);
    pool.setOutput("a", "y", { z: [1, 2] });
    expect(pool.output("a", "x")).toBe(1);
    expect(pool.outputsOf("a")).toEqual({ x: 1, y: { z: [1, 2] } });
    expect(pool.output("a", "missing")).toBeUndefined();
    expect(pool.output("b", "x")).toBeUndefined();
  });

  it("reads only own output keys", () => {
    const pool = poolOf(["a"]);
    pool.setOutput("a", "x", 1);
    expect(pool.output("a", "toString")).toBeUndefined();
    expect(pool.output("a", "hasOwnProperty")).toBeUndefined();
  });

  it("accepts output keys that merely look like Object methods", () => {
    const pool = poolOf(["a"]);
    pool.setOutput("a", "hasOwnProperty", "h");
    pool.setOutput("a", "toString", "t");
    expect(pool.output("a", "hasOwnProperty")).toBe("h");
    expect(pool.get("a@toString")).toBe("t");
  });

  it("replaceOutputs installs a fresh copy, clearOutputs and clearAllOutputs remove", () => {
    const pool = poolOf(["a", "b"]);
    const outputs = { k: 1 };
    pool.setOutput("a", "old", true);
    pool.replaceOutputs("a", outputs);
    expect(pool.outputsOf("a")).toEqual({ k: 1 });
    pool.setOutput("a", "k", 2);
    expect(outputs).toEqual({ k: 1 });
    pool.setOutput("b", "k", 3);
    pool.clearOutputs("a");
    expect(pool.outputsOf("a")).toBeUndefined();
    expect(pool.allOutputs()).toEqual({ b: { k: 3 } });
    pool.clearAllOutputs();
    expect(pool.allOutputs()).toEqual({});
  });

  it("refuses forbidden output keys", () => {
    const pool = poolOf(["a"]);
    for (const key of ["__proto__", "constructor", "prototype"]) {
      expect(() => pool.setOutput("a", key, { polluted: true })).toThrow(UnsafePathError);
      expect(() => pool.replaceOutputs("a", JSON.parse(`{"ok": 1, "${key}": {"polluted": true}}`))).toThrow(UnsafePathError);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("VariablePool: resolving component references", () => {
  it("reads an output, and a path below it", () => {
    const pool = poolOf(["cpn"]);
    pool.setOutput("cpn", "var", { list: [{ k: "first" }, { k: "last" }] });
    pool.setOutput("cpn", "json", '{"a": {"b": 7}}');
    expect(pool.get("cpn@var")).toEqual({ list: [{ k: "first" }, { k: "last" }] });
    expect(pool.get("cpn@var.list.0.k")).toBe("first");
    expect(pool.get("cpn@var.list.-1.k")).toBe("last");
    expect(pool.get("cpn@json.a.b")).toBe(7);
    expect(pool.get("{{cpn@var.list.1.k}}")).toBe("last");
    expect(pool.get("cpn@var.missing.deeper")).toBeUndefined();
  });

  it("reads output keys holding '@' (split on the first '@')", () => {
    const pool = poolOf(["cpn"]);
    pool.setOutput("cpn", "foo@bar", 5);
    expect(pool.get("cpn@foo@bar")).toBe(5);
  });

  it("yields undefined for a known component that has not run", () => {
    expect(poolOf(["cpn"]).get("cpn@var")).toBeUndefined();
    expect(poolOf(["cpn"]).get("cpn@var.a.b")).toBeUndefined();
  });

  it("resolves a component that has outputs even when the canvas no longer lists it", () => {
    const pool = poolOf([]);
    pool.setOutput("restored", "v", 1);
    expect(pool.get("restored@v")).toBe(1);
  });

  it("throws MissingReferenceError naming the reference for an unknown component", () => {
    const error = caught(() => poolOf(["a"]).get("ghost@var.x"));
    expect(error).toBeInstanceOf(MissingReferenceError);
    expect(error.name).toBe("MissingReferenceError");
    expect((error as MissingReferenceError).reference).toBe("ghost@var.x");
    expect(error.message).toBe('reference {ghost@var.x}: no component "ghost" in this canvas');
  });

  it("throws MissingReferenceError for text that is not a selector", () => {
    const error = caught(() => poolOf(["a"]).get("just words"));
    expect(error).toBeInstanceOf(MissingReferenceError);
    expect(error.message).toBe("reference {just words}: not a reference (expected cpn@var, sys.x or env.x)");
    expect(caught(() => poolOf([]).get("item"))).toBeInstanceOf(MissingReferenceError);
  });

  it("refuses to read through a forbidden path key", () => {
    const pool = poolOf(["a"]);
    pool.setOutput("a", "v", { x: {} });
    expect(() => pool.get("a@v.__proto__")).toThrow(UnsafePathError);
    expect(() => pool.get("a@v.x.constructor")).toThrow(UnsafePathError);
    expect(pool.get("a@__proto__")).toBeUndefined();
  });
});

describe("VariablePool: aliases", () => {
  const item: Reference = { kind: "alias", expr: "item", alias: "item" };
  const index: Reference = { kind: "alias", expr: "index", alias: "index" };

  it("read the alias target's outputs", () => {
    const pool = poolOf(["it"]);
    pool.setOutput("it", "item", "apple");
    pool.setOutput("it", "index", 2);
    expect(pool.resolve(item, { aliasTarget: "it" })).toBe("apple");
    expect(pool.resolve(index, { aliasTarget: "it" })).toBe(2);
  });

  it("need an alias target", () => {
    const pool = poolOf(["it"]);
    for (const scope of [undefined, {}, { aliasTarget: "" }]) {
      const error = caught(() => pool.resolve(item, scope));
      expect(error).toBeInstanceOf(MissingReferenceError);
      expect(error.message).toBe("reference {item}: iteration aliases are only defined inside an Iteration");
    }
  });

  it("are read-only", () => {
    const error = caught(() => poolOf(["it"]).set(item, 1));
    expect(error).toBeInstanceOf(MissingReferenceError);
    expect(error.message).toBe("reference {item}: iteration aliases are read-only");
  });
});

describe("VariablePool: writing component outputs", () => {
  it("writes an output, and a path below it without mutating the previous value", () => {
    const pool = poolOf(["a"]);
    pool.set(ref("a@v"), { list: [1, 2], keep: { k: 1 } });
    const before = pool.output("a", "v") as { list: number[]; keep: object };
    pool.set(ref("a@v.list.0"), 10);
    pool.set(ref("a@v.new.deep"), "d");
    expect(pool.get("a@v")).toEqual({ list: [10, 2], keep: { k: 1 }, new: { deep: "d" } });
    expect(before).toEqual({ list: [1, 2], keep: { k: 1 } });
  });

  it("creates the output when writing a path into a missing one", () => {
    const pool = poolOf(["a"]);
    pool.set(ref("a@v.x.y"), 1);
    expect(pool.outputsOf("a")).toEqual({ v: { x: { y: 1 } } });
  });

  it("throws MissingReferenceError naming the reference for an unknown component", () => {
    const error = caught(() => poolOf([]).set(ref("nope@v"), 1));
    expect(error).toBeInstanceOf(MissingReferenceError);
    expect(error.message).toBe('reference {nope@v}: no component "nope" in this canvas');
  });

  it("refuses forbidden keys as output key or path step", () => {
    const pool = poolOf(["a"]);
    expect(() => pool.set(ref("a@__proto__"), { polluted: true })).toThrow(UnsafePathError);
    expect(() => pool.set(ref("a@constructor.prototype.polluted"), true)).toThrow(UnsafePathError);
    expect(() => pool.set(ref("a@v.__proto__.polluted"), true)).toThrow(UnsafePathError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("VariablePool: globals", () => {
  it("reads sys.* and env.* by their flat key", () => {
    const pool = poolOf([], { "sys.query": "hi", "env.n": 3 });
    expect(pool.get("sys.query")).toBe("hi");
    expect(pool.get("{env.n}")).toBe(3);
  });

  it("reads the literal flat key first, then nests into the longest declared prefix", () => {
    const pool = poolOf([], {
      "env.a": { b: "nested", c: { d: "deep" } },
      "env.a.b": "literal",
      "env.x": '{"y": [5, 6]}',
      "env.a.c": { d: "longest prefix" },
    });
    expect(pool.get("env.a.b")).toBe("literal");
    expect(pool.get("env.a.c.d")).toBe("longest prefix");
    expect(pool.get("env.x.y.1")).toBe(6);
    expect(pool.get("env.a.zzz")).toBeUndefined();
  });

  it("hasGlobal knows flat keys and paths below a declared prefix", () => {
    const pool = poolOf([], { "env.a": { b: 1 }, "sys.query": "" });
    expect(pool.hasGlobal("sys.query")).toBe(true);
    expect(pool.hasGlobal("env.a")).toBe(true);
    expect(pool.hasGlobal("env.a.b")).toBe(true);
    expect(pool.hasGlobal("env.a.anything")).toBe(true);
    expect(pool.hasGlobal("env.b")).toBe(false);
    expect(pool.hasGlobal("env")).toBe(false);
  });

  it("never treats the scope alone as a variable", () => {
    const pool = poolOf([], { env: { a: 1 }, sys: { query: "x" } });
    expect(() => pool.get("env.a")).toThrow(MissingReferenceError);
    expect(() => pool.get("sys.query")).toThrow(MissingReferenceError);
  });

  it("throws MissingReferenceError naming unknown globals", () => {
    const pool = poolOf([], { "env.a": 1 });
    const env = caught(() => pool.get("env.missing"));
    expect(env).toBeInstanceOf(MissingReferenceError);
    expect((env as MissingReferenceError).reference).toBe("env.missing");
    expect(env.message).toBe('reference {env.missing}: no conversation variable "env.missing" is defined');
    const sys = caught(() => pool.get("{sys.nothing}"));
    expect(sys.message).toBe('reference {sys.nothing}: no system variable "sys.nothing" is defined');
  });

  it("writes the literal key when it exists", () => {
    const obj = { b: 1 };
    const pool = poolOf([], { "env.a": obj, "env.a.b": "literal" });
    pool.set(ref("env.a.b"), "changed");
    expect(pool.globals["env.a.b"]).toBe("changed");
    expect(pool.globals["env.a"]).toBe(obj);
  });

  it("writes into a declared prefix with copy on write", () => {
    const obj = { b: 1, list: [1, 2] };
    const pool = poolOf([], { "env.a": obj });
    pool.set(ref("env.a.c"), 2);
    pool.set(ref("env.a.list.1"), 20);
    expect(pool.globals["env.a"]).toEqual({ b: 1, c: 2, list: [1, 20] });
    expect(obj).toEqual({ b: 1, list: [1, 2] });
    expect(Object.hasOwn(pool.globals, "env.a.c")).toBe(false);
  });

  it("creates a new flat key when nothing matches", () => {
    const pool = poolOf([], {});
    pool.set(ref("env.x.y"), 1);
    pool.set(ref("sys.new"), "n");
    expect(pool.globals).toEqual({ "env.x.y": 1, "sys.new": "n" });
    expect(pool.get("env.x.y")).toBe(1);
  });

  it("removes a whole global written as undefined (a snapshot would drop it too)", () => {
    const pool = poolOf([], { "sys.x": 1, "env.obj": { a: 1 } });
    pool.set(ref("sys.x"), undefined);
    pool.set(ref("sys.never"), undefined);
    expect(Object.keys(pool.globals)).toEqual(["env.obj"]);
    expect(caught(() => pool.get("sys.x"))).toBeInstanceOf(MissingReferenceError);
    // Below a prefix, undefined is a value written into the object, as before.
    pool.set(ref("env.obj.a"), undefined);
    expect(Object.keys(pool.globals)).toEqual(["env.obj"]);
  });

  it("refuses forbidden keys in global paths", () => {
    const pool = poolOf([], { "env.a": {} });
    expect(() => pool.set(ref("env.a.__proto__.polluted"), true)).toThrow(UnsafePathError);
    expect(() => pool.set(ref("env.b.constructor"), true)).toThrow(UnsafePathError);
    expect(() => pool.set(ref("env.prototype"), true)).toThrow(UnsafePathError);
    expect(() => pool.get("env.a.__proto__")).toThrow(UnsafePathError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("the global key matched case-insensitively by scope reads the lower-case key", () => {
    const pool = poolOf([], { "sys.query": "q" });
    expect(pool.get("SYS.query")).toBe("q");
  });
});

describe("VariablePool: appending to a list global (sys.history)", () => {
  it("appends in place while nobody outside the pool holds the list: no copy per turn", () => {
    const pool = poolOf([], { "sys.history": ["user: a"] });
    pool.append(ref("sys.history"), "assistant: b");
    const list = pool.globals["sys.history"];
    for (const line of ["user: c", "assistant: d"]) pool.append(ref("sys.history"), line);
    expect(pool.globals["sys.history"]).toBe(list);
    expect(list).toEqual(["user: a", "assistant: b", "user: c", "assistant: d"]);
  });

  it("copies once a read handed the list out, so what the reader holds never changes", () => {
    const pool = poolOf([], { "sys.history": [] });
    pool.append(ref("sys.history"), "user: a");
    const seen = pool.get("sys.history");
    pool.append(ref("sys.history"), "assistant: b");
    pool.append(ref("sys.history"), "user: c");
    expect(seen).toEqual(["user: a"]);
    expect(pool.get("sys.history")).toEqual(["user: a", "assistant: b", "user: c"]);
  });

  it("copies a list that was written from outside before extending it (the writer's value stays as it was)", () => {
    const pool = poolOf([], { "sys.history": [] });
    pool.append(ref("sys.history"), "user: a");
    const mine = ["x"];
    pool.set(ref("sys.history"), mine);
    pool.append(ref("sys.history"), "user: b");
    expect(mine).toEqual(["x"]);
    expect(pool.globals["sys.history"]).toEqual(["x", "user: b"]);
    const given = ["given"];
    const fresh = poolOf([], { "sys.history": given });
    fresh.append(ref("sys.history"), "user: c");
    expect(given).toEqual(["given"]);
  });

  it("starts a one-item list when the global is missing", () => {
    const pool = poolOf([], {});
    pool.append(ref("sys.other"), 1);
    expect(pool.globals["sys.other"]).toEqual([1]);
  });
});

// ---- the prototype-pollution property ----

const nastyKey = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "polluted", "toString", "0", "-1", "a", "b"),
  fc.string({ maxLength: 5 }),
);
const nastyValue = fc.oneof(
  fc.jsonValue(),
  fc.constant({ polluted: true }),
  fc.constant(JSON.parse('{"__proto__": {"polluted": true}}')),
  fc.constant('{"__proto__": {"polluted": true}}'),
);
const operation = fc.oneof(
  fc.record({ op: fc.constant("set" as const), head: fc.constantFrom("a@", "b@", "env.", "sys."), keys: fc.array(nastyKey, { minLength: 1, maxLength: 4 }), value: nastyValue }),
  fc.record({ op: fc.constant("setOutput" as const), key: nastyKey, value: nastyValue }),
  fc.record({ op: fc.constant("replaceOutputs" as const), json: fc.dictionary(nastyKey, fc.jsonValue(), { maxKeys: 3 }).map((d) => JSON.stringify(d).replace('"polluted"', '"__proto__"')) }),
  fc.record({ op: fc.constant("get" as const), head: fc.constantFrom("a@", "b@", "env.", "sys."), keys: fc.array(nastyKey, { minLength: 1, maxLength: 4 }) }),
);

function prototypeSnapshot(): Record<string, PropertyDescriptor> {
  return Object.getOwnPropertyDescriptors(Object.prototype);
}

describe("pool property: no sequence of operations pollutes Object.prototype", () => {
  it("after any sets and gets with arbitrary keys, ({}).polluted is undefined and Object.prototype is unchanged", () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 12 }), (ops) => {
        const pool = poolOf(["a", "b"], { "env.obj": { inner: {} } });
        for (const op of ops) {
          try {
            if (op.op === "set") pool.set(refOf(op.head, op.keys), op.value);
            else if (op.op === "setOutput") pool.setOutput("a", op.key, op.value);
            else if (op.op === "replaceOutputs") pool.replaceOutputs("b", JSON.parse(op.json));
            else pool.get(`${op.head}${op.keys.join(".")}`);
          } catch (error) {
            // PathWriteError: a write past the end of a list is refused.
            const expected = [UnsafePathError, MissingReferenceError, NotASelector, PathWriteError];
            if (!expected.some((type) => error instanceof type)) throw error;
          }
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getPrototypeOf(pool.globals)).toBe(Object.prototype);
        for (const outputs of Object.values(pool.allOutputs())) expect(Object.getPrototypeOf(outputs)).toBe(Object.prototype);
        expect(prototypeSnapshot()).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });
});

class NotASelector extends Error {}

function refOf(head: string, keys: string[]): Reference {
  const parsed = parseSelector(`${head}${keys.join(".")}`);
  if (!parsed) throw new NotASelector();
  return parsed;
}
