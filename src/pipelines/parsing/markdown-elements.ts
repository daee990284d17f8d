/**
 * RAGFlow's MarkdownElementExtractor (research/ragflow-pipelines.md §4.2 "Markdown"): a Markdown
 * text cut into elements with the lines they span. Without a delimiter, each `#` header line is
 * an element, and so is each fenced code block, list block, blockquote and run of text up to the
 * next of those. With a delimiter, the text is cut at each delimiter outside code fences and
 * tables, and a header line left alone is joined to the prose after it.
 */
import { delimiterPattern, normalizeNewlines, parseDelimiterField } from "./delimiters.js";

export interface MarkdownElement {
  content: string;
  /** 0-based lines of the (newline-normalised) text the element spans, inclusive. */
  startLine: number;
  endLine: number;
}

// RAGFlow's line patterns; a trailing `.*$` of theirs matches any rest of a line, so it is left out.
const HEADER = /^#{1,6}\s/;
const BULLET = /^\s*[-*+]\s/;
const NUMBERED = /^\s*\p{Nd}+\.\s/u;
const NESTED_BULLET = /^\s{2,}[-*+]\s/;
const NESTED_NUMBERED = /^\s{2,}\p{Nd}+\.\s/u;
/** An indented line starting with a word character (Python's Unicode \w). */
const INDENTED_WORD = /^\s+[\p{L}\p{N}_]/u;

function fenceMarker(line: string): { char: string; length: number } | undefined {
  const match = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(line);
  return match ? { char: match[1][0], length: match[1].length } : undefined;
}

function isClosingFence(line: string, fence: { char: string; length: number }): boolean {
  return new RegExp(`^[ \\t]{0,3}\\${fence.char}{${fence.length},}\\s*$`).test(line);
}

const isList = (line: string) => BULLET.test(line) || NUMBERED.test(line);
const isQuote = (line: string) => line.trim().startsWith(">");
const isBlockStart = (line: string) => HEADER.test(line) || fenceMarker(line) !== undefined || isList(line) || isQuote(line);

export class MarkdownElementExtractor {
  readonly text: string;
  readonly lines: string[];

  constructor(markdown: string) {
    this.text = normalizeNewlines(markdown);
    this.lines = this.text.split("\n");
  }

  /** The elements, by structure or (with a non-empty delimiter field) by delimiter. */
  extract(delimiterField?: string): MarkdownElement[] {
    const pattern = delimiterField ? delimiterPattern(parseDelimiterField(delimiterField)) : undefined;
    if (pattern) return this.joinLoneHeaders(this.byDelimiter(pattern));
    const elements: MarkdownElement[] = [];
    let i = 0;
    while (i < this.lines.length) {
      const line = this.lines[i];
      let element: MarkdownElement | undefined;
      if (HEADER.test(line)) element = { content: line, startLine: i, endLine: i };
      else if (fenceMarker(line)) element = this.codeBlock(i);
      else if (isList(line)) element = this.listBlock(i);
      else if (isQuote(line)) element = this.blockquote(i);
      else if (line.trim()) element = this.textBlock(i);
      if (!element) {
        i++;
        continue;
      }
      elements.push(element);
      i = element.endLine + 1;
    }
    return elements.filter((element) => element.content.trim() !== "");
  }

  private span(start: number, end: number): MarkdownElement {
    return { content: this.lines.slice(start, end + 1).join("\n"), startLine: start, endLine: end };
  }

  private codeBlock(start: number): MarkdownElement {
    const fence = fenceMarker(this.lines[start])!;
    let end = start;
    for (let i = start + 1; i < this.lines.length; i++) {
      end = i;
      if (isClosingFence(this.lines[i], fence)) break;
    }
    return this.span(start, end);
  }

  private listBlock(start: number): MarkdownElement {
    let end = start;
    for (let i = start; i < this.lines.length; i++) {
      const line = this.lines[i];
      const continues = isList(line) || (i > start && (!line.trim() || NESTED_BULLET.test(line) || NESTED_NUMBERED.test(line) || INDENTED_WORD.test(line)));
      if (!continues) break;
      end = i;
    }
    return this.span(start, end);
  }

  private blockquote(start: number): MarkdownElement {
    let end = start;
    for (let i = start; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (!(isQuote(line) || (i > start && !line.trim()))) break;
      end = i;
    }
    return this.span(start, end);
  }

  /** Text up to the next block element; a blank line ends it only when a block element follows. */
  private textBlock(start: number): MarkdownElement {
    let end = start;
    for (let i = start + 1; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (isBlockStart(line)) break;
      if (!line.trim() && i + 1 < this.lines.length && isBlockStart(this.lines[i + 1])) break;
      end = i;
    }
    return this.span(start, end);
  }

  private lineStarts(): number[] {
    const starts: number[] = [];
    let offset = 0;
    for (const line of this.lines) {
      starts.push(offset);
      offset += line.length + 1;
    }
    return starts;
  }

  /** Character ranges a delimiter never cuts: code fences, pipe tables, HTML tables. */
  private protectedRanges(): [number, number][] {
    const starts = this.lineStarts();
    const lineEnd = (line: number) => Math.min(this.text.length, starts[line] + this.lines[line].length);
    const ranges: [number, number][] = [];
    for (let i = 0; i < this.lines.length; ) {
      const fence = fenceMarker(this.lines[i]);
      if (!fence) {
        i++;
        continue;
      }
      let end = this.lines.length - 1;
      for (let j = i + 1; j < this.lines.length; j++) {
        if (isClosingFence(this.lines[j], fence)) {
          end = j;
          break;
        }
      }
      ranges.push([starts[i], lineEnd(end)]);
      i = end + 1;
    }
    for (let i = 0; i < this.lines.length - 1; ) {
      if (!isTableRow(this.lines[i]) || !isTableSeparator(this.lines[i + 1])) {
        i++;
        continue;
      }
      let end = i + 1;
      while (end + 1 < this.lines.length && isTableRow(this.lines[end + 1])) end++;
      ranges.push([starts[i], lineEnd(end)]);
      i = end + 1;
    }
    for (const match of this.text.matchAll(HTML_TABLE)) ranges.push([match.index, match.index + match[0].length]);
    ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const merged: [number, number][] = [];
    for (const [start, end] of ranges) {
      const last = merged[merged.length - 1];
      if (!last || start > last[1]) merged.push([start, end]);
      else last[1] = Math.max(last[1], end);
    }
    return merged;
  }

  private byDelimiter(pattern: string): MarkdownElement[] {
    const text = this.text;
    const elements: MarkdownElement[] = [];
    const starts = this.lineStarts();
    /** The line holding an offset: the number of line breaks before it. */
    const lineOf = (offset: number) => {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (starts[mid] <= offset) low = mid;
        else high = mid - 1;
      }
      return low;
    };
    const add = (start: number, end: number) => {
      const part = text.slice(start, end);
      if (part.trim()) elements.push({ content: part.trim(), startLine: lineOf(start), endLine: lineOf(end) });
    };
    const ranges = this.protectedRanges();
    let rangeIndex = 0;
    let last = 0;
    for (const match of text.matchAll(new RegExp(pattern, "g"))) {
      while (rangeIndex < ranges.length && ranges[rangeIndex][1] <= match.index) rangeIndex++;
      const range = ranges[rangeIndex];
      if (range && range[0] <= match.index && match.index < range[1]) continue;
      add(last, match.index);
      last = match.index + match[0].length;
    }
    add(last, text.length);
    return elements;
  }

  /** A header line left alone by the delimiter is joined (with the headers right after it) to the prose that follows. */
  private joinLoneHeaders(elements: MarkdownElement[]): MarkdownElement[] {
    const isLoneHeader = (content: string) => /^#{1,6}\s+\S/.test(content.trim()) && !content.trim().includes("\n");
    const isProse = (content: string) => {
      const stripped = content.trim();
      if (!stripped) return false;
      const first = stripped.split("\n", 1)[0];
      return !(fenceMarker(first) || first.trimStart().startsWith("|") || /^\S+\s*\|/.test(first) || first.trimStart().startsWith("<") || isList(first) || first.trimStart().startsWith(">"));
    };
    const joined: MarkdownElement[] = [];
    for (let i = 0; i < elements.length; ) {
      if (!isLoneHeader(elements[i].content)) {
        joined.push(elements[i++]);
        continue;
      }
      let j = i + 1;
      while (j < elements.length && isLoneHeader(elements[j].content)) j++;
      if (j < elements.length && isProse(elements[j].content)) {
        const headers = elements.slice(i, j).map((element) => element.content.trim());
        joined.push({ content: `${headers.join("\n")}\n${elements[j].content}`, startLine: elements[i].startLine, endLine: elements[j].endLine });
        i = j + 1;
        continue;
      }
      joined.push(...elements.slice(i, j));
      i = j;
    }
    return joined;
  }
}

function tableCells(line: string): string[] {
  let stripped = line.trim();
  if (!stripped.includes("|")) return [];
  if (stripped.startsWith("|")) stripped = stripped.slice(1);
  if (stripped.endsWith("|")) stripped = stripped.slice(0, -1);
  return stripped.split("|").map((cell) => cell.trim());
}

function isTableRow(line: string): boolean {
  const cells = tableCells(line);
  return cells.length >= 2 && cells.some((cell) => cell !== "");
}

function isTableSeparator(line: string): boolean {
  const cells = tableCells(line);
  return cells.length >= 2 && cells.every((cell) => /^:?-+:?$/.test(cell.replaceAll(" ", "")));
}

const HTML_TABLE =
  /(?:(?:<html[^>]*>\s*<body[^>]*>\s*<table[^>]*>[\s\S]*?<\/table>\s*<\/body>\s*<\/html>)|(?:<body[^>]*>\s*<table[^>]*>[\s\S]*?<\/table>\s*<\/body>)|(?:<table[^>]*>[\s\S]*?<\/table>))/gi;
