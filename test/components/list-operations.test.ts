import { describe, expect, it } from "vitest";
import fc from "fast-check";
import lodash from "lodash";
import { loadCanvas } from "../../src/api.js";
import {
  compareValues,
  countOf,
  dropDuplicates,
  filterItems,
  head,
  isStrict,
  listOperation,
  ListOperations,
  nth,
  sortItems,
  sortKeys,
  tail,
} from "../../src/components/list-operations.js";
import { canvasWithEnv, finished, node, outputsOf } from "../helpers/dsl.js";

/** Run one ListOperations over env.items and return its outputs (or the run's error). */
async function runList(items: unknown, params: Record<string, unknown>): Promise<{ outputs?: Record<string, unknown>; error?: string }> {
  const dsl = canvasWithEnv(
    { begin: node("Begin", {}, ["ListOperations:L"]), "ListOperations:L": node("ListOperations", { query: "env.items", ...params }) },
    { items },
  );
  const events = await (await loadCanvas(dsl)).runToEnd({});
  const error = finished(events).error;
  return error ? { error } : { outputs: outputsOf(events, "ListOperations:L") };
}

const letters = ["a", "b", "c", "d", "e"];

// Ported from RAGFlow's test_list_operations_unit.py.
describe("nth, head and tail (RAGFlow's unit tests)", () => {
  it.each<[number, string[]]>([
    [0, []],
    [-1, ["e"]],
    [-5, ["a"]],
    [-6, []],
    [2, ["b"]],
    [5, ["e"]],
    [6, []],
  ])("nth %i → %j (lenient)", (n, expected) => {
    expect(nth(letters, n, false)).toEqual(expected);
  });

  it.each<[boolean, number, string[]]>([
    [false, 0, []],
    [false, 2, ["a", "b"]],
    [false, 10, letters],
    [true, 2, ["a", "b"]],
    [false, -3, []],
  ])("head strict=%s n=%i → %j", (strict, n, expected) => {
    expect(head(letters, n, strict)).toEqual(expected);
  });

  it.each<[boolean, number, string[]]>([
    [false, 0, []],
    [false, 2, ["d", "e"]],
    [false, 10, letters],
    [true, 2, ["d", "e"]],
  ])("tail strict=%s n=%i → %j", (strict, n, expected) => {
    expect(tail(letters, n, strict)).toEqual(expected);
  });

  it.each([0, 10])("head and tail in strict mode fail for n=%i", (n) => {
    expect(() => head(letters, n, true)).toThrow(`head: n=${n} is out of range for a list of 5 items (strict mode needs 1 ≤ n ≤ 5)`);
    expect(() => tail(letters, n, true)).toThrow(`tail: n=${n} is out of range for a list of 5 items`);
  });

  it.each([0, 6, -6])("nth in strict mode fails for n=%i", (n) => {
    expect(() => nth(letters, n, true)).toThrow(`nth: n=${n} is out of range for a list of 5 items (strict mode needs 1 ≤ |n| ≤ 5)`);
  });

  it("topN (any case) means head, empty means nth", () => {
    expect(listOperation("topN")).toBe("head");
    expect(listOperation(" TOPN ")).toBe("head");
    expect(listOperation("")).toBe("nth");
    expect(listOperation(null)).toBe("nth");
    expect(listOperation("sort")).toBe("sort");
    expect(listOperation("Sort")).toBeUndefined();
  });

  it("reads n as Python's int() and strict as RAGFlow does", () => {
    expect([countOf(2), countOf("3"), countOf(" -2 "), countOf(2.9), countOf(-2.9), countOf(null), countOf(""), countOf("2.5"), countOf("x")]).toEqual([2, 3, -2, 2, -2, 0, 0, undefined, undefined]);
    expect(["1", "TRUE", " yes ", "on", true, 1].map(isStrict)).toEqual([true, true, true, true, true, true]);
    expect(["0", "false", "no", "", false, 0, null].map(isStrict)).toEqual([false, false, false, false, false, false, false]);
  });

  it("head(n) followed by tail(len - n) is the whole list (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.nat(), (items, k) => {
        const n = items.length === 0 ? 0 : k % (items.length + 1);
        expect([...head(items, n, false), ...tail(items, items.length - n, false)]).toEqual(items);
      }),
    );
  });

  it("nth(i) and nth(i - len - 1) name the same item (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 1 }), fc.nat(), (items, k) => {
        const i = (k % items.length) + 1;
        expect(nth(items, i, true)).toEqual([items[i - 1]]);
        expect(nth(items, i - items.length - 1, true)).toEqual([items[i - 1]]);
      }),
    );
  });
});

describe("filter", () => {
  const items = ["apple", "banana", "cherry", null, 42, { a: 1 }];
  it.each<[string, unknown, unknown[]]>([
    ["=", "banana", ["banana"]],
    ["≠", "banana", ["apple", "cherry", null, 42, { a: 1 }]],
    ["contains", "an", ["banana"]],
    ["start with", "ch", ["cherry"]],
    ["end with", "e", ["apple"]],
    ["=", "", [null]],
    ["=", 42, [42]],
    ["contains", "'a'", [{ a: 1 }]],
    ["!=", "apple", ["banana", "cherry", null, 42, { a: 1 }]],
  ])("%s %j", (operator, value, expected) => {
    expect(filterItems(items, operator, value)).toEqual(expected);
  });

  it("compares each item as Python's str() writes it, as RAGFlow does", () => {
    // The case found by running RAGFlow's Go-port tests: str(True) is "True".
    expect(filterItems([true, false, true, "True"], "=", "True")).toEqual([true, true, "True"]);
    expect(filterItems([true, false, "false"], "=", "False")).toEqual([false]);
    expect(filterItems([1, 1.5, 2e-7, 0.0001, "1"], "=", "1")).toEqual([1, "1"]);
    expect(filterItems([1, 1.5, 2e-7, 0.0001], "end with", "e-07")).toEqual([2e-7]);
    expect(filterItems([1, 1.5, 2e-7, 0.0001], "=", "0.0001")).toEqual([0.0001]);
    expect(filterItems([null, [null], { k: null }], "contains", "None")).toEqual([[null], { k: null }]);
    expect(filterItems([["x", true], { a: 1.5 }], "=", "['x', True]")).toEqual([["x", true]]);
    expect(filterItems([["x", true], { a: 1.5 }], "start with", "{'a': 1.5")).toEqual([{ a: 1.5 }]);
    expect(filterItems([true, "True"], "≠", "True")).toEqual([]);
  });

  it("names an unknown operator", () => {
    expect(() => filterItems(items, ">", "a")).toThrow('filter.operator must be one of "=", "≠", "contains", "start with", "end with", not ">"');
  });
});

describe("sort", () => {
  it("sorts scalars natively, texts by code point", () => {
    expect(sortItems([3, 1, 2], "asc")).toEqual([1, 2, 3]);
    expect(sortItems([3, 1, 2], "desc")).toEqual([3, 2, 1]);
    expect(sortItems(["b", "B", "a", "😀", "\uffff"], "asc")).toEqual(["B", "a", "b", "\uffff", "😀"]);
    expect(sortItems([[1, 2], [1], [0, 9]], "asc")).toEqual([[0, 9], [1], [1, 2]]);
  });

  it("sorts objects by sort_by keys, then by the next key", () => {
    const rows = [
      { id: 1, g: "b", s: 2 },
      { id: 2, g: "a", s: 2 },
      { id: 3, g: "b", s: 1 },
    ];
    expect(sortItems(rows, "asc", ["g", "s"]).map((r) => r.id)).toEqual([2, 3, 1]);
    expect(sortItems(rows, "desc", ["s", "g"]).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it("sorts objects without sort_by by their keys in order, then values (RAGFlow's _hashable)", () => {
    const rows = [{ b: 1, a: 2 }, { a: 1, c: 0 }, { a: 1, b: 5 }];
    expect(sortItems(rows, "asc")).toEqual([{ a: 1, b: 5 }, { a: 1, c: 0 }, { b: 1, a: 2 }]);
  });

  it("is stable in both directions, as Python's sorted(reverse=True)", () => {
    const rows = [
      { k: 1, id: "x" },
      { k: 2, id: "y" },
      { k: 1, id: "z" },
    ];
    expect(sortItems(rows, "asc", ["k"]).map((r) => r.id)).toEqual(["x", "z", "y"]);
    expect(sortItems(rows, "desc", ["k"]).map((r) => r.id)).toEqual(["y", "x", "z"]);
  });

  it("puts objects missing a sort_by key last in both directions", () => {
    const rows = [{ id: 1 }, { id: 2, s: 1 }, { id: 3, s: 5 }, { id: 4, s: null }];
    expect(sortItems(rows, "asc", ["s"]).map((r) => r.id)).toEqual([2, 3, 1, 4]);
    expect(sortItems(rows, "desc", ["s"]).map((r) => r.id)).toEqual([3, 2, 1, 4]);
  });

  it("names items that cannot be ordered", () => {
    expect(() => sortItems([1, "a"], "asc")).toThrow("sort: the items cannot be ordered: cannot order a number and text together");
    expect(() => sortItems([{ s: 1 }, { s: "x" }], "asc", ["s"])).toThrow('sort: the values of sort_by "s" cannot be ordered: cannot order a number and text together');
    expect(() => sortItems([true, "a"], "asc")).toThrow("sort: the items cannot be ordered: cannot order a boolean and text together");
    expect(() => sortItems([{ s: 1 }, 3], "asc", ["s"])).toThrow("sort_by needs objects, but item 2 is a number");
  });

  it("parses sort_by as RAGFlow does (comma-separated, blanks dropped)", () => {
    expect(sortKeys(" score , ,id")).toEqual(["score", "id"]);
    expect(sortKeys(["a", " b "])).toEqual(["a", "b"]);
    expect(sortKeys(undefined)).toEqual([]);
  });

  it("orders numbers like any sort, and reversing the direction reverses distinct keys (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), (items) => {
        expect(sortItems(items, "asc")).toEqual([...items].sort((a, b) => a - b));
        const distinct = lodash.uniq(items);
        expect(sortItems(distinct, "desc")).toEqual(sortItems(distinct, "asc").reverse());
      }),
    );
  });

  it("compareValues is antisymmetric on texts and numbers (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double({ noNaN: true })), fc.oneof(fc.string(), fc.double({ noNaN: true })), (a, b) => {
        if (typeof a !== typeof b) return;
        expect(compareValues(a, b)).toBe(-compareValues(b, a) || 0);
      }),
    );
  });
});

describe("drop_duplicates", () => {
  it("keeps the first of equal items; objects are equal whatever their key order", () => {
    expect(dropDuplicates([1, 2, 1, "1", null, null, [1], [1]])).toEqual([1, 2, "1", null, [1]]);
    expect(dropDuplicates([{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1 }, [["a", 1]]])).toEqual([{ a: 1, b: 2 }, { a: 1 }, [["a", 1]]]);
  });

  it("is idempotent and keeps one of each distinct item (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 30 }), (items) => {
        const once = dropDuplicates(items);
        // Compared as JSON values: -0 and 0 are the same item (lodash's uniq returns 0 for -0).
        const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
        expect(json(dropDuplicates(once))).toEqual(json(once));
        expect(json(once)).toEqual(json(lodash.uniqWith(items, lodash.isEqual)));
      }),
    );
  });
});

describe("ListOperations params", () => {
  const info = { id: "x", parentId: undefined, downstream: [], hasComponent: () => true, componentName: () => undefined, componentType: () => undefined, parentOf: () => undefined };
  it("reports a missing query, an unknown operation, a bad n and an unknown filter operator", () => {
    expect(ListOperations.check!({ query: "", operations: "nth", n: 1 }, info)).toEqual([{ pointer: "/query", message: "query must reference the list to work on (cpn@var, sys.x or env.x)" }]);
    expect(ListOperations.check!({ query: "a@b", operations: "pick" }, info)[0]).toMatchObject({ pointer: "/operations" });
    expect(ListOperations.check!({ query: "a@b", operations: "head", n: "two" }, info)).toEqual([{ pointer: "/n", message: 'n must be an integer, not "two"' }]);
    expect(ListOperations.check!({ query: "a@b", operations: "head", n: 2.5 }, info)).toEqual([{ pointer: "/n", severity: "warning", message: "n=2.5 is not an integer; it is truncated to 2" }]);
    expect(ListOperations.check!({ query: "a@b", operations: "filter", filter: { operator: ">", value: 1 } }, info)[0]).toMatchObject({ pointer: "/filter/operator" });
  });

  it("reads only its query", () => {
    expect(ListOperations.references!({ query: "{Agent:A@items}", filter: { operator: "=", value: "{sys.query}" } }).map((r) => r.expr)).toEqual(["Agent:A@items"]);
  });
});

describe("ListOperations in a canvas", () => {
  it.each<[Record<string, unknown>, unknown[]]>([
    [{ operations: "nth", n: 2 }, ["b"]],
    [{ operations: "nth", n: -1 }, ["e"]],
    [{ operations: "topN", n: 3 }, ["a", "b", "c"]],
    [{ operations: "head", n: "2" }, ["a", "b"]],
    [{ operations: "tail", n: 3 }, ["c", "d", "e"]],
    [{ operations: "filter", filter: { operator: "≠", value: "c" } }, ["a", "b", "d", "e"]],
    [{ operations: "sort", sort_method: "desc" }, ["e", "d", "c", "b", "a"]],
    [{ operations: "drop_duplicates" }, ["a", "b", "c", "d", "e"]],
    [{ operations: "nth", n: 9 }, []],
  ])("%j", async (params, expected) => {
    const { outputs } = await runList(letters, params);
    expect(outputs).toEqual({ result: expected, first: expected[0] ?? null, last: expected.at(-1) ?? null });
  });

  it('filter "=" "True" keeps the booleans true and the text "True" (RAGFlow compares str(item))', async () => {
    const { outputs } = await runList([true, false, true, "True"], { operations: "filter", filter: { operator: "=", value: "True" } });
    expect(outputs).toEqual({ result: [true, true, "True"], first: true, last: "True" });
  });

  it("fails clearly in strict mode and when the query is not a list", async () => {
    expect((await runList(letters, { operations: "nth", n: 9, strict: "yes" })).error).toContain("nth: n=9 is out of range for a list of 5 items");
    expect((await runList("a,b", { operations: "head", n: 1 })).error).toContain('query "env.items" must be a list, got text');
  });

  it("runs all.json's DataOperations → sort by score desc → head 2 chain", async () => {
    // The params are all.json's (internal-agent-dsl-testdata), unchanged; env.sample_rows too.
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["DataOperations:UpdateSample"]),
        "DataOperations:UpdateSample": node(
          "DataOperations",
          { operations: "append_or_update", outputs: { result: { type: "Array<Object>" } }, query: ["env.sample_rows"], updates: [{ key: "tag", value: "demo" }] },
          ["ListOperations:Sort"],
        ),
        "ListOperations:Sort": node(
          "ListOperations",
          { filter: { operator: "contains", value: "" }, operations: "sort", outputs: { result: { type: "Array<Object>" } }, query: "DataOperations:UpdateSample@result", sort_by: "score", sort_method: "desc" },
          ["ListOperations:Head2"],
        ),
        "ListOperations:Head2": node(
          "ListOperations",
          {
            filter: { operator: "contains", value: "" },
            n: 2,
            operations: "head",
            outputs: { first: { type: "Object" }, last: { type: "Object" }, result: { type: "Array<Object>" } },
            query: "ListOperations:Sort@result",
            sort_method: "asc",
          },
          ["Message:DataListDone"],
        ),
        "Message:DataListDone": node("Message", {
          content: [
            "DataOperations 输出: {DataOperations:UpdateSample@result}\n\nListOperations Sort desc: {ListOperations:Sort@result}\n\nListOperations Head2: {ListOperations:Head2@result}\n\nfirst={ListOperations:Head2@first}\n\nlast={ListOperations:Head2@last}",
          ],
        }),
      },
      {
        sample_rows: [
          { id: 2, score: 0.88, title: "Beta" },
          { id: 3, score: 0.76, title: "Gamma" },
          { id: 1, score: 0.91, title: "Alpha" },
        ],
      },
    );
    const events = await (await loadCanvas(dsl)).runToEnd({});
    const alpha = { id: 1, score: 0.91, title: "Alpha", tag: "demo" };
    const beta = { id: 2, score: 0.88, title: "Beta", tag: "demo" };
    const gamma = { id: 3, score: 0.76, title: "Gamma", tag: "demo" };
    expect(outputsOf(events, "DataOperations:UpdateSample")).toEqual({ result: [beta, gamma, alpha] });
    expect(outputsOf(events, "ListOperations:Sort")).toEqual({ result: [alpha, beta, gamma], first: alpha, last: gamma });
    expect(outputsOf(events, "ListOperations:Head2")).toEqual({ result: [alpha, beta], first: alpha, last: beta });
    const text = events.flatMap((e) => (e.event === "message" ? [e.data.content] : [])).join("");
    expect(text).toBe(
      [
        'DataOperations 输出: [{"id":2,"score":0.88,"title":"Beta","tag":"demo"},{"id":3,"score":0.76,"title":"Gamma","tag":"demo"},{"id":1,"score":0.91,"title":"Alpha","tag":"demo"}]',
        'ListOperations Sort desc: [{"id":1,"score":0.91,"title":"Alpha","tag":"demo"},{"id":2,"score":0.88,"title":"Beta","tag":"demo"},{"id":3,"score":0.76,"title":"Gamma","tag":"demo"}]',
        'ListOperations Head2: [{"id":1,"score":0.91,"title":"Alpha","tag":"demo"},{"id":2,"score":0.88,"title":"Beta","tag":"demo"}]',
        'first={"id":1,"score":0.91,"title":"Alpha","tag":"demo"}',
        'last={"id":2,"score":0.88,"title":"Beta","tag":"demo"}',
      ].join("\n\n"),
    );
    expect(finished(events).error).toBeUndefined();
  });
});
