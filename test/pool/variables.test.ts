import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  SYSTEM_GLOBALS,
  declaredDefault,
  formatSystemDate,
  freshSessionGlobals,
  globalPrefix,
  normalizeDeclarations,
  zeroForDeclaredType,
  zeroOfValue,
} from "../../src/pool/variables.js";

const NOW = new Date(2024, 0, 2, 3, 4, 5); // local time

describe("zeroForDeclaredType", () => {
  it("gives the zero of each front-end variable type", () => {
    expect(zeroForDeclaredType("number")).toBe(0);
    expect(zeroForDeclaredType("integer")).toBe(0);
    expect(zeroForDeclaredType("boolean")).toBe(false);
    expect(zeroForDeclaredType("object")).toEqual({});
    expect(zeroForDeclaredType("array<string>")).toEqual([]);
    expect(zeroForDeclaredType("array<object>")).toEqual([]);
    expect(zeroForDeclaredType("array")).toEqual([]);
    expect(zeroForDeclaredType("string")).toBe("");
    expect(zeroForDeclaredType("any")).toBeNull();
  });

  it("is lenient about case and spaces, and falls back to a string", () => {
    expect(zeroForDeclaredType(" Number ")).toBe(0);
    expect(zeroForDeclaredType("OBJECT")).toEqual({});
    expect(zeroForDeclaredType(undefined)).toBe("");
    expect(zeroForDeclaredType("something else")).toBe("");
  });

  it("returns a fresh container each time", () => {
    expect(zeroForDeclaredType("object")).not.toBe(zeroForDeclaredType("object"));
    expect(zeroForDeclaredType("array<number>")).not.toBe(zeroForDeclaredType("array<number>"));
  });
});

describe("zeroOfValue (RAGFlow's reset of sys.* globals)", () => {
  it("maps each runtime type to its zero", () => {
    expect(zeroOfValue("x")).toBe("");
    expect(zeroOfValue(3.5)).toBe(0);
    expect(zeroOfValue(true)).toBe(false);
    expect(zeroOfValue([1])).toEqual([]);
    expect(zeroOfValue({ a: 1 })).toEqual({});
    expect(zeroOfValue(null)).toBeNull();
    expect(zeroOfValue(undefined)).toBeNull();
  });
});

describe("declaredDefault", () => {
  it("uses the declared value when present", () => {
    expect(declaredDefault({ name: "n", type: "number", value: 5 })).toBe(5);
    expect(declaredDefault({ name: "s", type: "string", value: "" })).toBe("");
    expect(declaredDefault({ name: "b", type: "boolean", value: false })).toBe(false);
  });

  it("falls back to the type's zero for null or missing values", () => {
    expect(declaredDefault({ name: "n", type: "number", value: null })).toBe(0);
    expect(declaredDefault({ name: "o", type: "object" })).toEqual({});
    expect(declaredDefault({ name: "l", type: "array<string>" })).toEqual([]);
    expect(declaredDefault({ name: "u" })).toBe("");
  });

  it("returns a copy, so a run cannot change the declaration", () => {
    const declaration = { name: "o", type: "object", value: { list: [1] } };
    const value = declaredDefault(declaration) as { list: number[] };
    value.list.push(2);
    expect(declaration.value).toEqual({ list: [1] });
  });
});

describe("normalizeDeclarations", () => {
  it("keys a list of declarations by name, skipping malformed entries", () => {
    const out = normalizeDeclarations([
      { name: "a", type: "number", value: 1 },
      { type: "string" },
      null,
      "x",
      { name: 3 },
      { name: "b", type: "string" },
    ]);
    expect(out).toEqual({ a: { name: "a", type: "number", value: 1 }, b: { name: "b", type: "string" } });
  });

  it("adds the record key as the name of a record of declarations", () => {
    expect(normalizeDeclarations({ a: { type: "number", value: 2 }, bad: 5, nil: null })).toEqual({
      a: { name: "a", type: "number", value: 2 },
    });
  });

  it("keeps names that are also Object.prototype keys as own declarations", () => {
    const out = normalizeDeclarations([
      { name: "__proto__", type: "number" },
      { name: "constructor", type: "string" },
    ]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__", "constructor"]);
    expect(out.constructor).toEqual({ name: "constructor", type: "string" });
    const fromRecord = normalizeDeclarations(JSON.parse('{"__proto__": {"type": "boolean"}}'));
    expect(Object.getPrototypeOf(fromRecord)).toBe(Object.prototype);
    expect(Object.keys(fromRecord)).toEqual(["__proto__"]);
  });

  it("treats anything else (RAGFlow's empty list included) as no declarations", () => {
    expect(normalizeDeclarations([])).toEqual({});
    expect(normalizeDeclarations(undefined)).toEqual({});
    expect(normalizeDeclarations("nope")).toEqual({});
  });
});

describe("formatSystemDate", () => {
  it("uses RAGFlow's %Y-%m-%d %H:%M:%S in local time, zero-padded", () => {
    expect(formatSystemDate(NOW)).toBe("2024-01-02 03:04:05");
    expect(formatSystemDate(new Date(1999, 11, 31, 23, 59, 58))).toBe("1999-12-31 23:59:58");
  });
});

describe("freshSessionGlobals (ragflow.md §2.2)", () => {
  it("gives every system global its default on an empty canvas", () => {
    const globals = freshSessionGlobals(undefined, {}, { now: NOW });
    expect(globals).toEqual({
      "sys.query": "",
      "sys.user_id": "",
      "sys.conversation_turns": 0,
      "sys.files": [],
      "sys.history": [],
      "sys.date": "2024-01-02 03:04:05",
    });
    expect(Object.keys(globals).sort()).toEqual([...SYSTEM_GLOBALS].sort());
  });

  it("takes the user id from the options", () => {
    expect(freshSessionGlobals({}, {}, { userId: "u1", now: NOW })["sys.user_id"]).toBe("u1");
  });

  it("resets stored system globals, extra ones to the zero of their type", () => {
    const globals = freshSessionGlobals(
      {
        "sys.query": "old question",
        "sys.user_id": "old user",
        "sys.conversation_turns": 7,
        "sys.files": ["f"],
        "sys.history": ["user: hi"],
        "sys.date": "2000-01-01 00:00:00",
        "sys.chat_template_kwargs": { enable_thinking: true },
        "sys.flag": true,
        "sys.nothing": null,
      },
      {},
      { now: NOW },
    );
    expect(globals).toMatchObject({
      "sys.query": "",
      "sys.user_id": "",
      "sys.conversation_turns": 0,
      "sys.files": [],
      "sys.history": [],
      "sys.date": "2024-01-02 03:04:05",
      "sys.chat_template_kwargs": {},
      "sys.flag": false,
      "sys.nothing": null,
    });
  });

  it("resets every declared conversation variable to its default, stored or not", () => {
    const declarations = normalizeDeclarations([
      { name: "count", type: "number", value: 3 },
      { name: "tags", type: "array<string>" },
      { name: "profile", type: "object", value: null },
      { name: "done", type: "boolean" },
      { name: "note" },
    ]);
    const globals = freshSessionGlobals({ "env.count": 99, "env.tags": ["stale"] }, declarations, { now: NOW });
    expect(globals["env.count"]).toBe(3);
    expect(globals["env.tags"]).toEqual([]);
    expect(globals["env.profile"]).toEqual({});
    expect(globals["env.done"]).toBe(false);
    expect(globals["env.note"]).toBe("");
  });

  it("keeps undeclared env.* keys and keys outside sys/env as stored", () => {
    // NB RAGFlow's reset sets an undeclared env.<k> to "" (ragflow.md §2.2); canvasflow keeps it.
    const globals = freshSessionGlobals({ "env.stale": "kept", custom: { x: 1 } }, {}, { now: NOW });
    expect(globals["env.stale"]).toBe("kept");
    expect(globals.custom).toEqual({ x: 1 });
  });

  it("looks declarations up by own key only", () => {
    const globals = freshSessionGlobals({ "env.toString": "kept", "env.hasOwnProperty": 1 }, {}, { now: NOW });
    expect(globals["env.toString"]).toBe("kept");
    expect(globals["env.hasOwnProperty"]).toBe(1);
  });

  it("keeps a stored '__proto__' key as data, never as the prototype", () => {
    const globals = freshSessionGlobals(JSON.parse('{"__proto__": {"injected": 1}}'), {}, { now: NOW });
    expect(Object.getPrototypeOf(globals)).toBe(Object.prototype);
    expect((globals as { injected?: unknown }).injected).toBeUndefined();
    expect(Object.hasOwn(globals, "__proto__")).toBe(true);
  });

  it("does not share declared default values between sessions", () => {
    const declarations = normalizeDeclarations([{ name: "list", type: "array<number>", value: [1] }]);
    const first = freshSessionGlobals(undefined, declarations, { now: NOW });
    (first["env.list"] as number[]).push(2);
    const second = freshSessionGlobals(undefined, declarations, { now: NOW });
    expect(second["env.list"]).toEqual([1]);
    expect(declarations.list.value).toEqual([1]);
  });

  it("does not modify the stored globals", () => {
    const stored = { "sys.query": "q", "env.a": 1 };
    freshSessionGlobals(stored, normalizeDeclarations([{ name: "a", type: "number" }]), { now: NOW });
    expect(stored).toEqual({ "sys.query": "q", "env.a": 1 });
  });

  it("property: system defaults always hold, declared variables always get their default", () => {
    const key = fc.oneof(
      fc.string({ unit: fc.constantFrom(..."abcxyz_09".split("")), minLength: 1, maxLength: 6 }),
      fc.constantFrom("toString", "constructor", "__proto__", "valueOf", "query", "date"),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(key.map((k) => `sys.${k}`), key.map((k) => `env.${k}`), key), fc.jsonValue()),
        fc.dictionary(key, fc.record({ type: fc.constantFrom("string", "number", "boolean", "object", "array<string>"), value: fc.option(fc.jsonValue()) })),
        (stored, raw) => {
          const declarations = normalizeDeclarations(raw);
          const globals = freshSessionGlobals(stored, declarations, { now: NOW });
          expect(globals["sys.query"]).toBe("");
          expect(globals["sys.conversation_turns"]).toBe(0);
          expect(globals["sys.date"]).toBe("2024-01-02 03:04:05");
          for (const [name, declaration] of Object.entries(declarations)) {
            expect(globals[`env.${name}`]).toEqual(declaredDefault(declaration));
          }
          for (const [k, v] of Object.entries(stored)) {
            if (k.startsWith("sys.") && !(SYSTEM_GLOBALS as readonly string[]).includes(k)) expect(globals[k]).toEqual(zeroOfValue(v));
            if (!k.startsWith("sys.") && !k.startsWith("env.")) expect(globals[k]).toEqual(v);
            if (k.startsWith("env.") && !Object.hasOwn(declarations, k.slice(4))) expect(globals[k]).toEqual(v);
          }
        },
      ),
    );
  });
});

describe("globalPrefix (shared by the pool and the validator)", () => {
  const globals = { "env.a": { b: 1 }, "env.a.c": { d: 2 }, "sys.query": "", env: "not a variable", "env.": "odd" };

  it("is the longest global that prefixes the key at a dot", () => {
    expect(globalPrefix(globals, "env.a.b")).toBe("env.a");
    expect(globalPrefix(globals, "env.a.c.d")).toBe("env.a.c");
    expect(globalPrefix(globals, "env.a.c.d.e")).toBe("env.a.c");
    expect(globalPrefix(globals, "sys.query.x")).toBe("sys.query");
  });

  it("is undefined for the exact key itself, unrelated keys and the scope alone", () => {
    expect(globalPrefix(globals, "env.a")).toBeUndefined();
    expect(globalPrefix(globals, "env.ab.c")).toBeUndefined();
    expect(globalPrefix(globals, "env.x")).toBeUndefined();
    expect(globalPrefix(globals, "env.x.y")).toBeUndefined();
    expect(globalPrefix({ "env.": 1, env: 2 }, "env..x")).toBeUndefined();
  });

  it("only finds own keys", () => {
    expect(globalPrefix({}, "env.constructor.name")).toBeUndefined();
    expect(globalPrefix(Object.create({ "env.a": 1 }) as Record<string, unknown>, "env.a.b")).toBeUndefined();
  });

  it("finds a prefix exactly when one of the key's dotted heads (past the scope) is a global", () => {
    const segment = fc.constantFrom("a", "b", "c");
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.array(fc.array(segment, { minLength: 1, maxLength: 3 })), (path, keys) => {
        const g = Object.fromEntries(keys.map((k) => [`env.${k.join(".")}`, 0]));
        const key = `env.${path.join(".")}`;
        const heads = path.slice(0, -1).map((_, i) => `env.${path.slice(0, i + 1).join(".")}`);
        const expected = heads.filter((h) => Object.hasOwn(g, h)).at(-1);
        expect(globalPrefix(g, key)).toBe(expected);
      }),
    );
  });
});
