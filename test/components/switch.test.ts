import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadCanvas, validateDsl } from "../../src/api.js";
import { chooseRoute, Switch } from "../../src/components/switch.js";
import { evaluateSwitchItem, isEmptyValue, SWITCH_OPERATORS, UnknownOperatorError } from "../../src/components/switch-operators.js";
import { messages, node, nodeFinished, started } from "../helpers/dsl.js";
import { numericValue } from "../../src/util/values.js";

describe("Switch operators", () => {
  it.each([
    ["Hello World", "contains", "WORLD", true],
    ["Hello World", "contains", "planet", false],
    ["Hello World", "not contains", "planet", true],
    ["Hello World", "not contains", "world", false],
    ["Hello World", "start with", "hello", true],
    ["Hello World", "start with", "world", false],
    ["Hello World", "end with", "WORLD", true],
    ["Hello World", "end with", "hello", false],
    [null, "contains", "foo", false],
    ["anything", "contains", null, true],
    [undefined, "not contains", "foo", true],
    [12345, "contains", "234", true],
    [["Apple", "pear"], "contains", "apple", true],
    [true, "start with", "TRUE", true],
    ["", "empty", "", true],
    [null, "empty", "", true],
    [undefined, "empty", "", true],
    [0, "empty", "", true],
    [false, "empty", "", true],
    [[], "empty", "", true],
    [{}, "empty", "", true],
    ["0", "empty", "", false],
    [" ", "empty", "", false],
    [[0], "empty", "", false],
    ["x", "not empty", "", true],
    [null, "not empty", "", false],
    ["yes", "=", "yes", true],
    ["Yes", "=", "yes", false],
    [5, "=", "5", true],
    ["5", "=", "5.0", true],
    [" 7 ", "=", "7", true],
    ["1e3", "=", "1000", true],
    [5, "=", "", false],
    [null, "=", "", false],
    [["a"], "=", ["a"], true],
    [true, "=", "true", false],
    ["yes", "≠", "no", true],
    [5, "≠", "5", false],
    [5, ">", "3", true],
    [5, ">", "abc", false],
    [5, "<", "abc", false],
    [5, "≥", "5", true],
    [5, "≤", "4.5", false],
    ["10", ">", "9", true],
    ["b", ">", "a", true],
    ["apple", "<", "banana", true],
    [null, ">", "3", false],
    [null, "≤", "3", false],
    [true, ">", "0", false],
    [-Infinity, "<", "-1e308", true],
    [Infinity, "≥", "inf", true],
  ] as const)("%j %s %j → %s", (input, operator, value, expected) => {
    expect(evaluateSwitchItem(input, operator, value)).toBe(expected);
  });

  it("rejects an unknown operator with the list of known ones", () => {
    expect(() => evaluateSwitchItem("a", "like", "a")).toThrow(UnknownOperatorError);
    expect(() => evaluateSwitchItem("a", "like", "a")).toThrow(
      'unknown operator "like" (use one of: contains, not contains, start with, end with, empty, not empty, =, ≠, >, <, ≥, ≤)',
    );
  });

  const anyInput = fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }));

  it("contains and not contains are complements", () => {
    fc.assert(
      fc.property(anyInput, fc.oneof(fc.string(), fc.constant(null)), (input, value) => {
        expect(evaluateSwitchItem(input, "not contains", value)).toBe(!evaluateSwitchItem(input, "contains", value));
      }),
    );
  });

  it("empty and not empty are complements, and = and ≠ are", () => {
    fc.assert(
      fc.property(anyInput, fc.oneof(fc.string(), fc.double()), (input, value) => {
        expect(evaluateSwitchItem(input, "not empty", value)).toBe(!evaluateSwitchItem(input, "empty", value));
        expect(evaluateSwitchItem(input, "≠", value)).toBe(!evaluateSwitchItem(input, "=", value));
      }),
    );
  });

  it("text operators compare case-insensitively", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (input, value) => {
        const a = input.toLowerCase();
        const b = value.toLowerCase();
        expect(evaluateSwitchItem(input.toUpperCase(), "contains", value)).toBe(a.includes(b));
        expect(evaluateSwitchItem(input, "start with", value.toUpperCase())).toBe(a.startsWith(b));
        expect(evaluateSwitchItem(input.toUpperCase(), "end with", value)).toBe(a.endsWith(b));
      }),
    );
  });

  it("numeric comparisons agree with JS numbers, whether the sides are numbers or numeric text", () => {
    const num = fc.double({ noNaN: true });
    fc.assert(
      fc.property(num, num, fc.boolean(), (a, b, asText) => {
        const input = asText ? String(a) : a;
        const value = String(b);
        expect(evaluateSwitchItem(input, ">", value)).toBe(a > b);
        expect(evaluateSwitchItem(input, "<", value)).toBe(a < b);
        expect(evaluateSwitchItem(input, "≥", value)).toBe(a >= b);
        expect(evaluateSwitchItem(input, "≤", value)).toBe(a <= b);
        expect(evaluateSwitchItem(input, "=", value)).toBe(a === b);
      }),
    );
  });

  it("text that Python reads as an infinity is a number", () => {
    expect(evaluateSwitchItem(0, "<", "inf")).toBe(true);
    expect(evaluateSwitchItem(0, ">", "-Infinity")).toBe(true);
  });

  it("a number against text that is not a number never matches an ordering", () => {
    fc.assert(
      // "inf" and "infinity" are numbers, as Python's float() reads them (numericValue).
      fc.property(fc.double({ noNaN: true }), fc.stringMatching(/^[a-z]+$/).filter((text) => numericValue(text) === undefined), (a, text) => {
        for (const op of [">", "<", "≥", "≤"]) expect(evaluateSwitchItem(a, op, text)).toBe(false);
      }),
    );
  });

  it("treats falsy values as empty, as Python's `not`", () => {
    expect([null, undefined, "", 0, false, [], {}].every(isEmptyValue)).toBe(true);
    expect(["0", "false", 1, true, [null], { a: 1 }].some(isEmptyValue)).toBe(false);
  });
});

describe("Switch routing (chooseRoute)", () => {
  const route = (conditions: unknown[], refs: Record<string, unknown> = {}, reads: string[] = []) =>
    chooseRoute({ conditions, end_cpn_ids: ["else_target"] }, (selector) => {
      reads.push(selector);
      return refs[selector];
    });

  it("an all-skipped condition (empty cpn_id) falls through to the else branch", () => {
    expect(route([{ logical_operator: "and", items: [{ cpn_id: "", operator: "=", value: "yes" }], to: ["case_target"] }])).toEqual(["else_target"]);
    expect(route([{ logical_operator: "or", items: [{ cpn_id: "", operator: "empty" }], to: ["case_target"] }])).toEqual(["else_target"]);
    expect(route([{ logical_operator: "and", items: [], to: ["case_target"] }])).toEqual(["else_target"]);
  });

  it("a filled and-condition still matches next to a skipped item", () => {
    const conditions = [
      {
        logical_operator: "and",
        items: [
          { cpn_id: "", operator: "=", value: "ignored" },
          { cpn_id: "c@out", operator: "contains", value: "hello" },
        ],
        to: ["case_target"],
      },
    ];
    expect(route(conditions, { "c@out": "hello world" })).toEqual(["case_target"]);
  });

  it("a missing value with contains goes to else; a missing comparison value matches", () => {
    const input = [{ logical_operator: "and", items: [{ cpn_id: "a@x", operator: "contains", value: "foo" }], to: ["case_target"] }];
    expect(route(input, { "a@x": null })).toEqual(["else_target"]);
    const noValue = [{ logical_operator: "and", items: [{ cpn_id: "a@x", operator: "contains" }], to: ["case_target"] }];
    expect(route(noValue, { "a@x": "anything" })).toEqual(["case_target"]);
  });

  it("numeric variables: empty or non-numeric comparison values do not match, numeric ones compare", () => {
    const one = (operator: string, value: string) => [{ logical_operator: "and", items: [{ cpn_id: "score", operator, value }], to: ["case_target"] }];
    expect(route(one("=", ""), { score: 5 })).toEqual(["else_target"]);
    expect(route(one(">", "abc"), { score: 5 })).toEqual(["else_target"]);
    expect(route(one(">", "3"), { score: 5 })).toEqual(["case_target"]);
  });

  it("and needs every item and reads all of them; or stops at the first that holds", () => {
    const items = [
      { cpn_id: "a@x", operator: "=", value: "1" },
      { cpn_id: "b@x", operator: "=", value: "2" },
      { cpn_id: "c@x", operator: "=", value: "3" },
    ];
    const refs = { "a@x": "1", "b@x": "0", "c@x": "3" };
    const andReads: string[] = [];
    expect(route([{ logical_operator: "and", items, to: ["case_target"] }], refs, andReads)).toEqual(["else_target"]);
    expect(andReads).toEqual(["a@x", "b@x", "c@x"]);
    const orReads: string[] = [];
    expect(route([{ logical_operator: "or", items, to: ["case_target"] }], refs, orReads)).toEqual(["case_target"]);
    expect(orReads).toEqual(["a@x"]);
  });

  it("any logical_operator other than and means or (as RAGFlow)", () => {
    const items = [
      { cpn_id: "a@x", operator: "=", value: "no" },
      { cpn_id: "b@x", operator: "=", value: "yes" },
    ];
    expect(route([{ logical_operator: "", items, to: ["case_target"] }], { "a@x": "x", "b@x": "yes" })).toEqual(["case_target"]);
  });

  it("the first matching case wins and may fan out to several targets", () => {
    const conditions = [
      { logical_operator: "and", items: [{ cpn_id: "a@x", operator: "not empty" }], to: ["first", "second"] },
      { logical_operator: "and", items: [{ cpn_id: "a@x", operator: "not empty" }], to: ["third"] },
    ];
    expect(route(conditions, { "a@x": "v" })).toEqual(["first", "second"]);
  });

  it("names the case, the item and the reference when an operator is unknown", () => {
    expect(() => route([{ logical_operator: "and", items: [{ cpn_id: "sys.query", operator: "~", value: "x" }], to: ["t"] }], { "sys.query": "q" })).toThrow(
      'case 1, item 1 (sys.query): unknown operator "~"',
    );
    expect(() => chooseRoute({ conditions: "nope" }, () => "")).toThrow("conditions must be a list of cases");
  });

  it("references are the filled cpn_id selectors only", () => {
    const refs = Switch.references!({
      conditions: [
        { logical_operator: "and", items: [{ cpn_id: "{Agent:A@content}", operator: "=", value: "{not:a@ref}" }, { cpn_id: "", operator: "=" }], to: ["x"] },
        { logical_operator: "or", items: [{ cpn_id: "env.flag", operator: "empty" }, { cpn_id: "sys.query", operator: "contains", value: "a" }], to: ["y"] },
      ],
      end_cpn_ids: ["z"],
    });
    expect(refs.map((r) => r.expr)).toEqual(["Agent:A@content", "env.flag", "sys.query"]);
  });
});

const graphNodes = [
  { id: "Message:Yes", data: { name: "Say yes" } },
  { id: "Message:No", data: { name: "Say no" } },
];

function yesNoDsl(to: string[] = ["Message:Yes"]) {
  return {
    components: {
      begin: node("Begin", {}, ["Switch:Route"]),
      "Switch:Route": node(
        "Switch",
        {
          conditions: [{ logical_operator: "and", items: [{ cpn_id: "sys.query", operator: "contains", value: "yes" }], to }],
          end_cpn_ids: ["Message:No"],
        },
        ["Message:Yes", "Message:No", "Message:Also"],
      ),
      "Message:Yes": node("Message", { content: ["Yes: {sys.query}"] }),
      "Message:No": node("Message", { content: ["No: {sys.query}"] }),
      "Message:Also": node("Message", { content: ["Also"] }),
    },
    globals: {},
    graph: { nodes: graphNodes, edges: [] },
  };
}

describe("Switch end to end", () => {
  it("routes to the matching Message and records what it read", async () => {
    const canvas = await loadCanvas(yesNoDsl());
    const events = await canvas.runToEnd({ query: "YES please" });
    expect(messages(events)).toEqual(["Yes: YES please"]);
    expect(started(events)).toEqual(["begin", "Switch:Route", "Message:Yes"]);
    const route = nodeFinished(events, "Switch:Route");
    expect(route.outputs).toEqual({ _next: ["Message:Yes"], next: ["Say yes"] });
    expect(route.inputs).toEqual({ "sys.query": "YES please" });
    expect(events.at(-1)?.event).toBe("workflow_finished");
  });

  it("takes the else branch when no case matches", async () => {
    const canvas = await loadCanvas(yesNoDsl());
    const events = await canvas.runToEnd({ query: "nope" });
    expect(messages(events)).toEqual(["No: nope"]);
    expect(started(events)).toEqual(["begin", "Switch:Route", "Message:No"]);
    expect(nodeFinished(events, "Switch:Route").outputs).toEqual({ _next: ["Message:No"], next: ["Say no"] });
  });

  it("fans out to every target of the case; a stale target is skipped", async () => {
    const canvas = await loadCanvas(yesNoDsl(["Message:Yes", "CodeExec:Deleted", "Message:Also"]));
    const events = await canvas.runToEnd({ query: "yes" });
    expect(messages(events)).toEqual(["Yes: yes", "Also"]);
    expect(started(events)).toEqual(["begin", "Switch:Route", "Message:Yes", "Message:Also"]);
    expect(nodeFinished(events, "Switch:Route").outputs).toEqual({
      _next: ["Message:Yes", "CodeExec:Deleted", "Message:Also"],
      next: ["Say yes", "CodeExec:Deleted", "Message:Also"],
    });
  });

  it("compares a numeric conversation variable numerically", async () => {
    const dsl = {
      components: {
        begin: node("Begin", {}, ["Switch:Score"]),
        "Switch:Score": node(
          "Switch",
          { conditions: [{ logical_operator: "and", items: [{ cpn_id: "env.score", operator: "≥", value: "10" }], to: ["Message:High"] }], end_cpn_ids: ["Message:Low"] },
          ["Message:High", "Message:Low"],
        ),
        "Message:High": node("Message", { content: ["high {env.score}"] }),
        "Message:Low": node("Message", { content: ["low {env.score}"] }),
      },
      globals: {},
      variables: { score: { name: "score", type: "number", value: 9 } },
    };
    expect(messages(await (await loadCanvas(dsl)).runToEnd({ query: "" }))).toEqual(["low 9"]);
    const high = { ...dsl, variables: { score: { name: "score", type: "number", value: 10 } } };
    expect(messages(await (await loadCanvas(high)).runToEnd({ query: "" }))).toEqual(["high 10"]);
  });
});

describe("Switch validation", () => {
  const issuesOf = (dsl: object, id = "Switch:Route") => validateDsl(dsl).issues.filter((i) => i.componentId === id);

  it("accepts a well-formed Switch without issues", () => {
    const report = validateDsl(yesNoDsl());
    expect(report.issues).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it("warns about a stale target next to an existing one", () => {
    const report = validateDsl(yesNoDsl(["Message:Yes", "CodeExec:FunnyBroomsShare"]));
    expect(report.valid).toBe(true);
    expect(report.issues).toEqual([
      {
        severity: "warning",
        code: "param",
        pointer: "/components/Switch:Route/obj/params/conditions/0/to/1",
        componentId: "Switch:Route",
        componentName: "Switch:Route",
        componentType: "Switch",
        message: 'stale route target "CodeExec:FunnyBroomsShare" in case 1 (not a component of this canvas), skipped when the branch is taken',
      },
    ]);
  });

  it("rejects a branch whose only target is not a component", () => {
    const report = validateDsl(yesNoDsl(["CodeExec:FunnyBroomsShare"]));
    expect(report.valid).toBe(false);
    expect(issuesOf(yesNoDsl(["CodeExec:FunnyBroomsShare"])).map((i) => [i.severity, i.pointer, i.message])).toEqual([
      ["error", "/components/Switch:Route/obj/params/conditions/0/to/0", 'case 1 leads to "CodeExec:FunnyBroomsShare", which is not a component of this canvas'],
    ]);
  });

  it("applies the same rule to the else branch", () => {
    const dsl = yesNoDsl();
    (dsl.components["Switch:Route"].obj.params as Record<string, unknown>).end_cpn_ids = ["Gone:A", "Gone:B"];
    expect(issuesOf(dsl).map((i) => [i.severity, i.pointer])).toEqual([
      ["error", "/components/Switch:Route/obj/params/end_cpn_ids/0"],
      ["error", "/components/Switch:Route/obj/params/end_cpn_ids/1"],
    ]);
    (dsl.components["Switch:Route"].obj.params as Record<string, unknown>).end_cpn_ids = ["Message:No", "Gone:B"];
    expect(issuesOf(dsl).map((i) => [i.severity, i.pointer])).toEqual([["warning", "/components/Switch:Route/obj/params/end_cpn_ids/1"]]);
  });

  it("handles the Switch of RAGFlow's all.json fixture (a deleted CodeExec beside a valid target): one warning, no error", () => {
    const targets = ["Message:Yes", "CodeExec:FunnyBroomsShare"];
    const dsl = yesNoDsl();
    (dsl.components["Switch:Route"].obj.params as Record<string, unknown>).conditions = [
      { items: [{ cpn_id: "sys.query", operator: "=", value: "loop" }], logical_operator: "and", to: ["Message:Also"] },
      { items: [{ cpn_id: "sys.query", operator: "=", value: "data_ops" }], logical_operator: "and", to: targets },
    ];
    const issues = issuesOf(dsl);
    expect(issues.map((i) => [i.severity, i.pointer])).toEqual([["warning", "/components/Switch:Route/obj/params/conditions/1/to/1"]]);
  });

  it("requires cases, targets and an else branch", () => {
    const dsl = yesNoDsl();
    dsl.components["Switch:Route"].obj.params = { conditions: [], end_cpn_ids: [] };
    expect(issuesOf(dsl).map((i) => [i.severity, i.pointer, i.message])).toEqual([
      ["error", "/components/Switch:Route/obj/params/conditions", "conditions must list at least one case"],
      ["error", "/components/Switch:Route/obj/params/end_cpn_ids", "the else branch (end_cpn_ids) must list at least one component"],
    ]);
    dsl.components["Switch:Route"].obj.params = { conditions: [{ logical_operator: "and", items: [{ cpn_id: "sys.query", operator: "=", value: "x" }], to: [] }], end_cpn_ids: ["Message:No"] };
    expect(issuesOf(dsl).map((i) => [i.severity, i.pointer, i.message])).toEqual([
      ["error", "/components/Switch:Route/obj/params/conditions/0/to", "case 1 has no target: 'to' must list at least one component"],
    ]);
  });

  it("reports unknown operators, bad references and unknown components in cpn_id", () => {
    const dsl = yesNoDsl();
    dsl.components["Switch:Route"].obj.params = {
      conditions: [
        {
          logical_operator: "and",
          items: [
            { cpn_id: "sys.query", operator: "like", value: "x" },
            { cpn_id: "just text", operator: "=", value: "x" },
            { cpn_id: "Agent:Missing@content", operator: "=", value: "x" },
          ],
          to: ["Message:Yes"],
        },
      ],
      end_cpn_ids: ["Message:No"],
    };
    const issues = issuesOf(dsl);
    expect(issues.map((i) => [i.severity, i.code, i.pointer])).toEqual([
      ["error", "unknown-reference", "/components/Switch:Route/obj/params/conditions/0/items/2/cpn_id"],
      ["error", "param", "/components/Switch:Route/obj/params/conditions/0/items/0/operator"],
      ["error", "param", "/components/Switch:Route/obj/params/conditions/0/items/1/cpn_id"],
    ]);
    expect(issues[0].message).toBe('reference {Agent:Missing@content}: no component "Agent:Missing" in this canvas');
    expect(issues[1].message).toContain('case 1, item 1: unknown operator "like"');
  });

  it("warns when a case never matches, and when a multi-item case has no and/or", () => {
    const dsl = yesNoDsl();
    dsl.components["Switch:Route"].obj.params = {
      conditions: [
        { logical_operator: "and", items: [{ cpn_id: "", operator: "=", value: "" }], to: ["Message:Yes"] },
        {
          logical_operator: "",
          items: [
            { cpn_id: "sys.query", operator: "=", value: "a" },
            { cpn_id: "sys.query", operator: "=", value: "b" },
          ],
          to: ["Message:Yes"],
        },
      ],
      end_cpn_ids: ["Message:No"],
    };
    const report = validateDsl(dsl);
    expect(report.valid).toBe(true);
    expect(report.issues.map((i) => [i.severity, i.pointer, i.message])).toEqual([
      ["warning", "/components/Switch:Route/obj/params/conditions/0/items", "case 1 has no condition item with a reference: it never matches"],
      ["warning", "/components/Switch:Route/obj/params/conditions/1/logical_operator", 'case 2: logical_operator "" is treated as "or" (only "and" requires every item), as RAGFlow does'],
    ]);
  });

  it("lists every supported operator", () => {
    expect(SWITCH_OPERATORS).toEqual(["contains", "not contains", "start with", "end with", "empty", "not empty", "=", "≠", ">", "<", "≥", "≤"]);
  });
});
