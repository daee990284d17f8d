import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { canvas, CanvasBuildError, env, ref, sys, text } from "../../src/graph/index.js";

const fixture = (name: string) => JSON.parse(readFileSync(`fixtures/${name}.json`, "utf8")) as Record<string, unknown>;

/** fixtures/iteration.json, written in code. */
function iterationCanvas() {
  const c = canvas({ mode: "task", inputs: { words: { name: "Words", type: "line", optional: true, value: "alpha,beta,gamma" } } });
  const split = c.add("StringTransform:Split", "StringTransform", {
    method: "split",
    split_ref: ref(c.begin, "words"),
    delimiters: [","],
    script: "",
    outputs: { result: { type: "Array<string>" } },
  }, { name: "Split words" });
  const number = c.add("Iteration:Number", "Iteration", {
    items_ref: ref(split, "result"),
    outputs: { lines: { ref: ref("StringTransform:Line", "result"), type: "Array<string>" } },
  }, { name: "Number each word" });
  const each = c.add("IterationItem:Each", "IterationItem", { outputs: { item: { type: "string" }, index: { type: "integer" } } }, { parent: number, name: "Each word" });
  const line = c.add("StringTransform:Line", "StringTransform", { method: "merge", script: "{index}. {item}", delimiters: [","], outputs: { result: { type: "string" } } }, { parent: number, name: "Format line" });
  const join = c.add("StringTransform:Join", "StringTransform", { method: "merge", script: text`${ref(number, "lines")}`, delimiters: ["\n"], outputs: { result: { type: "string" } } }, { name: "Join lines" });
  const list = c.add("Message:List", "Message", { content: [text`${ref(join, "result")}`] });
  c.edge(c.begin, split).edge(split, number).edge(number, join).edge(each, line).edge(join, list);
  return c;
}

/** fixtures/switch.json, written in code. */
function switchCanvas() {
  const c = canvas({ mode: "task", inputs: { score: { name: "Score", type: "integer", optional: false } } });
  const score = ref(c.begin, "score");
  const grade = c.add("Switch:Grade", "Switch", {
    conditions: [
      { logical_operator: "and", items: [{ cpn_id: score, operator: "≥", value: "90" }], to: ["Message:Excellent"] },
      { logical_operator: "and", items: [{ cpn_id: score, operator: "≥", value: "60" }, { cpn_id: score, operator: "<", value: "90" }], to: ["Message:Pass"] },
    ],
    end_cpn_ids: ["Message:Fail"],
  });
  const excellent = c.add("Message:Excellent", "Message", { content: [text`${score}: excellent`] });
  const pass = c.add("Message:Pass", "Message", { content: [text`${score}: pass`] });
  const fail = c.add("Message:Fail", "Message", { content: [text`${score}: fail`] });
  c.edge(c.begin, grade).edge(grade, excellent, pass, fail);
  return c;
}

/** What differs between two runs of one canvas (times, random ids), left out. */
const VOLATILE = new Set(["created_at", "elapsed_time", "message_id", "task_id", "session_id", "id"]);
const stable = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(stable) : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).filter(([k]) => !VOLATILE.has(k)).map(([k, v]) => [k, stable(v)])) : value;

const eventsOf = async (dsl: object, request: { inputs?: Record<string, unknown>; query?: string }) => stable(await (await loadCanvas(dsl)).runToEnd(request)) as unknown[];

describe("canvas(): a RAGFlow canvas written in code", () => {
  it("rebuilds fixtures/iteration.json key for key", () => {
    expect(iterationCanvas().build()).toEqual(fixture("iteration"));
  });

  it("rebuilds fixtures/switch.json's components, globals and variables, with the editor's Switch handles", () => {
    const built = switchCanvas().build();
    const hand = fixture("switch");
    for (const key of ["components", "globals", "variables", "history", "path", "retrieval", "memory"]) expect(built[key], key).toEqual(hand[key]);
    expect((hand.graph as { nodes: unknown }).nodes).toEqual(built.graph!.nodes);
    expect(built.graph!.edges!.map((e) => `${e.source} ${e.sourceHandle} → ${e.target}`)).toEqual([
      "begin start → Switch:Grade",
      "Switch:Grade Case 1 → Message:Excellent",
      "Switch:Grade Case 2 → Message:Pass",
      "Switch:Grade end_cpn_ids → Message:Fail",
    ]);
  });
});

describe("built canvases run as the hand-written fixtures do", () => {
  it("iteration: the same events", async () => {
    const built = await eventsOf(iterationCanvas().build(), { inputs: { words: "alpha,beta,gamma" } });
    expect(built).toEqual(await eventsOf(fixture("iteration"), { inputs: { words: "alpha,beta,gamma" } }));
    expect(JSON.stringify(built)).toContain("0. alpha");
  });

  it("switch: the same events for each branch", async () => {
    for (const score of [95, 70, 10]) {
      const built = await eventsOf(switchCanvas().build(), { inputs: { score } });
      expect(built, String(score)).toEqual(await eventsOf(fixture("switch"), { inputs: { score } }));
    }
  });

  it("variables and system globals: declared env.* with defaults, read by c.env() and sys()", async () => {
    const c = canvas({ variables: { topics: { type: "array<string>", description: "Every query so far." }, visits: { type: "number", value: 2 } } });
    const remember = c.add("VariableAssigner:Remember", "VariableAssigner", {
      variables: [{ variable: c.env("topics"), operator: "append", parameter: sys("query") }],
    });
    const say = c.add("Message:Say", "Message", { content: [text`${c.env("visits")} visits, topics ${env("topics")}`] });
    c.edge(c.begin, remember).edge(remember, say);
    const dsl = c.build();
    expect(dsl.variables).toEqual({ topics: { name: "topics", type: "array<string>", value: [], description: "Every query so far." }, visits: { name: "visits", type: "number", value: 2 } });
    expect(dsl.globals).toMatchObject({ "sys.query": "", "env.topics": [], "env.visits": 2 });
    expect(dsl.components["VariableAssigner:Remember"].obj.params).toEqual({ variables: [{ variable: "env.topics", operator: "append", parameter: "sys.query" }] });
    expect(dsl.components["Message:Say"].obj.params.content).toEqual(["{env.visits} visits, topics {env.topics}"]);
    const messages = (await (await loadCanvas(dsl)).runToEnd({ query: "tea" })).filter((e) => e.event === "message").map((e) => (e.data as { content: string }).content);
    expect(messages.join("")).toContain("2 visits, topics");
    expect(messages.join("")).toContain("tea");
  });
});

describe("build() refuses what cannot run, naming the component, the param and what is wrong", () => {
  const buildError = (run: () => unknown): CanvasBuildError => {
    try {
      run();
    } catch (error) {
      if (error instanceof CanvasBuildError) return error;
      throw error;
    }
    throw new Error("build() did not throw");
  };

  it("a reference to a component that was not added names both", () => {
    const c = canvas();
    const say = c.add("Message:Say", "Message", { content: [text`Found: ${ref("Retrieval:Docs", "formalized_content")}`] });
    c.edge(c.begin, say);
    const error = buildError(() => c.build());
    expect(error.issues).toEqual([
      expect.objectContaining({ code: "unknown-component-reference", componentId: "Message:Say", pointer: "/components/Message:Say/obj/params/content/0" }),
    ]);
    expect(error.message).toContain('Message:Say /components/Message:Say/obj/params/content/0: references Retrieval:Docs@formalized_content, but no component "Retrieval:Docs" was added');
  });

  it("an output the component does not declare names both, and lists what it declares; an undeclared env.x too; every problem at once", () => {
    const c = canvas({ inputs: { city: { name: "City", type: "line" } } });
    const split = c.add("StringTransform:Split", "StringTransform", { method: "split", split_ref: ref(c.begin, "town" as "city"), outputs: { result: { type: "Array<string>" } } });
    const say = c.add("Message:Say", "Message", { content: [text`${ref(split, "results")} ${env("missing")}`] });
    c.edge(c.begin, split).edge(split, say);
    const error = buildError(() => c.build());
    expect(error.issues.map((i) => [i.code, i.componentId, i.pointer])).toEqual([
      ["undeclared-output", "StringTransform:Split", "/components/StringTransform:Split/obj/params/split_ref"],
      ["undeclared-output", "Message:Say", "/components/Message:Say/obj/params/content/0"],
      ["undeclared-variable", "Message:Say", "/components/Message:Say/obj/params/content/0"],
    ]);
    expect(error.issues[0].message).toBe('references begin@town, but begin (Begin) declares no output "town" (its inputs: city)');
    expect(error.issues[1].message).toBe('references StringTransform:Split@results, but StringTransform:Split (StringTransform) declares no output "results" (its outputs: result)');
    expect(error.issues[2].message).toBe("references env.missing, which the canvas does not declare (the canvas declares no variables)");
  });

  it("an invalid DSL throws with validateDsl's full report: every issue with its component and pointer", () => {
    const c = canvas();
    const a = c.add("Message:A", "Message", { content: ["a"] });
    c.add("Switch:Lost", "Switch", { conditions: [{ items: [{ cpn_id: sys("query"), operator: "=", value: "x" }], to: ["Message:A"] }] });
    c.edge(c.begin, a);
    const error = buildError(() => c.build());
    expect(error.report?.valid).toBe(false);
    expect(error.issues.length).toBeGreaterThan(0);
    for (const issue of error.issues) {
      expect(issue.pointer.startsWith("/")).toBe(true);
      expect(error.message).toContain(issue.message);
    }
    expect(error.issues.some((i) => i.componentId === "Switch:Lost")).toBe(true);
  });

  it("add() and edge() refuse a duplicate id, a bad id and a handle of another canvas, naming them", () => {
    const c = canvas();
    const other = canvas().add("Message:B", "Message", { content: ["b"] });
    c.add("Message:A", "Message", { content: ["a"] });
    expect(() => c.add("Message:A", "Message", { content: ["again"] })).toThrow('add("Message:A", "Message"): the canvas already has a component "Message:A" (Message)');
    expect(() => c.add("Message A", "Message", { content: ["a"] })).toThrow('add("Message A"): a component id holds letters');
    expect(() => c.edge(c.begin, other)).toThrow("edge(begin, …): to: Message:B is not a component of this canvas");
    expect(() => c.env("nope" as never)).toThrow('env("nope"): the canvas declares no variable "nope"');
    expect(() => sys("nope" as "query")).toThrow('sys("nope"): no such system global');
  });
});
