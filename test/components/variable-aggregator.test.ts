import { describe, expect, it } from "vitest";
import { loadCanvas, validateDsl } from "../../src/api.js";
import { candidateSelectors, isPresent, VariableAggregator } from "../../src/components/variable-aggregator.js";
import { messages, node, nodeFinished, started } from "../helpers/dsl.js";

describe("VariableAggregator helpers", () => {
  it("a value is present unless it is null, undefined or the empty string", () => {
    expect([0, false, [], {}, " ", "0", "x", -1].every(isPresent)).toBe(true);
    expect([null, undefined, ""].some(isPresent)).toBe(false);
  });

  it("takes candidates as {value} objects or plain strings, skipping blank ones", () => {
    expect(candidateSelectors({ variables: [{ value: "a@x" }, "b@y", " ", { value: "" }, { value: null }, "env.c"] })).toEqual(["a@x", "b@y", "env.c"]);
  });

  it("references every candidate selector of every group", () => {
    const refs = VariableAggregator.references!({
      groups: [
        { group_name: "answer", variables: [{ value: "Agent:A@content" }, { value: "Agent:B@content.text" }] },
        { group_name: "who", variables: ["sys.user_id", { value: "" }] },
      ],
    });
    expect(refs.map((r) => r.expr)).toEqual(["Agent:A@content", "Agent:B@content.text", "sys.user_id"]);
  });
});

const envDeclarations = {
  empty: { name: "empty", type: "string", value: "" },
  zero: { name: "zero", type: "number", value: 0 },
  no: { name: "no", type: "boolean", value: false },
  list: { name: "list", type: "array<string>", value: [] },
  name: { name: "name", type: "string", value: "Ada" },
};

function envDsl(groups: unknown[], content: string) {
  return {
    components: {
      begin: node("Begin", {}, ["VariableAggregator:Pick"]),
      "VariableAggregator:Pick": node("VariableAggregator", { groups }, ["Message:Show"]),
      "Message:Show": node("Message", { content: [content] }),
    },
    globals: {},
    variables: envDeclarations,
  };
}

describe("VariableAggregator end to end", () => {
  it("takes the first present value: 0, false and [] count, \"\" does not", async () => {
    const groups = [
      { group_name: "number", type: "number", variables: [{ value: "env.empty" }, { value: "env.zero" }, { value: "env.name" }] },
      { group_name: "flag", variables: [{ value: "env.no" }, { value: "env.name" }] },
      { group_name: "items", variables: ["env.empty", "env.list", "env.name"] },
      { group_name: "text", variables: [{ value: "env.empty" }, { value: "env.name" }] },
    ];
    const canvas = await loadCanvas(envDsl(groups, "{VariableAggregator:Pick@number}|{VariableAggregator:Pick@flag}|{VariableAggregator:Pick@items}|{VariableAggregator:Pick@text}"));
    const events = await canvas.runToEnd({ query: "" });
    expect(messages(events)).toEqual(["0|false|[]|Ada"]);
    const data = nodeFinished(events, "VariableAggregator:Pick");
    expect(data.outputs).toEqual({ number: 0, flag: false, items: [], text: "Ada" });
    expect(data.inputs).toEqual({
      "number.variables": ["env.empty", "env.zero", "env.name"],
      "flag.variables": ["env.no", "env.name"],
      "items.variables": ["env.empty", "env.list", "env.name"],
      "text.variables": ["env.empty", "env.name"],
      "env.empty": "",
      "env.zero": 0,
      "env.no": false,
      "env.list": [],
      "env.name": "Ada",
    });
  });

  it("outputs null when no candidate has a value, which a template renders as nothing", async () => {
    const canvas = await loadCanvas(envDsl([{ group_name: "g", variables: [{ value: "env.empty" }] }], "[{VariableAggregator:Pick@g}]"));
    const events = await canvas.runToEnd({ query: "" });
    expect(messages(events)).toEqual(["[]"]);
    expect(nodeFinished(events, "VariableAggregator:Pick").outputs).toEqual({ g: null });
  });

  const joinDsl = {
    components: {
      begin: node("Begin", {}, ["Switch:Route"]),
      "Switch:Route": node(
        "Switch",
        { conditions: [{ logical_operator: "and", items: [{ cpn_id: "sys.query", operator: "start with", value: "y" }], to: ["Message:Yes"] }], end_cpn_ids: ["Message:No"] },
        ["Message:Yes", "Message:No"],
      ),
      "Message:Yes": node("Message", { content: ["Glad to hear it"] }, ["VariableAggregator:Join"]),
      "Message:No": node("Message", { content: ["Sorry about {sys.query}"] }, ["VariableAggregator:Join"]),
      "VariableAggregator:Join": node(
        "VariableAggregator",
        { groups: [{ group_name: "reply", type: "string", variables: [{ value: "Message:Yes@content" }, { value: "Message:No@content" }] }], outputs: { reply: { type: "string" } } },
        ["Message:Final"],
      ),
      "Message:Final": node("Message", { content: ["You were told: {VariableAggregator:Join@reply}"] }),
    },
    globals: {},
  };

  it("joins the branches after a Switch: the branch not taken is skipped", async () => {
    const canvas = await loadCanvas(joinDsl);
    const yes = await canvas.runToEnd({ query: "yes" });
    expect(messages(yes)).toEqual(["Glad to hear it", "You were told: Glad to hear it"]);
    expect(started(yes)).toEqual(["begin", "Switch:Route", "Message:Yes", "VariableAggregator:Join", "Message:Final"]);
    expect(nodeFinished(yes, "VariableAggregator:Join").outputs).toEqual({ reply: "Glad to hear it" });

    // Next turn the other branch: last turn's Message:Yes output must not leak in.
    const no = await canvas.runToEnd({ query: "no luck" });
    expect(messages(no)).toEqual(["Sorry about no luck", "You were told: Sorry about no luck"]);
    expect(nodeFinished(no, "VariableAggregator:Join").inputs).toEqual({
      "reply.variables": ["Message:Yes@content", "Message:No@content"],
      "Message:Yes@content": undefined,
      "Message:No@content": "Sorry about no luck",
    });
  });
});

describe("VariableAggregator validation", () => {
  const issues = (groups: unknown) =>
    validateDsl(envDsl(groups as unknown[], "x"))
      .issues.filter((i) => i.componentId === "VariableAggregator:Pick")
      .map((i) => [i.severity, i.pointer.replace("/components/VariableAggregator:Pick/obj/params", ""), i.message]);

  it("accepts the aggregator of RAGFlow's all.json fixture", () => {
    expect(issues([{ group_name: "picked", type: "string", variables: [{ value: "env.empty" }, { value: "env.name" }] }])).toEqual([]);
  });

  it("requires groups with unique names and candidate references", () => {
    expect(issues([])).toEqual([["error", "/groups", "groups must list at least one group"]]);
    expect(
      issues([
        { group_name: "", variables: [{ value: "env.name" }] },
        { group_name: "a", variables: [] },
        { group_name: "a", variables: [{ value: "env.name" }] },
        { group_name: "b", variables: [{ value: "not a ref" }, { value: " " }, { value: "env.zero" }] },
        { group_name: "c", variables: [{ value: "" }] },
        { group_name: "_ERROR", variables: ["env.name"] },
      ]),
    ).toEqual([
      ["error", "/groups/0/group_name", "group 1 has no group_name"],
      ["error", "/groups/1/variables", 'group "a" lists no variables'],
      ["error", "/groups/2/group_name", 'group_name "a" is already used by group 2'],
      ["error", "/groups/3/variables/0", 'group "b": candidate 1 ("not a ref") is not a reference (expected cpn@var, sys.x or env.x)'],
      ["warning", "/groups/3/variables/1", 'group "b": candidate 2 is empty and is skipped'],
      ["warning", "/groups/4/variables/0", 'group "c": candidate 1 is empty and is skipped'],
      ["error", "/groups/4/variables", 'group "c" lists no variables'],
      ["error", "/groups/5/group_name", 'group_name "_ERROR" is reserved; choose another name'],
    ]);
  });

  it("reports candidates that name an unknown component or variable", () => {
    expect(issues([{ group_name: "g", variables: [{ value: "Agent:Gone@content" }, { value: "env.nope" }] }])).toEqual([
      ["error", "/groups/0/variables/0/value", 'reference {Agent:Gone@content}: no component "Agent:Gone" in this canvas'],
      ["error", "/groups/0/variables/1/value", 'reference {env.nope}: no conversation variable "nope" is declared'],
    ]);
  });
});
