/**
 * Bad Dify input gets a clear error with a pointer (issue 12, "Bad input"), never a crash: the
 * CLI's validate, run and migrate --dry-run on broken YAML and broken graphs.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cli } from "../helpers/cli.js";
import { corpusPath } from "../helpers/corpus.js";
import { difyApp, edge, type NodeSpec } from "../helpers/dify.js";
import { scratchDir } from "../helpers/scratch.js";

const scratch = scratchDir("cf-dify-bad-");
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

const start: NodeSpec = { id: "start", type: "start", variables: [{ variable: "topic", label: "Topic", type: "text-input", required: true }] };
const end: NodeSpec = { id: "end", type: "end", outputs: [{ variable: "topic", value_selector: ["start", "topic"] }] };

function yamlFile(name: string, document: unknown): string {
  return scratch.write(name, stringify(document));
}

describe("bad Dify input", () => {
  it("malformed YAML: the line and column, exit 2", async () => {
    const file = scratch.write("broken.yml", "app:\n  mode: workflow\nworkflow:\n  graph: [1, 2\n  nodes: x\n");
    for (const command of [["validate", file], ["run", file]]) {
      const result = await cli(command);
      expect(result.code, command[0]).not.toBe(0);
      expect(result.stderr + result.stdout).toMatch(/not valid YAML at line \d+, column \d+/);
      expect(result.stderr).not.toMatch(/internal error| {4}at /);
    }
  });

  it("an unknown node type: its id and type, with a pointer to it", async () => {
    const file = yamlFile("unknown.yml", difyApp([start, { id: "weird", type: "teleport" }, end], [edge("start", "weird"), edge("weird", "end")]));
    const result = await cli(["validate", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("/workflow/graph/nodes/1/data/type");
    expect(result.stdout).toContain('node weird has the unknown node type "teleport"');
  });

  it("a dangling edge: the edge id", async () => {
    const file = yamlFile("dangling.yml", difyApp([start, end], [edge("start", "end"), { id: "lost-edge", source: "start", target: "nowhere", sourceHandle: "source" }]));
    const result = await cli(["validate", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("/workflow/graph/edges/1");
    expect(result.stdout).toContain("edge lost-edge is dangling: its target nowhere is not a node of the graph");
  });

  it("a cycle outside a loop: the edge that closes it is dropped, with a warning; the graph still runs", async () => {
    const a: NodeSpec = { id: "a", type: "template-transform", template: "a", variables: [] };
    const b: NodeSpec = { id: "b", type: "template-transform", template: "b", variables: [] };
    const file = yamlFile("cycle.yml", difyApp([start, a, b, end], [edge("start", "a"), edge("a", "b"), { id: "back", source: "b", target: "a", sourceHandle: "source" }, edge("b", "end")]));
    const validated = await cli(["validate", file]);
    expect(validated.code).toBe(0);
    expect(validated.stdout).toContain("edge back (b → a) closes a cycle and was dropped");
    const ran = await cli(["run", file, "--inputs", '{"topic":"x"}', "--events", "ndjson"]);
    expect(ran.code).toBe(0);
    const last = ran.events.at(-1);
    expect(last?.event === "workflow_finished" && last.data.outputs).toEqual({ topic: "x" });
  });

  it("a missing required start variable: a usage error that lists the form, before anything runs", async () => {
    const file = yamlFile("required.yml", difyApp([start, end], [edge("start", "end")]));
    const result = await cli(["run", file, "--events", "ndjson"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("missing required input topic for Start; it asks for: topic (text-input, required)");
  });

  it("an input the Start does not ask for is a usage error too", async () => {
    const file = yamlFile("extra.yml", difyApp([start, end], [edge("start", "end")]));
    const result = await cli(["run", file, "--inputs", '{"topic":"x","nope":1}']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown input "nope" for Start: it asks for: topic');
  });

  it("no graph at all, and two start nodes", async () => {
    const none = await cli(["validate", yamlFile("nograph.yml", { app: { mode: "workflow" }, kind: "app", workflow: {} })]);
    expect(none.stdout).toContain("no graph");
    const two = await cli(["validate", yamlFile("two.yml", difyApp([start, { ...start, id: "start2" }, end], [edge("start", "end")]))]);
    expect(two.stdout).toContain("the graph has 2 start nodes (start, start2); it must have one");
  });

  it("a node's own data: a pointer into it (an if-else case without conditions' operator)", async () => {
    const bad: NodeSpec = { id: "check", type: "if-else", cases: [{ case_id: "true", logical_operator: "and", conditions: [{ variable_selector: ["start", "topic"], comparison_operator: "resembles", value: "x" }] }] };
    const result = await cli(["validate", yamlFile("ifelse.yml", difyApp([start, bad, end], [edge("start", "check"), edge("check", "end", "true")]))]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("/workflow/graph/nodes/1/data/cases/0/conditions/0/comparison_operator");
    expect(result.stdout).toContain('unknown comparison operator "resembles"');
  });
});

describe("migrate --dry-run on Dify documents", () => {
  it("lists the normalizations it would make in memory, and the nodes canvasflow cannot run (exit 1)", async () => {
    const result = await cli(["migrate", corpusPath("dify", "adw__小支付-DEMO.yml"), "--dry-run"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("normalized in memory (1 step, 1 change)");
    expect(result.stdout).toContain("1749221017459 (tool): tool small_pay/query_order comes from the plugin hjlarry/small_pay/small_pay");
  });

  it("reports as JSON too", async () => {
    const result = await cli(["migrate", corpusPath("dify", "adw__Jina Reader Jinja.yml"), "--dry-run", "--report", "json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { status: string; notes: Array<{ step: string }>; unsupported: unknown[] };
    expect(report.status).toBe("migrated");
    expect(report.notes.filter((n) => n.step === "dify-container-start")).toHaveLength(1);
    expect(report.unsupported).toEqual([]);
  });

  it("without --dry-run: a usage error (a Dify document is never rewritten)", async () => {
    const result = await cli(["migrate", corpusPath("dify", "basic_chatflow.yml"), "-o", `${scratch.dir}/out.yml`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is a Dify document");
  });
});
