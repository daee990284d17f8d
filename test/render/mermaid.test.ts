/**
 * The mermaid text: generated node ids, quoted and escaped labels, containers as subgraphs,
 * labelled router branches, dashed exception edges. Whether mermaid accepts it is checked by
 * mermaid's own parser in mermaid-browser.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { canvasGraphModel, escapeMermaidLabel, toMermaid, type GraphModel } from "../../src/render/index.js";
import { routedCanvas } from "../helpers/render.js";

const hostile = `x"]; end; click n0 call alert(1) %% <b>#35;|pipe|\`tick\` [a] {b}`;

function hostileModel(): GraphModel {
  return {
    nodes: [
      { id: 'Begin"]:end', name: hostile, type: "Begin", family: "entry", isContainer: false, params: {} },
      { id: "end", name: "end", type: "Message", family: "message", isContainer: false, params: {} },
    ],
    edges: [{ from: 'Begin"]:end', to: "end", kind: "branch", label: hostile }],
  };
}

describe("toMermaid", () => {
  it("draws containers as subgraphs holding their children, with generated ids", async () => {
    const text = toMermaid(canvasGraphModel(await loadCanvas("fixtures/loop-iteration-switch.json")));
    const lines = text.split("\n");
    expect(lines[0]).toBe("flowchart LR");
    const sub = lines.findIndex((l) => l.includes("subgraph") && l.includes("Classify each number"));
    expect(sub).toBeGreaterThan(0);
    const end = lines.findIndex((l, i) => i > sub && l.trim() === "end");
    const inside = lines.slice(sub + 1, end).join("\n");
    for (const child of ["Each number", "Big or small?", "Big<br/>", "Small<br/>", "Label<br/>"]) expect(inside).toContain(child);
    expect(inside).not.toContain("Join labels");
    expect(text).toMatch(/subgraph n\d+\["#8635; Count attempts|subgraph n\d+\["↻ Count attempts/);
    // No DSL id is used as a mermaid id.
    expect(text).not.toMatch(/^\s*(begin|Switch:Size)\b/m);
  });

  it("labels router branches and dashes exception edges", async () => {
    const text = toMermaid(canvasGraphModel(await loadCanvas(routedCanvas())));
    expect(text).toMatch(/n1 -->\|"Refund #91;urgent#93;"\| n2/);
    expect(text).toMatch(/n1 -->\|"Say #34;hello#34; \/ Other"\| n3/);
    expect(text).toMatch(/n2 -\.->\|"on error"\| n6/);
    expect(text).toMatch(/n2 --> n5\n/);
  });

  it("escapes quotes, brackets, pipes, backticks, markup and entity starts in names and labels", () => {
    const text = toMermaid(hostileModel());
    expect(text).not.toContain('x"');
    expect(text).not.toContain("<b>");
    expect(text).not.toContain("|pipe|");
    expect(text).not.toContain("`");
    expect(text).toContain("#35;35#59;"); // the literal "#35;" shows as text, not as "#"
    expect(text).toContain("#37;#37;");
    expect(text).toContain("n0 -->|");
    expect(text.split("\n").filter((l) => /^\s+n1\[/.test(l))).toEqual(['  n1["#9993; end<br/><small>Message</small>"]'.replace("#9993;", "✉")]);
  });

  it("gives any text a label with no quote, no raw markup and only well-formed entities", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 120 }), (s) => {
        const out = escapeMermaidLabel(s);
        expect(out).not.toMatch(/["<>|`[\]{}\n\r\t]/);
        // Every # starts an entity: #digits;
        expect(out.replace(/#\d+;/g, "")).not.toContain("#");
        expect([...out.replace(/#\d+;/g, "x")].length).toBeLessThanOrEqual(80);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps names in any script readable", () => {
    expect(escapeMermaidLabel("分类 · Kategorie — élan")).toBe("分类 · Kategorie — élan");
  });
});
