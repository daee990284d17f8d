import { describe, expect, it } from "vitest";
import { displayWidth, pipeTable } from "../../../src/pipelines/parsing/markdown-table.js";

const s = (text: string) => ({ kind: "string" as const, text });

describe("pipeTable", () => {
  it("pads columns, right-aligns numbers on their decimal points and left-aligns text", () => {
    expect(pipeTable(["a", "value"], [[s("x"), { kind: "float", value: 1.5 }], [s("long text"), { kind: "int", text: "10" }], [null, s("2.25")]])).toBe(
      ["| a         |   value |", "|:----------|--------:|", "| x         |    1.5  |", "| long text |   10    |", "|           |    2.25 |"].join("\n"),
    );
  });

  it("counts wide characters as two columns and escapes pipes and newlines", () => {
    expect(displayWidth("東京a")).toBe(5);
    expect(pipeTable(["名前"], [[s("a|b\nc")]])).toBe(["| 名前   |", "|:-------|", "| a\\|b c |"].join("\n"));
  });

  it("treats booleans and dates as text", () => {
    expect(pipeTable(["ok", "when"], [[{ kind: "bool", value: true }, { kind: "date", text: "2024-01-01 00:00:00" }]])).toBe(
      ["| ok   | when                |", "|:-----|:--------------------|", "| True | 2024-01-01 00:00:00 |"].join("\n"),
    );
  });
});
