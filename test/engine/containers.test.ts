/**
 * Iteration and Loop through the engine: path order, aliases, collected outputs, termination,
 * ExitLoop, and counters that survive a pause.
 */
import { describe, expect, it } from "vitest";
import { Loop } from "../../src/components/loop.js";
import type { CheckInfo } from "../../src/components/types.js";
import { canvasFromSource, loadCanvas, validateDsl } from "../../src/api.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { canvasDsl, lastEvent, messageText, node, trace } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";

const seen: string[] = [];
/** Probe: records its rendered `text` and outputs it as `result`. */
const Probe: ComponentDefinition = {
  name: "Probe",
  invoke(ctx) {
    const text = ctx.render(String(ctx.params.text ?? ""));
    seen.push(text);
    ctx.setOutput("result", text);
  },
};

const registry = () => registryWith(Probe);

const iterationDsl = canvasDsl(
  {
    begin: node("Begin", {}, ["Iteration:1"]),
    "Iteration:1": node("Iteration", { items_ref: "env.items", outputs: { lines: { ref: "Probe:1@result", type: "Array<string>" } } }, ["Message:Sink"]),
    "IterationItem:1": node("IterationItem", {}, ["Probe:1"], { parent_id: "Iteration:1" }),
    "Probe:1": node("Probe", { text: "{index}={item}/{result}" }, [], { parent_id: "Iteration:1" }),
    "Message:Sink": node("Message", { content: ["{Iteration:1@lines}"] }),
  },
  { variables: { items: { name: "items", type: "array<string>", value: ["a", "b", "c"] } } },
);

describe("Iteration", () => {
  it("follows RAGFlow's path order and resolves the {item}/{index}/{result} aliases", async () => {
    seen.length = 0;
    const canvas = await loadCanvas(iterationDsl, { registry: registry() });
    const events = await canvas.runToEnd({});
    expect(trace(events).filter((t) => t.startsWith("node_"))).toEqual([
      "node_started:begin",
      "node_finished:begin",
      "node_started:Iteration:1",
      "node_started:IterationItem:1",
      "node_finished:IterationItem:1",
      "node_started:Probe:1",
      "node_finished:Probe:1",
      "node_started:IterationItem:1",
      "node_finished:IterationItem:1",
      "node_started:Probe:1",
      "node_finished:Probe:1",
      "node_started:IterationItem:1",
      "node_finished:IterationItem:1",
      "node_started:Probe:1",
      "node_finished:Probe:1",
      "node_started:IterationItem:1",
      "node_finished:IterationItem:1",
      "node_finished:Iteration:1",
      "node_started:Message:Sink",
      "node_finished:Message:Sink",
    ]);
    expect(seen).toEqual(["0=a/a", "1=b/b", "2=c/c"]);
    expect(messageText(events)).toBe('["0=a/a","1=b/b","2=c/c"]');
    const iterationFinished = events.find((e) => e.event === "node_finished" && e.data.component_id === "Iteration:1");
    expect(iterationFinished?.data).toMatchObject({ outputs: { lines: ["0=a/a", "1=b/b", "2=c/c"] }, error: null });
  });

  it("runs afresh when the same canvas runs again (counters are reset, not left at the end)", async () => {
    const canvas = await loadCanvas(iterationDsl, { registry: registry() });
    await canvas.runToEnd({});
    const second = await canvas.runToEnd({});
    expect(messageText(second)).toBe('["0=a/a","1=b/b","2=c/c"]');
  });

  it("an empty list finishes the Iteration at once", async () => {
    const canvas = await loadCanvas({ ...iterationDsl, variables: { items: { name: "items", type: "array<string>", value: [] } } }, { registry: registry() });
    const events = await canvas.runToEnd({});
    expect(messageText(events)).toBe("[]");
  });

  it("starts each item with the body's outputs cleared, so an untaken branch never leaks the last item's value", async () => {
    const dsl = canvasDsl(
      {
        begin: node("Begin", {}, ["Iteration:1"]),
        "Iteration:1": node("Iteration", { items_ref: "env.items", outputs: { labels: { ref: "VariableAggregator:Pick@label" } } }, ["Message:Sink"]),
        "IterationItem:1": node("IterationItem", {}, ["Switch:Size"], { parent_id: "Iteration:1" }),
        "Switch:Size": node(
          "Switch",
          { conditions: [{ logical_operator: "and", items: [{ cpn_id: "IterationItem:1@item", operator: ">", value: "5" }], to: ["Probe:Big"] }], end_cpn_ids: ["Probe:Small"] },
          ["Probe:Big", "Probe:Small"],
          { parent_id: "Iteration:1" },
        ),
        "Probe:Big": node("Probe", { text: "{item} big" }, ["VariableAggregator:Pick"], { parent_id: "Iteration:1" }),
        "Probe:Small": node("Probe", { text: "{item} small" }, ["VariableAggregator:Pick"], { parent_id: "Iteration:1" }),
        "VariableAggregator:Pick": node(
          "VariableAggregator",
          { groups: [{ group_name: "label", variables: [{ value: "Probe:Big@result" }, { value: "Probe:Small@result" }] }] },
          [],
          { parent_id: "Iteration:1" },
        ),
        "Message:Sink": node("Message", { content: ["{Iteration:1@labels}"] }),
      },
      { variables: { items: { name: "items", type: "array<number>", value: [3, 8, 1] } } },
    );
    const canvas = await loadCanvas(dsl, { registry: registry() });
    expect(messageText(await canvas.runToEnd({}))).toBe('["3 small","8 big","1 small"]');
  });

  it("validation points at a collected output by its escaped name", () => {
    const dsl = { ...iterationDsl, components: { ...iterationDsl.components, "Iteration:1": node("Iteration", { items_ref: "env.items", outputs: { "a/b~c": { ref: "Ghost:1@result" } } }, ["Message:Sink"]) } };
    expect(validateDsl(dsl, { registry: registry() }).issues).toEqual([
      expect.objectContaining({
        severity: "error",
        pointer: "/components/Iteration:1/obj/params/outputs/a~1b~0c/ref",
        message: 'output "a/b~c" collects from "Ghost:1", which is not a component of this canvas',
      }),
    ]);
  });

  it("a component outside the Iteration that reads its lists waits until the Iteration finished", async () => {
    seen.length = 0;
    const dsl = canvasDsl(
      {
        begin: node("Begin", {}, ["Iteration:1", "Probe:Reader"]),
        "Iteration:1": node("Iteration", { items_ref: "env.items", outputs: { lines: { ref: "Probe:1@result", type: "Array<string>" } } }),
        "IterationItem:1": node("IterationItem", {}, ["Probe:1"], { parent_id: "Iteration:1" }),
        "Probe:1": node("Probe", { text: "{item}" }, [], { parent_id: "Iteration:1" }),
        "Probe:Reader": node("Probe", { text: "lines={Iteration:1@lines}" }),
      },
      { variables: { items: { name: "items", type: "array<string>", value: ["a", "b"] } } },
    );
    const canvas = await loadCanvas(dsl, { registry: registry() });
    await canvas.runToEnd({});
    expect(canvas.outputs("Probe:Reader")).toEqual({ result: 'lines=["a","b"]' });
  });

  it("items that are not a list fail the Iteration with a clear error", async () => {
    const canvas = await loadCanvas({ ...iterationDsl, variables: { items: { name: "items", type: "string", value: "abc" } } }, { registry: registry() });
    const events = await canvas.runToEnd({});
    expect(trace(events).at(-1)).toBe('workflow_finished!Iteration:1 (Iteration:1): items_ref "env.items" must be a list, got text');
  });
});

function loopDsl(loopParams: Record<string, unknown>, body: Record<string, ReturnType<typeof node>>, first: string) {
  return canvasDsl(
    {
      begin: node("Begin", {}, ["Loop:L"]),
      "Loop:L": node("Loop", loopParams, ["Message:Done"]),
      "LoopItem:S": node("LoopItem", {}, [first], { parent_id: "Loop:L" }),
      ...body,
      "Message:Done": node("Message", { content: ["done n={Loop:L@n}"] }),
    },
    { variables: { n: { name: "n", type: "number", value: 0 } } },
  );
}

describe("Loop", () => {
  it("stops after maximum_loop_count rounds", async () => {
    const dsl = loopDsl(
      { maximum_loop_count: 3, loop_variables: [{ variable: "n", input_mode: "constant", type: "number", value: 0 }] },
      { "Probe:B": node("Probe", { text: "round {Loop:L@n}" }, [], { parent_id: "Loop:L" }) },
      "Probe:B",
    );
    const canvas = await loadCanvas(dsl, { registry: registry() });
    const events = await canvas.runToEnd({});
    expect(trace(events).filter((t) => t === "node_started:Probe:B")).toHaveLength(3);
    expect(trace(events).filter((t) => t === "node_finished:Loop:L")).toHaveLength(1);
    expect(messageText(events)).toBe("done n=0");
  });

  it("stops when a termination condition holds, with loop variables changed by the body", async () => {
    const Inc: ComponentDefinition = {
      name: "Inc",
      invoke(ctx) {
        ctx.set("Loop:L@n", Number(ctx.get("Loop:L@n")) + 1);
      },
    };
    const r = registry();
    r.register(Inc);
    const dsl = loopDsl(
      {
        maximum_loop_count: 10,
        loop_variables: [{ variable: "n", input_mode: "constant", type: "number", value: 0 }],
        loop_termination_condition: [{ variable: "Loop:L@n", operator: "≥", input_mode: "constant", value: 4 }],
        logical_operator: "and",
      },
      { "Inc:B": node("Inc", {}, [], { parent_id: "Loop:L" }) },
      "Inc:B",
    );
    const canvas = await loadCanvas(dsl, { registry: r });
    const events = await canvas.runToEnd({});
    expect(trace(events).filter((t) => t === "node_started:Inc:B")).toHaveLength(4);
    expect(messageText(events)).toBe("done n=4");
  });

  it("ExitLoop leaves the loop and the Loop still reports node_finished (RAGFlow emits none)", async () => {
    const dsl = loopDsl(
      { maximum_loop_count: 10 },
      {
        "Probe:B": node("Probe", { text: "once" }, ["ExitLoop:X"], { parent_id: "Loop:L" }),
        "ExitLoop:X": node("ExitLoop", {}, [], { parent_id: "Loop:L" }),
      },
      "Probe:B",
    );
    const canvas = await loadCanvas(dsl, { registry: registry() });
    const events = await canvas.runToEnd({});
    expect(trace(events).filter((t) => t.startsWith("node_"))).toEqual([
      "node_started:begin",
      "node_finished:begin",
      "node_started:Loop:L",
      "node_started:LoopItem:S",
      "node_finished:LoopItem:S",
      "node_started:Probe:B",
      "node_finished:Probe:B",
      "node_started:ExitLoop:X",
      "node_finished:ExitLoop:X",
      "node_finished:Loop:L",
      "node_started:Message:Done",
      "node_finished:Message:Done",
    ]);
  });

  it("an operator that does not fit the value fails through the error path (RAGFlow crashes)", async () => {
    const dsl = loopDsl(
      {
        maximum_loop_count: 5,
        loop_variables: [{ variable: "n", input_mode: "constant", type: "number", value: 0 }],
        loop_termination_condition: [{ variable: "Loop:L@n", operator: "contains", value: 1 }],
      },
      { "Probe:B": node("Probe", { text: "x" }, [], { parent_id: "Loop:L" }) },
      "Probe:B",
    );
    const canvas = await loadCanvas(dsl, { registry: registry() });
    const events = await canvas.runToEnd({});
    expect(trace(events).at(-1)).toBe('workflow_finished!LoopItem:S (LoopItem:S): invalid operator "contains" for a number (use one of: =, ≠, >, <, ≥, ≤, empty, not empty)');
  });

  it("keeps its round counter across a pause inside the loop, even in another process", async () => {
    const dsl = loopDsl(
      { maximum_loop_count: 2 },
      { "UserFillUp:Q": node("UserFillUp", { tips: "again?", inputs: { v: { name: "v", type: "line" } } }, [], { parent_id: "Loop:L" }) },
      "UserFillUp:Q",
    );
    let canvas = await loadCanvas(dsl, { registry: registry() });
    let events = await canvas.runToEnd({});
    expect(lastEvent(events).event).toBe("user_inputs");
    for (let round = 1; round <= 2; round++) {
      canvas = await loadCanvas(JSON.parse(JSON.stringify(canvas)), { registry: registry() });
      events = await canvas.runToEnd({ inputs: { v: String(round) } });
    }
    // Two rounds ran (max 2): the second answer ends the loop instead of asking a third time.
    expect(lastEvent(events).event).toBe("workflow_finished");
    expect(trace(events)).toContain("node_finished:Loop:L");
    expect(messageText(events)).toBe("done n=");
  });

  // A DSL built in code may skip validation: the schema (integer) reports these at load time.
  function unvalidatedLoop(maximum: unknown) {
    const dsl = loopDsl({ maximum_loop_count: maximum }, { "Probe:B": node("Probe", { text: "round" }, [], { parent_id: "Loop:L" }) }, "Probe:B");
    return canvasFromSource({ dsl }, registry(), {}, { kind: "agent", valid: true, issues: [] });
  }

  it("a maximum_loop_count that is not a number is an error, not a silent end of the loop", async () => {
    const dsl = loopDsl({ maximum_loop_count: "many" }, {}, "Message:Done");
    expect(validateDsl(dsl, { registry: registry() }).issues).toEqual([
      expect.objectContaining({ pointer: "/components/Loop:L/obj/params/maximum_loop_count", message: 'param "maximum_loop_count" must be integer' }),
    ]);
    const events = await unvalidatedLoop("many").runToEnd({});
    expect(trace(events).at(-1)).toBe('workflow_finished!LoopItem:S (LoopItem:S): maximum_loop_count must be a number, not "many"');
    expect(trace(events)).not.toContain("node_started:Probe:B");
  });

  it("reads maximum_loop_count given as numeric text, and a missing one as 0 rounds", async () => {
    const twice = await unvalidatedLoop(" 2 ").runToEnd({});
    expect(trace(twice).filter((t) => t === "node_started:Probe:B")).toHaveLength(2);
    expect(lastEvent(twice).event).toBe("workflow_finished");
    const never = await unvalidatedLoop(null).runToEnd({});
    expect(trace(never)).not.toContain("node_started:Probe:B");
    expect(messageText(never)).toBe("done n=");
  });

  it("checks only object rows (a list is not a row), pointing at their place in the list", () => {
    const problems = Loop.check!(
      {
        loop_variables: [null, { variable: "n", input_mode: "variable", type: "number", value: "not a ref" }],
        loop_termination_condition: [["Loop:L@n", "≥", 3], { variable: "", operator: "" }],
      },
      {} as CheckInfo,
    );
    expect(problems).toEqual([
      { pointer: "/loop_variables/1/value", message: 'loop variable "n" takes its value from a variable, but "not a ref" is not a reference' },
      { pointer: "/loop_termination_condition/1/variable", message: "a termination condition needs a variable reference" },
      { pointer: "/loop_termination_condition/1/operator", message: "a termination condition needs an operator" },
    ]);
  });
});
