import { describe, expect, it } from "vitest";
import { isEnglish, removeContentsTable, removeToc, removeTocByOutline, removeTocWord } from "../../../src/pipelines/parsing/toc.js";

describe("removeContentsTable", () => {
  it("drops the TOC heading, its entries and everything up to the first line that starts like the first entry", () => {
    const lines = ["Preface", "目录", "第一章 总则 1", "第二章 细则 5", "第一章 总则", "正文"];
    expect(removeContentsTable(lines, false)).toEqual(["Preface", "第一章 总则", "正文"]);
  });

  it("matches the heading case-sensitively with spaces removed, as RAGFlow does", () => {
    expect(removeContentsTable(["Contents", "a", "b"], true)).toEqual(["Contents", "a", "b"]);
    expect(removeContentsTable(["  con tents ", "Intro part 1", "Usage 2", "Intro part"], true)).toEqual(["Intro part"]);
  });

  it("uses the first two words for English and keeps a prefix that is no valid pattern literal", () => {
    expect(removeContentsTable(["contents", "Chapter One ... 1", "Chapter Two ... 9", "Chapter One", "body"], true)).toEqual(["Chapter One", "body"]);
    expect(removeContentsTable(["contents", "(a ... 1", "x", "(a body"], false)).toEqual(["(a body"]);
  });

  it("works on items with a text", () => {
    const items = [{ text: "contents", n: 1 }, { text: "Alpha 1", n: 2 }, { text: "Alpha", n: 3 }];
    expect(removeToc(items)).toEqual([{ text: "Alpha", n: 3 }]);
  });
});

describe("isEnglish", () => {
  it("is true when more than 80 % of the texts are ASCII prose", () => {
    expect(isEnglish(["Hello world.", "It's fine: (yes)!", "a-b/c"])).toBe(true);
    expect(isEnglish(["你好", "Hello"])).toBe(false);
    expect(isEnglish(["", "  "])).toBe(false);
  });
});

describe("removeTocByOutline", () => {
  it("drops the pages from the contents bookmark to the next bookmark of its level", () => {
    const items = [1, 2, 2, 3, 4].map((page_number, i) => ({ text: `p${page_number}-${i}`, page_number }));
    const outlines: [string, number, number][] = [
      ["Cover", 0, 1],
      ["Contents", 0, 2],
      ["Sub", 1, 3],
      ["Chapter 1", 0, 4],
    ];
    expect(removeTocByOutline(items, outlines).map((i) => i.text)).toEqual(["p1-0", "p4-4"]);
    expect(removeTocByOutline(items, [["Chapter", 0, 1]])).toEqual(items);
  });
});

describe("removeTocWord", () => {
  it("drops the TOC heading and the lines naming headings or ending in a page number", () => {
    const lines = ["Title page", "Table of Contents", "Setup ...... 2", "Usage 3", "", "Setup", "Install it."];
    const outlines: [string, number, number][] = [
      ["Setup", 0, 0],
      ["Usage", 0, 0],
    ];
    // The "Setup" heading starts like an outline title, so it goes with the TOC lines (as in RAGFlow).
    expect(removeTocWord(lines, outlines)).toEqual(["Title page", "Install it."]);
  });

  it("falls back to the general heuristic without headings", () => {
    expect(removeTocWord(["contents", "Alpha 1", "Alpha"], [])).toEqual(["Alpha"]);
  });
});
