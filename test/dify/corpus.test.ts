/**
 * All 40 Dify files of the corpus (research/dify-import.md §3): each validates and loads; the
 * community exports list the nodes canvasflow cannot run by id, and the legacy shapes they were
 * normalized from.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCanvas, validateCanvas } from "../../src/api.js";
import { cli } from "../helpers/cli.js";
import { corpusPath, corpusRoot } from "../helpers/corpus.js";

const FILES = readdirSync(`${corpusRoot()}/dify`)
  .filter((f) => f.endsWith(".yml"))
  .sort();

/** The nodes of each file that canvasflow cannot run (plugin agent strategies, plugin tools). */
const UNSUPPORTED: Record<string, string[]> = {
  "adw__AgentFlow.yml": ["1740645185279"],
  "adw__Demo-tod_agent.yml": ["1742523567258"],
  "adw__小支付-DEMO.yml": ["1749220945757", "1749221017459"],
};

describe("the Dify corpus", () => {
  it("holds the 40 files", () => {
    expect(FILES).toHaveLength(40);
  });

  it.each(FILES)("%s validates and loads", async (file) => {
    const report = await validateCanvas(corpusPath("dify", file));
    expect(report.kind).toBe("dify");
    expect(report.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(report.valid).toBe(true);
    const unsupported = report.issues.filter((i) => i.code === "node.unsupported").map((i) => i.componentId);
    expect(unsupported).toEqual(UNSUPPORTED[file] ?? []);
    const canvas = await loadCanvas(corpusPath("dify", file));
    expect(canvas.componentIds.length).toBeGreaterThan(1);
  });

  it("reports the legacy iteration starts it made (Jina Reader Jinja: 1, 搜索大师: 2)", async () => {
    for (const [file, count] of [
      ["adw__Jina Reader Jinja.yml", 1],
      ["adw__搜索大师.yml", 2],
    ] as const) {
      const report = await validateCanvas(corpusPath("dify", file));
      const starts = (report.notes ?? []).filter((n) => n.step === "dify-container-start");
      expect(starts, file).toHaveLength(count);
      for (const note of starts) expect(note.change).toMatch(/^start node \S+ made, with an edge to \S+$/);
    }
  });

  it("reports Dify 运营一条龙's missing version and kind, and its HTTP bodies given as text", async () => {
    const report = await validateCanvas(corpusPath("dify", "adw__Dify 运营一条龙.yml"));
    const notes = report.notes ?? [];
    expect(notes.filter((n) => n.step === "dify-envelope").map((n) => n.change)).toEqual(["version set to 0.1.0", "kind set to app"]);
    expect(notes.filter((n) => n.step === "dify-http" && n.change.startsWith("its body text")).length).toBeGreaterThan(0);
  });

  it("canvasflow validate takes all 40 at once: every file valid, exit 0", async () => {
    const result = await cli(["validate", ...FILES.map((f) => corpusPath("dify", f))]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("40 of 40 files valid");
    expect(result.stdout).toContain('1749220945757 "创建订单" (tool): canvasflow cannot run this node: tool small_pay/create_order comes from the plugin hjlarry/small_pay/small_pay');
  });

  it("canvasflow validate names a chatflow (advanced-chat) a chatflow and a workflow app a workflow", async () => {
    const result = await cli(["validate", corpusPath("dify", "basic_chatflow.yml"), corpusPath("dify", "conditional_hello_branching_workflow.yml")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/basic_chatflow\.yml: valid \(Dify chatflow[;)]/);
    expect(result.stdout).toMatch(/conditional_hello_branching_workflow\.yml: valid \(Dify workflow\)/);
  });

  it("a run that reaches an unsupported node fails with the reason, naming the node", async () => {
    const result = await cli(["run", corpusPath("dify", "adw__AgentFlow.yml"), "--query", "hi", "--mock-llm", "--events", "ndjson"]);
    expect(result.code).toBe(1);
    const last = result.events.at(-1);
    expect(last?.event).toBe("workflow_finished");
    expect(last?.event === "workflow_finished" && last.data.error).toMatch(/Agent \(1740645185279\): cannot run: the agent strategy "TOD" of .* is a Dify plugin/);
    expect((last?.data as unknown as Record<string, unknown>).status).toBe("failed");
  });
});
