/** RAGFlow's remove_contents_table: the heading, its entries up to the body's first repeat of the first entry. */
import { describe, expect, it } from "vitest";
import { isEnglish, removeContentsTable, removeToc } from "../../../src/pipelines/parsing/toc.js";

describe("removeToc", () => {
  it("drops a Chinese table of contents up to the body's first chapter", () => {
    const lines = ["前言", "目 录", "第一章 总则 1", "第二章 细则 5", "第一章 总则", "正文。", "第二章 细则"];
    expect(removeToc(lines)).toEqual(["前言", "第一章 总则", "正文。", "第二章 细则"]);
  });

  it("uses two words as the prefix in English", () => {
    const lines = ["contents", "Chapter 1 Intro ... 3", "Chapter 2 Method ... 9", "Chapter 1 Intro", "Text.", "Chapter 2 Method"];
    expect(removeContentsTable(lines, true)).toEqual(["Chapter 1 Intro", "Text.", "Chapter 2 Method"]);
  });

  it("matches the heading case-sensitively, as RAGFlow does", () => {
    expect(removeToc(["Contents", "a", "b"])).toEqual(["Contents", "a", "b"]);
  });

  it("skips blank lines after the heading and keeps going when no repeat is found", () => {
    expect(removeToc(["目录", "", "  ", "甲乙丙丁", "other", "more"])).toEqual(["other", "more"]);
  });

  it("matches an entry that is not a valid regular expression literally", () => {
    expect(removeToc(["目录", "(a[ entry", "x", "(a[ body"])).toEqual(["(a[ body"]);
  });

  it("is English when more than 80% of the lines are plain ASCII", () => {
    expect(isEnglish(["Hello world.", "Another line!", "third", "fourth (4)", "中文"])).toBe(false);
    expect(isEnglish(["Hello world.", "Another line!", "third", "fourth (4)", "fifth", "中文"])).toBe(true);
    expect(isEnglish(["", "  "])).toBe(false);
  });
});
