import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadCanvas, validateDsl } from "../../src/api.js";
import { compileTemplate, renderTemplate } from "../../src/refs/template.js";
import { VariableAssigner } from "../../src/components/variable-assigner.js";
import { AssignmentError, assignedValue, type AssignOperator, type OperandAccess } from "../../src/components/variable-operations.js";
import { messages, node, nodeFinished } from "../helpers/dsl.js";

/** Reads references from a fixed table, and renders templates with the real template grammar. */
function access(refs: Record<string, unknown> = {}): OperandAccess {
  return {
    read: (selector) => {
      if (!Object.hasOwn(refs, selector)) throw new Error(`unknown reference ${selector}`);
      return refs[selector];
    },
    render: (template) => renderTemplate(compileTemplate(template), (ref) => refs[ref.expr]),
  };
}

const apply = (operator: AssignOperator, current: unknown, parameter?: unknown, refs?: Record<string, unknown>) =>
  assignedValue(operator, current, parameter, access(refs));

describe("VariableAssigner operators", () => {
  it.each([
    ["overwrite", 5, "env.zero", { "env.zero": 0 }, 0],
    ["overwrite", "old", "Agent:A@content", { "Agent:A@content": "new" }, "new"],
    ["overwrite", "old", "Agent:A@content", { "Agent:A@content": undefined }, null],
    ["overwrite", 1, 42, {}, 42],
    ["overwrite", "x", "plain text, not a reference", {}, "plain text, not a reference"],
    ["overwrite", [], ["a", "b"], {}, ["a", "b"]],
    ["clear", ["a"], undefined, {}, []],
    ["clear", "text", undefined, {}, ""],
    ["clear", { a: 1 }, undefined, {}, {}],
    ["clear", true, undefined, {}, false],
    ["clear", 3.5, undefined, {}, 0],
    ["clear", null, undefined, {}, null],
    ["set", "", "Hi {env.name}", { "env.name": "Ada" }, "Hi Ada"],
    ["set", null, "Hi {env.name}", { "env.name": "Ada" }, "Hi Ada"],
    ["set", "", "list: {env.list}", { "env.list": [1, 2] }, "list: [1,2]"],
    ["set", undefined, 7, {}, 7],
    ["set", "text", 5, {}, "5"],
    ["set", 1, 0, {}, 0],
    ["set", 1, "42", {}, 42],
    ["set", 1, " 4.5 ", {}, 4.5],
    ["set", 1, "{env.n}", { "env.n": 12 }, 12],
    ["set", [], "{Code:C@rows}", { "Code:C@rows": [{ a: 1 }] }, [{ a: 1 }]],
    ["set", false, "TRUE", {}, true],
    ["set", true, " false ", {}, false],
    ["set", true, false, {}, false],
    ["set", ["a"], "[1, 2]", {}, [1, 2]],
    ["set", ["a"], ["b"], {}, ["b"]],
    ["set", { a: 1 }, '{"b": 2}', {}, { b: 2 }],
    ["append", ["a"], "sys.query", { "sys.query": "b" }, ["a", "b"]],
    ["append", null, "sys.query", { "sys.query": "b" }, ["b"]],
    ["append", [], 3, {}, [3]],
    ["append", [1, 2], 3, {}, [1, 2, 3]],
    ["extend", [1], "env.more", { "env.more": [2, 3] }, [1, 2, 3]],
    ["extend", undefined, [1], {}, [1]],
    ["extend", ["a"], [], {}, ["a"]],
    ["remove_first", [1, 2, 3], undefined, {}, [2, 3]],
    ["remove_last", [1, 2, 3], undefined, {}, [1, 2]],
    ["remove_first", [], undefined, {}, []],
    ["remove_last", null, undefined, {}, []],
    ["+=", 5, 2, {}, 7],
    ["-=", 5, "2", {}, 3],
    ["*=", 5, 2.5, {}, 12.5],
    ["/=", 5, 2, {}, 2.5],
    ["+=", 0.5, -0.5, {}, 0],
  ] as const)("%s on %j with %j → %j", (operator, current, parameter, refs, expected) => {
    expect(apply(operator, current, parameter, refs as Record<string, unknown>)).toEqual(expected);
  });

  it.each([
    ["+=", "5", 1, "the variable is not a number (got text)"],
    ["+=", true, 1, "the variable is not a number (got a boolean)"],
    ["-=", null, 1, "the variable is not a number (got nothing)"],
    ["*=", 5, "abc", 'the parameter is not a number (got text "abc")'],
    ["+=", 5, true, "the parameter is not a number (got a boolean)"],
    ["/=", 5, 0, "division by zero"],
    ["/=", 5, "0", "division by zero"],
    ["*=", 1e308, 10, "the result Infinity is not a finite number"],
    ["append", "text", "x", "the variable is not a list (got text)"],
    ["append", [1, 2], "x", "the parameter is text, but the list's first item is a number"],
    ["extend", ["a"], "not a list", "the parameter is not a list (got text)"],
    ["extend", ["a"], [1], "the parameter's first item is a number, but the list's first item is text"],
    ["extend", { a: 1 }, [1], "the variable is not a list (got an object)"],
    ["remove_first", "abc", undefined, "the variable is not a list (got text)"],
    ["remove_last", 3, undefined, "the variable is not a list (got a number)"],
    ["set", 1, "abc", 'the variable holds a number, but the text "abc" is not a number'],
    ["set", 1, "inf", 'the variable holds a number, but the text "inf" is not a number'],
    ["+=", 1, "Infinity", 'the parameter is not a number (got text "Infinity")'],
    ["set", 1, true, "the variable holds a number, but the parameter (a boolean) is not a number"],
    ["set", false, "yes", 'the variable holds a boolean, but the text "yes" is not true or false'],
    ["set", ["a"], "a,b", 'the variable holds a list, but the text "a,b" is not a list'],
    ["set", { a: 1 }, "[1]", 'the variable holds an object, but the text "[1]" is not an object'],
  ] as const)("%s on %j with %j fails: %s", (operator, current, parameter, message) => {
    expect(() => apply(operator, current, parameter)).toThrow(AssignmentError);
    expect(() => apply(operator, current, parameter)).toThrow(message);
  });

  it("never mutates the current value (copy-on-write)", () => {
    const list = fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 6 });
    fc.assert(
      fc.property(list, fc.constantFrom<AssignOperator>("append", "extend", "remove_first", "remove_last", "clear"), (items, operator) => {
        const current = Object.freeze([...items]);
        const before = [...current];
        const parameter = operator === "extend" ? "env.more" : operator === "append" ? "env.one" : undefined;
        const first = items.length > 0 ? typeof items[0] : "number";
        const refs = { "env.more": first === "string" ? ["x"] : [1], "env.one": first === "string" ? "y" : 2 };
        const result = apply(operator, current, parameter, refs);
        expect(current).toEqual(before);
        expect(result).not.toBe(current);
      }),
    );
  });

  it("arithmetic agrees with JS numbers on safe integers", () => {
    const int = fc.integer({ min: -1e6, max: 1e6 });
    fc.assert(
      fc.property(int, int, fc.boolean(), (a, b, asText) => {
        const parameter = asText ? String(b) : b;
        expect(apply("+=", a, parameter)).toBe(a + b);
        expect(apply("-=", a, parameter)).toBe(a - b);
        expect(apply("*=", a, parameter)).toBe(a * b);
        if (b !== 0) expect(apply("/=", a, parameter)).toBe(a / b);
        else expect(() => apply("/=", a, parameter)).toThrow("division by zero");
      }),
    );
  });

  it("copies literal lists and objects out of the params", () => {
    const literal = ["a"];
    const written = apply("overwrite", [], literal) as string[];
    expect(written).toEqual(["a"]);
    expect(written).not.toBe(literal);
  });
});

describe("VariableAssigner references", () => {
  it("lists the variables, the reference parameters and the template references of set", () => {
    const refs = VariableAssigner.references!({
      variables: [
        { variable: "env.counter", operator: "+=", parameter: 1 },
        { variable: "env.list", operator: "append", parameter: "Agent:A@content" },
        { variable: "env.copy", operator: "overwrite", parameter: "literal text" },
        { variable: "{Loop:L@n}", operator: "set", parameter: "{sys.query} and {env.name}" },
        { variable: "env.flag", operator: "clear" },
      ],
    });
    expect(refs.map((r) => r.expr)).toEqual(["env.counter", "env.list", "Agent:A@content", "env.copy", "Loop:L@n", "sys.query", "env.name", "env.flag"]);
  });
});

const declarations = {
  counter: { name: "counter", type: "number", value: 0 },
  items: { name: "items", type: "array<string>", value: ["a"] },
  name: { name: "name", type: "string", value: "" },
  flag: { name: "flag", type: "boolean", value: false },
};

function assignerDsl(rows: unknown[]) {
  return {
    components: {
      begin: node("Begin", {}, ["VariableAssigner:Set"]),
      "VariableAssigner:Set": node("VariableAssigner", { variables: rows }, ["Message:Show"]),
      "Message:Show": node("Message", { content: ["{env.counter}|{env.items}|{env.name}|{env.flag}"] }),
    },
    globals: {},
    variables: declarations,
  };
}

const changeAll = [
  { variable: "env.counter", operator: "+=", parameter: 2 },
  { variable: "env.counter", operator: "*=", parameter: 3 },
  { variable: "env.items", operator: "append", parameter: "sys.query" },
  { variable: "env.name", operator: "set", parameter: "Hello {sys.query}" },
  { variable: "env.flag", operator: "set", parameter: "true" },
];

describe("VariableAssigner end to end", () => {
  it("changes the declared conversation variables; they carry over to the next turn", async () => {
    const canvas = await loadCanvas(assignerDsl(changeAll));
    const first = await canvas.runToEnd({ query: "hi" });
    expect(messages(first)).toEqual(['6|["a","hi"]|Hello hi|true']);
    const second = await canvas.runToEnd({ query: "yo" });
    expect(messages(second)).toEqual(['24|["a","hi","yo"]|Hello yo|true']);
    expect(canvas.globals["env.counter"]).toBe(24);
    expect(canvas.globals["env.items"]).toEqual(["a", "hi", "yo"]);
  });

  it("records the values it read (an append does not read the list it grows)", async () => {
    const canvas = await loadCanvas(assignerDsl(changeAll));
    const events = await canvas.runToEnd({ query: "hi" });
    const data = nodeFinished(events, "VariableAssigner:Set");
    expect(data.error).toBeNull();
    expect(data.inputs).toEqual({ "env.counter": 2, "sys.query": "hi", "env.name": "", "env.flag": false });
    expect(data.outputs).toEqual({});
  });

  it("fails with the variable, operator and reason, and leaves every variable as it was", async () => {
    const canvas = await loadCanvas(
      assignerDsl([
        { variable: "env.counter", operator: "+=", parameter: 1 },
        { variable: "env.items", operator: "remove_first" },
        { variable: "env.name", operator: "+=", parameter: 1 },
      ]),
    );
    const events = await canvas.runToEnd({ query: "hi" });
    expect(nodeFinished(events, "VariableAssigner:Set").error).toBe("env.name += 1: the variable is not a number (got text)");
    const last = events.at(-1)!;
    expect(last.event).toBe("workflow_finished");
    expect(last.event === "workflow_finished" && last.data.error).toBe(
      "VariableAssigner:Set (VariableAssigner:Set): env.name += 1: the variable is not a number (got text)",
    );
    expect(messages(events)).toEqual([]);
    expect(canvas.globals["env.counter"]).toBe(0);
    expect(canvas.globals["env.items"]).toEqual(["a"]);
  });

  it("overwrites from a reference and uses a non-reference parameter as a literal", async () => {
    const canvas = await loadCanvas(
      assignerDsl([
        { variable: "env.name", operator: "overwrite", parameter: "sys.query" },
        { variable: "env.items", operator: "extend", parameter: ["b", "c"] },
        { variable: "env.counter", operator: "overwrite", parameter: 41 },
        { variable: "env.counter", operator: "+=", parameter: "1" },
        { variable: "env.flag", operator: "overwrite", parameter: true },
      ]),
    );
    expect(messages(await canvas.runToEnd({ query: "Ada" }))).toEqual(['42|["a","b","c"]|Ada|true']);
  });

  it("counts a Loop variable up until the termination condition holds", async () => {
    const dsl = {
      components: {
        begin: node("Begin", {}, ["Loop:Count"]),
        "Loop:Count": node(
          "Loop",
          {
            loop_variables: [{ variable: "n", input_mode: "constant", type: "number", value: 0 }],
            loop_termination_condition: [{ variable: "Loop:Count@n", operator: "≥", input_mode: "constant", value: 3 }],
            maximum_loop_count: 10,
            logical_operator: "and",
          },
          ["Message:Done"],
        ),
        "LoopItem:Round": node("LoopItem", {}, ["VariableAssigner:Inc"], { parent_id: "Loop:Count" }),
        "VariableAssigner:Inc": node("VariableAssigner", { variables: [{ variable: "Loop:Count@n", operator: "+=", parameter: 1 }] }, [], { parent_id: "Loop:Count" }),
        "Message:Done": node("Message", { content: ["n={Loop:Count@n}"] }),
      },
      globals: {},
    };
    const canvas = await loadCanvas(dsl);
    const events = await canvas.runToEnd({ query: "go" });
    expect(messages(events)).toEqual(["n=3"]);
    expect(events.filter((e) => e.event === "node_finished" && e.data.component_id === "VariableAssigner:Inc")).toHaveLength(3);
  });
});

/**
 * RAGFlow's Go port, internal/agent/canvas/loop_semantics_test.go (variableModeLoopDSL): an
 * assigner seeds its own output, a Loop starts its counter from it (input_mode "variable"), and
 * another assigner counts the loop variable up until it reaches the threshold.
 */
function seededLoopDsl(threshold: number, step: number) {
  return {
    components: {
      begin: node("Begin", {}, ["VariableAssigner:Seed"]),
      "VariableAssigner:Seed": node("VariableAssigner", { variables: [{ variable: "VariableAssigner:Seed@initial", operator: "set", parameter: 5 }] }, ["Loop:Count"]),
      "Loop:Count": node(
        "Loop",
        {
          loop_variables: [{ variable: "counter", input_mode: "variable", value: "VariableAssigner:Seed@initial", type: "number" }],
          loop_termination_condition: [{ variable: "Loop:Count@counter", operator: "≥", value: threshold, input_mode: "constant" }],
          logical_operator: "and",
          maximum_loop_count: 50,
        },
        ["Message:Done"],
      ),
      "LoopItem:Round": node("LoopItem", {}, ["VariableAssigner:Bump"], { parent_id: "Loop:Count" }),
      "VariableAssigner:Bump": node("VariableAssigner", { variables: [{ variable: "Loop:Count@counter", operator: "+=", parameter: step }] }, [], { parent_id: "Loop:Count" }),
      "Message:Done": node("Message", { content: ["counter={Loop:Count@counter}"] }),
    },
    globals: {},
  };
}

describe("VariableAssigner writing its own output (RAGFlow's TestLoop_VariableModeInitDereferencesRef)", () => {
  it("is valid: the target is written, not read", () => {
    expect(validateDsl(seededLoopDsl(8, 1)).issues).toEqual([]);
  });

  it("seeds the Loop's counter from the assigner's own output: 5, then three rounds to 8", async () => {
    const events = await (await loadCanvas(seededLoopDsl(8, 1))).runToEnd({ query: "go" });
    expect(nodeFinished(events, "VariableAssigner:Seed").outputs).toMatchObject({ initial: 5 });
    expect(messages(events)).toEqual(["counter=8"]);
    expect(events.filter((e) => e.event === "node_finished" && e.data.component_id === "VariableAssigner:Bump")).toHaveLength(3);
  });

  it("still refuses a row that reads the assigner's own output as its parameter", () => {
    const dsl = seededLoopDsl(8, 1);
    dsl.components["VariableAssigner:Seed"] = node(
      "VariableAssigner",
      { variables: [{ variable: "VariableAssigner:Seed@initial", operator: "overwrite", parameter: "VariableAssigner:Seed@other" }] },
      ["Loop:Count"],
    );
    expect(validateDsl(dsl).issues.map((i) => [i.code, i.pointer, i.message])).toEqual([
      [
        "self-reference",
        "/components/VariableAssigner:Seed/obj/params/variables/0/parameter",
        "reference {VariableAssigner:Seed@other}: a component cannot read its own output",
      ],
    ]);
  });

  it("refuses arithmetic on its own output: += reads the value, which is empty each time it starts", () => {
    const dsl = seededLoopDsl(8, 1);
    dsl.components["VariableAssigner:Seed"] = node("VariableAssigner", { variables: [{ variable: "VariableAssigner:Seed@initial", operator: "+=", parameter: 1 }] }, ["Loop:Count"]);
    expect(validateDsl(dsl).issues.map((i) => [i.code, i.pointer])).toEqual([["self-reference", "/components/VariableAssigner:Seed/obj/params/variables/0/variable"]]);
  });
});

describe("VariableAssigner validation", () => {
  const issues = (rows: unknown) =>
    validateDsl(assignerDsl(rows as unknown[]))
      .issues.filter((i) => i.componentId === "VariableAssigner:Set")
      .map((i) => [i.severity, i.pointer.replace("/components/VariableAssigner:Set/obj/params", ""), i.message]);

  it("accepts well-formed rows", () => {
    expect(issues(changeAll)).toEqual([]);
  });

  it("reports incomplete and invalid rows", () => {
    expect(
      issues([
        { operator: "set", parameter: "x" },
        { variable: "counter", operator: "set", parameter: "x" },
        { variable: "env.counter", operator: "inc", parameter: 1 },
        { variable: "env.counter", operator: "+=" },
        { variable: "env.counter", operator: "+=", parameter: "one" },
        { variable: "env.counter", operator: "/=", parameter: 0 },
        { variable: "env.items", operator: "clear" },
        { variable: "env.missing", operator: "clear" },
      ]),
    ).toEqual([
      ["error", "/variables/7/variable", 'reference {env.missing}: no conversation variable "missing" is declared'],
      ["error", "/variables/0/variable", "assignment 1 has no variable"],
      ["error", "/variables/1/variable", 'assignment 2: variable "counter" is not a reference (expected env.x, sys.x or cpn@var)'],
      ["error", "/variables/2/operator", 'assignment 3 has the unknown operator "inc" (use one of: overwrite, clear, set, append, extend, remove_first, remove_last, +=, -=, *=, /=)'],
      ["error", "/variables/3/parameter", 'assignment 4: operator "+=" needs a parameter'],
      ["error", "/variables/4/parameter", 'assignment 5 (+=): the parameter is not a number (got text "one")'],
      ["error", "/variables/5/parameter", "assignment 6: /= 0 is a division by zero"],
    ]);
  });

  it("accepts 0 and \"\" as parameters, and warns when there is nothing to assign", () => {
    expect(issues([{ variable: "env.counter", operator: "set", parameter: 0 }, { variable: "env.name", operator: "set", parameter: "" }])).toEqual([]);
    expect(issues([])).toEqual([["warning", "/variables", "no assignment is configured: the component changes nothing"]]);
    expect(issues("env.counter")).toEqual([["error", "/variables", 'param "variables" must be array']]);
  });

  it("loads the assigners of RAGFlow's all.json fixture", () => {
    const dsl = assignerDsl([{ operator: "overwrite", parameter: "env.zero", variable: "env.counter" }]);
    (dsl.variables as Record<string, unknown>).zero = { name: "zero", type: "number", value: 0 };
    expect(validateDsl(dsl).issues).toEqual([]);
    expect(issues([{ operator: "+=", parameter: 1, variable: "env.counter" }])).toEqual([]);
    expect(issues([{ operator: "set", parameter: "1", variable: "env.name" }])).toEqual([]);
  });
});

describe("VariableAssigner creates sys.* globals, as RAGFlow's set_variable_value does", () => {
  /** begin → assigner (rows) → Message showing `content`. */
  function sysCanvas(rows: unknown[], content: string) {
    return {
      components: {
        begin: node("Begin", {}, ["VariableAssigner:Set"]),
        "VariableAssigner:Set": node("VariableAssigner", { variables: rows }, ["Message:Show"]),
        "Message:Show": node("Message", { content: [content] }),
      },
      globals: {},
      variables: declarations,
    };
  }

  it("creates sys.x, which later components read; validation knows it", async () => {
    const dsl = sysCanvas(
      [
        { variable: "sys.x", operator: "set", parameter: "hello {sys.query}" },
        { variable: "sys.list", operator: "append", parameter: "sys.query" },
        { variable: "{{ sys.copy }}", operator: "overwrite", parameter: "sys.x" },
      ],
      "{sys.x}|{sys.list}|{ sys.copy }",
    );
    expect(validateDsl(dsl).issues).toEqual([]);
    const canvas = await loadCanvas(dsl);
    const first = await canvas.runToEnd({ query: "hi" });
    expect(messages(first)).toEqual(['hello hi|["hi"]|hello hi']);
    // A global that did not exist reads as null; sys.x was read again, once set, by the overwrite.
    expect(nodeFinished(first, "VariableAssigner:Set").inputs).toEqual({ "sys.x": "hello hi", "sys.query": "hi", "sys.copy": null });
    // Created globals live on with the conversation, like the other globals.
    const second = await canvas.runToEnd({ query: "yo" });
    expect(messages(second)).toEqual(['hello yo|["hi","yo"]|hello yo']);
  });

  it("treats a new global's current value as nothing: arithmetic on it fails and names it", async () => {
    const canvas = await loadCanvas(sysCanvas([{ variable: "sys.n", operator: "+=", parameter: 1 }], "{sys.n}"));
    const events = await canvas.runToEnd({ query: "hi" });
    expect(nodeFinished(events, "VariableAssigner:Set").error).toBe("sys.n += 1: the variable is not a number (got nothing)");
  });

  it("removes the globals it created when a later row fails, so a retry starts from the same state", async () => {
    const canvas = await loadCanvas(
      sysCanvas(
        [
          { variable: "sys.x", operator: "set", parameter: "a" },
          { variable: "env.name", operator: "+=", parameter: 1 },
        ],
        "{sys.x}",
      ),
    );
    const events = await canvas.runToEnd({ query: "hi" });
    expect(nodeFinished(events, "VariableAssigner:Set").error).toBe("env.name += 1: the variable is not a number (got text)");
    expect(Object.hasOwn(canvas.globals, "sys.x")).toBe(false);
  });

  it("still reports a sys.* global that nothing defines or assigns, and an undeclared env.* target", () => {
    const dsl = sysCanvas([{ variable: "env.undeclared", operator: "set", parameter: "a" }], "{sys.nobody}");
    expect(validateDsl(dsl).issues.map((i) => [i.componentId, i.message])).toEqual([
      ["VariableAssigner:Set", 'reference {env.undeclared}: no conversation variable "undeclared" is declared'],
      ["Message:Show", 'reference {sys.nobody}: "sys.nobody" is not a system variable (known: sys.query, sys.user_id, sys.conversation_turns, sys.files, sys.history, sys.date)'],
    ]);
  });

  it("a read before the assigner ran is an error naming the global", async () => {
    const dsl = {
      components: {
        begin: node("Begin", {}, ["Message:Early"]),
        "Message:Early": node("Message", { content: ["{sys.later}"] }, ["VariableAssigner:Set"]),
        "VariableAssigner:Set": node("VariableAssigner", { variables: [{ variable: "sys.later", operator: "set", parameter: "x" }] }),
      },
      globals: {},
    };
    const events = await (await loadCanvas(dsl)).runToEnd({ query: "hi" });
    expect(nodeFinished(events, "Message:Early").error).toContain('reference {sys.later}: no system variable "sys.later" is defined');
  });

  it("may overwrite the runtime's own globals for the rest of the turn, with a warning saying when the runtime writes them", async () => {
    const dsl = sysCanvas(
      [
        { variable: "sys.query", operator: "set", parameter: "rewritten {sys.query}" },
        { variable: "sys.conversation_turns", operator: "+=", parameter: 10 },
      ],
      "{sys.query}|{sys.conversation_turns}",
    );
    expect(validateDsl(dsl).issues.map((i) => [i.severity, i.pointer.replace("/components/VariableAssigner:Set/obj/params", ""), i.message])).toEqual([
      ["warning", "/variables/0/variable", "assignment 1 changes sys.query, which the runtime also writes: it sets it to the user's message at the start of every turn"],
      ["warning", "/variables/1/variable", "assignment 2 changes sys.conversation_turns, which the runtime also writes: it adds 1 at the start of every turn"],
    ]);
    const canvas = await loadCanvas(dsl);
    expect(messages(await canvas.runToEnd({ query: "hi" }))).toEqual(["rewritten hi|11"]);
    expect(messages(await canvas.runToEnd({ query: "yo" }))).toEqual(["rewritten yo|22"]);
  });
});
