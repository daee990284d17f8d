/**
 * Validation: every problem collected, each with pointer, component and message; never a throw.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCanvas, validateDsl } from "../../src/api.js";
import { canvasDsl, messageText, node, validationErrors } from "../helpers/dsl.js";

const graphNames = (names: Record<string, string>) => ({
  graph: { nodes: Object.entries(names).map(([id, name]) => ({ id, data: { name } })), edges: [] },
});

describe("validateDsl", () => {
  it("accepts a minimal canvas", () => {
    expect(validateDsl(canvasDsl({ begin: node("Begin") }))).toEqual({ kind: "agent", valid: true, issues: [] });
  });

  it("collects every problem at once, naming pointer, id, display name and type", () => {
    const dsl = {
      ...canvasDsl({
        begin: node("Begin", {}, ["Message:M", "Ghost:1"]),
        "Message:M": node("Message", { content: ["{Nobody@x}", "{sys.nothing}"] }, [], { parent_id: "Message:Other" }),
        "Message:Other": node("Message", { content: ["fine"], exception_method: "goto", exception_goto: ["Lost:2"] }),
        "Weird:1": node("NoSuchType"),
      }),
      ...graphNames({ "Message:M": "Reply" }),
    };
    expect(validationErrors(dsl)).toEqual([
      expect.objectContaining({ code: "unknown-target", pointer: "/components/begin/downstream/1", componentId: "begin", message: 'downstream lists "Ghost:1", which is not a component of this canvas' }),
      expect.objectContaining({ code: "parent-not-container", pointer: "/components/Message:M/parent_id", componentName: "Reply", componentType: "Message" }),
      expect.objectContaining({ code: "unknown-reference", pointer: "/components/Message:M/obj/params/content/0", message: 'reference {Nobody@x}: no component "Nobody" in this canvas' }),
      expect.objectContaining({ code: "unknown-reference", pointer: "/components/Message:M/obj/params/content/1", message: expect.stringContaining('"sys.nothing" is not a system variable') }),
      expect.objectContaining({ code: "unknown-target", pointer: "/components/Message:Other/obj/params/exception_goto/0" }),
      expect.objectContaining({ code: "unknown-component", pointer: "/components/Weird:1/obj/component_name", message: 'unknown component_name "NoSuchType": no component of that type is registered' }),
    ]);
  });

  it("requires a begin, and only one", () => {
    expect(validationErrors(canvasDsl({ "Message:M": node("Message", { content: ["x"] }) }))).toEqual([
      expect.objectContaining({ code: "missing-begin", message: 'the canvas has no start component (a Begin with the id "begin")' }),
    ]);
    expect(validationErrors(canvasDsl({ begin: node("Begin"), "Begin:2": node("Begin") })).map((i) => i.code)).toEqual(["extra-begin"]);
    expect(validationErrors(canvasDsl({ begin: node("Message", { content: ["x"] }) })).map((i) => i.code)).toEqual(["missing-begin"]);
  });

  it("requires a container's start child and a known parent", () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Iteration:I"]),
      "Iteration:I": node("Iteration", { items_ref: "sys.files" }),
      "Message:M": node("Message", { content: ["x"] }, [], { parent_id: "Nowhere" }),
    });
    expect(validationErrors(dsl).map((i) => [i.code, i.pointer])).toEqual([
      ["missing-start", "/components/Iteration:I"],
      ["unknown-parent", "/components/Message:M/parent_id"],
    ]);
  });

  it("checks params against the component's schema, with the param's pointer", () => {
    const dsl = canvasDsl({ begin: node("Begin", { mode: "chatty" }), "Message:M": node("Message", { content: "not a list", max_retries: -1 }) });
    const found = validationErrors(dsl);
    expect(found).toContainEqual(expect.objectContaining({ pointer: "/components/begin/obj/params/mode", message: 'param "mode" must be one of "conversational", "task", "Webhook"' }));
    expect(found).toContainEqual(expect.objectContaining({ pointer: "/components/Message:M/obj/params/max_retries", message: 'param "max_retries" must be >= 0' }));
    expect(found).toContainEqual(expect.objectContaining({ pointer: "/components/Message:M/obj/params/content", componentType: "Message" }));
  });

  it("checks references to declared conversation variables and aliases", () => {
    const dsl = canvasDsl(
      {
        begin: node("Begin", {}, ["Message:M"]),
        "Message:M": node("Message", { content: ["{env.known} {env.unknown} {item}"] }),
      },
      { variables: { known: { name: "known", type: "string", value: "" } } },
    );
    expect(validationErrors(dsl).map((i) => i.message)).toEqual([
      'reference {env.unknown}: no conversation variable "unknown" is declared',
      "reference {item}: {item} is only defined in a direct child of an Iteration",
    ]);
  });

  it("accepts a path below a global exactly when the pool can read it (globalPrefix)", async () => {
    const dsl = canvasDsl(
      {
        begin: node("Begin", {}, ["Message:M"]),
        "Message:M": node("Message", { content: ["{sys.custom.name} {env.cfg.v2.mode}"] }),
      },
      { globals: { "sys.custom": { name: "Ada" }, "env.cfg.v2": { mode: "fast" } } },
    );
    expect(validateDsl(dsl)).toEqual({ kind: "agent", valid: true, issues: [] });
    // A fresh session resets sys.* globals to their zero ({} here), so only env.cfg.v2 keeps its value.
    const canvas = await loadCanvas(dsl);
    expect(messageText(await canvas.runToEnd({}))).toBe(" fast");
    const bad = canvasDsl(
      { begin: node("Begin", {}, ["Message:M"]), "Message:M": node("Message", { content: ["{sys.customer.name}"] }) },
      { globals: { "sys.custom": { name: "Ada" } } },
    );
    expect(validationErrors(bad).map((i) => i.message)).toEqual([
      'reference {sys.customer.name}: "sys.customer.name" is not a system variable (known: sys.query, sys.user_id, sys.conversation_turns, sys.files, sys.history, sys.date)',
    ]);
  });

  it("prefixes pointers with /dsl inside a template envelope", () => {
    const report = validateDsl({ id: 1, title: "t", canvas_type: "Agent", dsl: canvasDsl({ begin: node("Begin", {}, ["X"]) }) });
    expect(report.issues[0].pointer).toBe("/dsl/components/begin/downstream/0");
  });

  it("classifies pipelines, legacy and graph-only DSLs", () => {
    // An agent canvas (it has a Begin) holding a pipeline step, and a pipeline holding a Begin: each says what is wrong.
    const agent = validateDsl(canvasDsl({ File: node("File"), begin: node("Begin") }));
    expect(agent).toMatchObject({ kind: "agent", valid: false });
    expect(agent.issues.map((issue) => issue.code)).toContain("pipeline-component");
    const pipeline = validateDsl({ id: 1, canvas_category: "dataflow_canvas", dsl: canvasDsl({ begin: node("Begin") }) });
    expect(pipeline).toMatchObject({ kind: "pipeline", valid: false });
    expect(pipeline.issues.map((issue) => issue.code)).toEqual(["missing-begin", "agent-component"]);
    expect(validateDsl({ components: { begin: node("Begin"), "answer:0": node("Answer") }, path: [] })).toMatchObject({ kind: "legacy" });
    expect(validateDsl({ components: { begin: node("Begin") }, path: [["begin"]], globals: {} })).toMatchObject({ kind: "legacy" });
    expect(validateDsl({ graph: { nodes: [{ id: "begin", data: { label: "Begin" } }], edges: [] } })).toMatchObject({ kind: "graph-only" });
    expect(validateDsl({ globals: {} })).toMatchObject({ kind: "unknown", valid: false });
  });

  it("never throws, whatever JSON it is given (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const wrapped = value !== null && typeof value === "object" && !Array.isArray(value) ? value : { components: value };
        const report = validateDsl(wrapped as object);
        expect(typeof report.valid).toBe("boolean");
        for (const issue of report.issues) {
          expect(issue.pointer.startsWith("/") || issue.pointer === "").toBe(true);
          expect(issue.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on canvases with random components, params and references (property)", () => {
    const names = ["Begin", "Message", "Switch", "Iteration", "IterationItem", "Loop", "LoopItem", "ExitLoop", "UserFillUp", "VariableAssigner", "Nope"];
    const id = fc.constantFrom("begin", "A:1", "B:2", "C:3");
    const entry = fc.record({
      obj: fc.record({ component_name: fc.constantFrom(...names), params: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })) }),
      downstream: fc.array(id, { maxLength: 3 }),
      parent_id: fc.option(id, { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.dictionary(id, entry), fc.string(), (components, text) => {
        const report = validateDsl({ components: { ...components, "M:9": node("Message", { content: [text] }) } });
        expect(report.kind).toBe("agent");
        if (!components.begin) expect(report.valid).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
