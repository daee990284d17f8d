import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadCanvas } from "../../src/api.js";
import {
  appendOrUpdate,
  combine,
  dataOperation,
  DataOperations,
  filterValues,
  ForbiddenKeyError,
  literalEval,
  removeKeys,
  renameKeys,
  selectKeys,
} from "../../src/components/data-operations.js";
import { looksLikeLiteral, parseLiteral, type LiteralValue } from "../../src/components/literal-eval.js";
import { canvasWithEnv, finished, node, outputsOf } from "../helpers/dsl.js";

/** Run one DataOperations (id DataOperations:D) over env variables. */
async function runData(params: Record<string, unknown>, variables: Record<string, unknown>, query = "") {
  const dsl = canvasWithEnv({ begin: node("Begin", {}, ["DataOperations:D"]), "DataOperations:D": node("DataOperations", params) }, variables);
  const events = await (await loadCanvas(dsl)).runToEnd({ query });
  const error = finished(events).error;
  return error ? { error } : { result: outputsOf(events, "DataOperations:D").result, events };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

// ---- literal_eval ----

describe("parseLiteral: Python and JSON literals", () => {
  it.each<[string, LiteralValue]>([
    ["1", 1],
    ["1.5", 1.5],
    ["-2", -2],
    ["+3", 3],
    ["- 4", -4],
    ["1_000", 1000],
    ["0x1F", 31],
    ["0o17", 15],
    ["0b101", 5],
    ["1e3", 1000],
    ["2.5E-1", 0.25],
    ["1.", 1],
    [".5", 0.5],
    ["00", 0],
    ["007.5", 7.5],
    ["-0", 0],
    ["'a'", "a"],
    ['"a"', "a"],
    ["'a' \"b\"", "ab"],
    ["r'\\n'", "\\n"],
    ["u'x'", "x"],
    ["'\\n\\t\\\\\\''", "\n\t\\'"],
    ["'\\x41\\101\\u00e9\\U0001F600'", "AAé😀"],
    ["'\\d'", "\\d"],
    ['"\\/"', "/"],
    ['"\\ud83d\\ude00"', "😀"],
    ["'''a\nb'''", "a\nb"],
    ['"""it\'s"""', "it's"],
    ["True", true],
    ["False", false],
    ["None", null],
    ["true", true],
    ["null", null],
    ["[1, 2,]", [1, 2]],
    ["[]", []],
    ["()", []],
    ["(1,)", [1]],
    ["(1)", 1],
    ["(1, 'a', None)", [1, "a", null]],
    ["[1, # one\n 2]", [1, 2]],
    ["[\n  1,\n  2\n]", [1, 2]],
    ["{}", {}],
    ["{'a': (1, 2), 'b': [True, None]}", { a: [1, 2], b: [true, null] }],
    ["{1: 'x', 2.0: 'y', True: 'z', None: 'n', -1: 'm'}", { "1": "x", "2.0": "y", true: "z", null: "n", "-1": "m" }],
    ["{'a': 1, 'a': 2}", { a: 2 }],
    ['{"a": [1, 2.5, true, null], "b": {"c": "d"}}', { a: [1, 2.5, true, null], b: { c: "d" } }],
    ["  [1]  ", [1]],
  ])("%j", (text, expected) => {
    expect(parseLiteral(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    "",
    "hello",
    "007",
    "1j",
    "1+2j",
    "--1",
    "1__0",
    "1_",
    "0x",
    "1.2.3",
    "1e999",
    "12345678901234567890",
    "TRUE",
    "none",
    "Infinity",
    "NaN",
    "b'x'",
    "f'x'",
    "'a",
    "'a\nb'",
    "r'\\'",
    "'\\N{BULLET}'",
    "'\\x4'",
    "{1, 2}",
    "{[1]: 2}",
    "{(1, 2): 3}",
    "[1, 2",
    "[1 2]",
    "[,]",
    "(,)",
    "1\n2",
    "'a'\n'b'",
  ])("%j is not a literal", (text) => {
    expect(parseLiteral(text)).toEqual({ ok: false });
  });

  it.each([
    "__import__('os').system('ls')",
    "1+1",
    "[1+1]",
    "lambda: 1",
    "os.getcwd()",
    "{'a': open('x')}",
    "[x for x in y]",
    "print(1)",
    "().__class__",
    "'a'.upper()",
    "'a' * 3",
    "-'a'",
    "1 if True else 2",
    "{**a}",
    "[*a]",
    "globalThis.pwned = 1",
    "eval('1')",
  ])("never evaluates code: %j", (text) => {
    expect(parseLiteral(text)).toEqual({ ok: false });
    expect(literalEval({ v: text })).toEqual({ v: text });
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
  });

  it("reports prototype keys of a dict that parses, and only then", () => {
    expect(parseLiteral("{'__proto__': 1}")).toEqual({ ok: false, forbiddenKey: "__proto__" });
    expect(parseLiteral('{"a": {"constructor": 1}}')).toEqual({ ok: false, forbiddenKey: "constructor" });
    expect(parseLiteral('{"__proto__": 1')).toEqual({ ok: false });
  });

  it("refuses nesting deeper than it can safely read", () => {
    expect(parseLiteral("[".repeat(100) + "]".repeat(100)).ok).toBe(true);
    expect(parseLiteral("[".repeat(100_000) + "]".repeat(100_000))).toEqual({ ok: false });
  });

  it("reads large texts in linear time", () => {
    const numbers = Array.from({ length: 200_000 }, (_, i) => i * 7);
    const started = performance.now();
    expect(parseLiteral(`[${numbers.join(", ")}]`)).toEqual({ ok: true, value: numbers });
    expect(looksLikeLiteral("1".repeat(200_000) + "x")).toBe(false);
    expect(parseLiteral(`'${"a".repeat(500_000)}`)).toEqual({ ok: false });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("never throws on arbitrary text (property)", () => {
    const literalish = fc.string({ unit: fc.constantFrom("[", "]", "(", ")", "{", "}", ",", ":", "'", '"', "\\", "x", "u", "0", "1", "9", ".", "e", "-", "+", "_", " ", "\n", "#", "True", "None", "null", "r", "b", "j") });
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), literalish), (text) => {
        const result = parseLiteral(text);
        if (result.ok) expect(JSON.parse(JSON.stringify(result.value))).toEqual(result.value);
        // Only a dict with a prototype key may make literalEval fail (with a clear error).
        if (!/__proto__|constructor|prototype/.test(text)) expect(() => literalEval([{ text }])).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });

  const keys = fc.string().filter((k) => !["__proto__", "constructor", "prototype"].includes(k));
  const jsonish = fc.letrec<{ value: LiteralValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
      fc.double({ min: -1e15, max: 1e15, noNaN: true }).map((x) => (x === 0 ? 0 : x)),
      fc.string(),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(keys, tie("value"), { maxKeys: 4 }),
    ),
  })).value;

  it("reads JSON text back as the same value (property)", () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        expect(parseLiteral(JSON.stringify(value))).toEqual({ ok: true, value });
      }),
    );
  });

  /** Python's repr of a value (tuples for some lists), as an LLM or str() would write it. */
  function pythonRepr(value: LiteralValue, tuple: boolean): string {
    if (value === null) return "None";
    if (value === true) return "True";
    if (value === false) return "False";
    if (typeof value === "number") return String(value);
    if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}'`;
    if (Array.isArray(value)) {
      const items = value.map((v) => pythonRepr(v, !tuple));
      return tuple ? `(${items.join(", ")}${items.length === 1 ? "," : ""})` : `[${items.join(", ")}]`;
    }
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonRepr(k, tuple)}: ${pythonRepr(v, !tuple)}`)
      .join(", ")}}`;
  }

  it("reads Python's repr back as the same value, tuples as lists (property)", () => {
    fc.assert(
      fc.property(jsonish, fc.boolean(), (value, tuple) => {
        expect(parseLiteral(pythonRepr(value, tuple))).toEqual({ ok: true, value });
      }),
    );
  });

  it("tries only texts that look like literals, as RAGFlow does (plus a leading minus)", () => {
    expect(["[1]", "(1,)", "{}", "'x'", '"x"', "True", "None", "null", "1", "1.5", "-5", " 7 ", "1.2.3"].every(looksLikeLiteral)).toBe(true);
    expect(["1e5", "0x1F", "1_000", "hello", "", "  ", "u'x'", "Truex", "+5"].some(looksLikeLiteral)).toBe(false);
  });
});

describe("literalEval", () => {
  it("reads literal-looking texts inside objects and lists, once", () => {
    const input = deepFreeze({
      a: "1",
      b: "[1, 2]",
      c: "hello",
      d: "True",
      e: "-5",
      f: "1e5",
      g: "007",
      h: "0x1F",
      i: "  {'k': 'v'}  ",
      j: ["2", { x: "None" }],
      k: 3,
      l: "['1']",
      m: "12345678901234567890",
      n: "",
    });
    expect(literalEval([input])).toEqual([
      { a: 1, b: [1, 2], c: "hello", d: true, e: -5, f: "1e5", g: "007", h: "0x1F", i: { k: "v" }, j: [2, { x: null }], k: 3, l: ["1"], m: "12345678901234567890", n: "" },
    ]);
  });

  it("fails clearly on a prototype key", () => {
    expect(() => literalEval([{ v: "{'__proto__': {'polluted': 1}}" }])).toThrow(new ForbiddenKeyError("__proto__", "literal_eval"));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

// ---- the other operations ----

describe("DataOperations operations", () => {
  const rows = deepFreeze([
    { name: "Ann", age: 30, tags: ["a"], city: "Paris" },
    { name: "Bob", age: "41", city: null },
    { name: "Cy", tags: "b" },
  ]);

  it("select_keys keeps the chosen keys in each object's own order", () => {
    expect(selectKeys(rows, ["city", "name", "missing", 3])).toEqual([{ name: "Ann", city: "Paris" }, { name: "Bob", city: null }, { name: "Cy" }]);
  });

  it("combine collects clashing keys into lists without changing its inputs", () => {
    expect(combine(rows)).toEqual({ name: ["Ann", "Bob", "Cy"], age: [30, "41"], tags: ["a", "b"], city: ["Paris", null] });
    expect(combine([{ a: [1] }, { a: [2, 3] }, { a: 4 }])).toEqual({ a: [1, 2, 3, 4] });
    expect(combine([{ a: 1 }, { a: [2, 3] }])).toEqual({ a: [1, 2, 3] });
    expect(combine([])).toEqual({});
  });

  it.each<[string, Array<{ key: string; operator: "=" | "≠" | "contains" | "start with" | "end with"; value: string }>, string[]]>([
    ["no rules keeps all", [], ["Ann", "Bob", "Cy"]],
    ["= on numbers as text", [{ key: "age", operator: "=", value: "30" }], ["Ann"]],
    ["= on a text number", [{ key: "age", operator: "=", value: "41" }], ["Bob"]],
    ["≠ needs the key", [{ key: "age", operator: "≠", value: "30" }], ["Bob"]],
    ["null is the empty text", [{ key: "city", operator: "=", value: "" }], ["Bob"]],
    ["contains on a list's Python text", [{ key: "tags", operator: "contains", value: "['a'" }], ["Ann"]],
    ["every rule must match", [{ key: "name", operator: "start with", value: "A" }, { key: "city", operator: "end with", value: "is" }], ["Ann"]],
    ["every rule must match (none)", [{ key: "name", operator: "start with", value: "B" }, { key: "city", operator: "end with", value: "is" }], []],
  ])("filter_values: %s", (_label, rules, names) => {
    expect(filterValues(rows, rules).map((r) => r.name)).toEqual(names);
  });

  it("filter_values compares values as Python's str() writes them, as RAGFlow does", () => {
    const flags = [{ id: 1, ok: true }, { id: 2, ok: false }, { id: 3, ok: "True" }, { id: 4, ok: null }];
    expect(filterValues(flags, [{ key: "ok", operator: "=", value: "True" }]).map((r) => r.id)).toEqual([1, 3]);
    expect(filterValues(flags, [{ key: "ok", operator: "=", value: "" }]).map((r) => r.id)).toEqual([4]);
  });

  it("append_or_update adds keys at the end or replaces them in place", () => {
    expect(appendOrUpdate([{ a: 1, b: 2 }], [{ key: "a", value: "x" }, { key: "c", value: [1] }])).toEqual([{ a: "x", b: 2, c: [1] }]);
    expect(Object.keys(appendOrUpdate([{ a: 1, b: 2 }], [{ key: "a", value: 0 }])[0])).toEqual(["a", "b"]);
  });

  it("remove_keys drops the keys, ignoring non-texts", () => {
    expect(removeKeys(rows, ["age", "tags", 7])).toEqual([{ name: "Ann", city: "Paris" }, { name: "Bob", city: null }, { name: "Cy" }]);
  });

  it("rename_keys renames in order; a renamed key moves to the end unless it replaces an existing key", () => {
    expect(renameKeys([{ a: 1, b: 2, c: 3 }], [{ oldKey: "a", newKey: "z" }]).map(Object.entries)).toEqual([[["b", 2], ["c", 3], ["z", 1]]]);
    expect(renameKeys([{ a: 1, b: 2, c: 3 }], [{ oldKey: "c", newKey: "a" }]).map(Object.entries)).toEqual([[["a", 3], ["b", 2]]]);
    expect(renameKeys([{ a: 1 }], [{ oldKey: "a", newKey: "b" }, { oldKey: "b", newKey: "c" }, { oldKey: "x", newKey: "y" }])).toEqual([{ c: 1 }]);
  });

  it("never writes a prototype key", () => {
    expect(() => appendOrUpdate([{ a: 1 }], [{ key: "__proto__", value: { polluted: true } }])).toThrow('append_or_update: the key "__proto__" is not allowed');
    expect(() => renameKeys([{ a: 1 }], [{ oldKey: "a", newKey: "constructor" }])).toThrow('rename_keys: the key "constructor" is not allowed');
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    expect(() => combine([hostile])).toThrow('combine: the key "__proto__" is not allowed');
    expect(removeKeys([hostile], ["__proto__"])).toEqual([{ a: 1 }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reads the operation names of the current and the earlier RAGFlow", () => {
    expect(["select_keys", "select keys", " append or update ", "", null, undefined].map(dataOperation)).toEqual(["select_keys", "select_keys", "append_or_update", "literal_eval", "literal_eval", "literal_eval"]);
    expect(dataOperation("recursive_eval")).toBeUndefined();
  });

  it("an object changed by append_or_update then remove_keys is the original (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string().filter((k) => !["__proto__", "constructor", "prototype", "added"].includes(k)), fc.jsonValue()), fc.jsonValue(), (row, value) => {
        const frozen = deepFreeze(structuredClone(row));
        const changed = appendOrUpdate([frozen], [{ key: "added", value }]);
        expect(changed[0].added).toEqual(value);
        expect(removeKeys(changed, ["added"])).toEqual([row]);
      }),
    );
  });
});

describe("DataOperations params", () => {
  const info = { id: "x", parentId: undefined, downstream: [], hasComponent: () => true, componentName: () => undefined, componentType: () => undefined, parentOf: () => undefined };

  it("reports an empty query, non-references, unknown operations, prototype keys and unknown operators", () => {
    const check = (params: Record<string, unknown>) => DataOperations.check!({ query: ["env.rows"], ...params }, info);
    expect(check({ query: [] })).toEqual([{ pointer: "/query", message: "query must list at least one reference to an object or a list of objects" }]);
    expect(check({ query: ["env.rows", "rows"] })).toEqual([{ pointer: "/query/1", message: '"rows" is not a reference (expected cpn@var, sys.x or env.x)' }]);
    expect(check({ operations: "recursive_eval" })[0]).toMatchObject({ pointer: "/operations" });
    expect(check({ operations: "append_or_update", updates: [{ key: "", value: 1 }, { key: " __proto__ ", value: 1 }] })).toEqual([
      { pointer: "/updates/1/key", message: 'the key "__proto__" is not allowed (it could reach an object\'s prototype)' },
    ]);
    expect(check({ operations: "select_keys", select_keys: ["a", "constructor"] })[0]).toMatchObject({ pointer: "/select_keys/1" });
    expect(check({ operations: "rename_keys", rename_keys: [{ old_key: "a", new_key: "prototype" }] })[0]).toMatchObject({ pointer: "/rename_keys/0/new_key" });
    expect(check({ operations: "filter_values", filter_values: [{ key: "a", operator: ">", value: "1" }] })[0]).toMatchObject({ pointer: "/filter_values/0/operator" });
  });

  it("reads its query and the references in the values the chosen operation renders", () => {
    const refs = (params: Record<string, unknown>) => DataOperations.references!(params).map((r) => r.expr);
    expect(refs({ query: ["a@x", { input: "{b@y}" }], operations: "append_or_update", updates: [{ key: "k", value: "{sys.query}!" }], filter_values: [{ key: "f", value: "{c@z}" }] })).toEqual([
      "a@x",
      "b@y",
      "sys.query",
    ]);
    expect(refs({ query: "a@x", operations: "filter_values", filter_values: [{ key: "f", value: "{c@z}" }] })).toEqual(["a@x", "c@z"]);
  });
});

describe("DataOperations in a canvas", () => {
  const variables = {
    one: { id: 1, score: "0.5" },
    rows: [{ id: 2, score: "[1, 2]" }, "skipped", 7, { id: 3, score: "None" }],
    empty: "",
  };

  it("collects objects and the objects inside lists, skipping empty values", async () => {
    const { result } = await runData({ query: ["env.one", "env.rows", "env.empty"], operations: "select_keys", select_keys: ["id"] }, variables);
    expect(result).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it("uses literal_eval when operations is absent (RAGFlow's backend default)", async () => {
    const { result } = await runData({ query: ["env.one", "env.rows"] }, variables);
    expect(result).toEqual([{ id: 1, score: 0.5 }, { id: 2, score: [1, 2] }, { id: 3, score: null }]);
  });

  it("combines into one object", async () => {
    const { result } = await runData({ query: ["env.one", "env.rows"], operations: "combine" }, variables);
    expect(result).toEqual({ id: [1, 2, 3], score: ["0.5", "[1, 2]", "None"] });
  });

  it("renders references in update and filter values", async () => {
    const updated = await runData(
      { query: ["env.one"], operations: "append or update", updates: [{ key: " who ", value: "{sys.query}-{env.one.id}" }, { key: "n", value: 5 }, { key: "", value: "skipped" }] },
      variables,
      "Ada",
    );
    expect(updated.result).toEqual([{ id: 1, score: "0.5", who: "Ada-1", n: 5 }]);
    const filtered = await runData({ query: ["env.rows"], operations: "filter_values", filter_values: [{ key: "id", operator: "=", value: "{sys.query}" }] }, variables, "3");
    expect(filtered.result).toEqual([{ id: 3, score: "None" }]);
  });

  it("renames and removes keys without changing the upstream value", async () => {
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["DataOperations:Rename"]),
        "DataOperations:Rename": node("DataOperations", { query: ["env.one"], operations: "rename_keys", rename_keys: [{ old_key: "score", new_key: "points" }] }, ["DataOperations:Remove"]),
        "DataOperations:Remove": node("DataOperations", { query: ["env.one"], operations: "remove_keys", remove_keys: [{ name: "id" }] }),
      },
      variables,
    );
    const events = await (await loadCanvas(dsl)).runToEnd({});
    expect(outputsOf(events, "DataOperations:Rename")).toEqual({ result: [{ id: 1, points: "0.5" }] });
    expect(outputsOf(events, "DataOperations:Remove")).toEqual({ result: [{ score: "0.5" }] });
  });

  it("fails clearly when a query value is neither an object nor a list", async () => {
    const { error } = await runData({ query: ["env.one", "env.n"], operations: "combine" }, { ...variables, n: 5 });
    expect(error).toContain('query "env.n" must give an object or a list of objects, got a number');
  });

  it("fails clearly when literal_eval meets a prototype key", async () => {
    const { error } = await runData({ query: ["env.bad"], operations: "literal_eval" }, { bad: { v: '{"__proto__": {"x": 1}}' } });
    expect(error).toContain('literal_eval: the key "__proto__" is not allowed');
  });

  it("refuses to load an update that would write a prototype key", async () => {
    const dsl = canvasWithEnv({
      begin: node("Begin", {}, ["DataOperations:D"]),
      "DataOperations:D": node("DataOperations", { query: ["sys.files"], operations: "append_or_update", updates: [{ key: "__proto__", value: "x" }] }),
    });
    await expect(loadCanvas(dsl)).rejects.toThrow('the key "__proto__" is not allowed');
  });
});
