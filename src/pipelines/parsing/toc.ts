/**
 * Outline helpers: dropping a document's table of contents (a Parser setup's `remove_toc`), as
 * RAGFlow does it (research/ragflow-pipelines.md §5.5; rag/nlp `remove_contents_table`,
 * rag/flow/parser/utils.py `remove_toc_pdf` / `remove_toc_word`).
 *
 * The functions take items (strings, or objects with a `text`) and return the kept ones, in order.
 */
import type { OutlineEntry } from "../payload.js";

type WithText = string | { text: string };

const TOC_HEADING = /^(?:contents|目录|目次|table of contents|致谢|acknowledge)$/;

function textOf(item: WithText): string {
  return typeof item === "string" ? item : item.text;
}

/** The part of a text before a `@@page…##` position tag. */
function beforeTag(text: string): string {
  return text.split("@@")[0];
}

/** RAGFlow samples up to 200 texts (at random) to decide whether a document is English. */
const ENGLISH_SAMPLE = 200;

/**
 * RAGFlow's `is_english`: more than 80 % of the non-blank texts are made only of ASCII letters,
 * digits, whitespace and common punctuation. RAGFlow looks at a random sample of 200 texts; this
 * takes 200 spread evenly over the document, so the same document always gives the same answer.
 */
export function isEnglish(texts: readonly string[]): boolean {
  const lines = texts.map((text) => text.trim()).filter((text) => text !== "");
  if (lines.length === 0) return false;
  const step = Math.max(1, lines.length / ENGLISH_SAMPLE);
  const sample: string[] = [];
  for (let i = 0; i < lines.length && sample.length < ENGLISH_SAMPLE; i += step) sample.push(lines[Math.floor(i)]);
  return sample.filter((line) => /^[`a-zA-Z0-9\s.,':;/"?<>!()-]+$/.test(line)).length / sample.length > 0.8;
}

/** A TOC line's prefix used as a pattern, as RAGFlow does (unescaped); one that is no valid pattern matches literally. */
function startsWithPattern(prefix: string): (text: string) => boolean {
  try {
    const pattern = new RegExp(`^(?:${prefix})`);
    return (text) => pattern.test(text);
  } catch {
    return (text) => text.startsWith(prefix);
  }
}

/**
 * `remove_contents_table`: finds a line that is exactly a TOC heading (spaces removed,
 * case-sensitive), drops it and the entries after it up to the first line that starts like the
 * first entry (the chapter itself), looking at most 128 lines ahead.
 */
export function removeContentsTable<T extends WithText>(items: readonly T[], english: boolean): T[] {
  const kept = [...items];
  const get = (i: number) => textOf(kept[i]).trim();
  const prefixOf = (i: number) => (english ? get(i).split(/\s+/).filter(Boolean).slice(0, 2).join(" ") : [...get(i)].slice(0, 3).join(""));
  let i = 0;
  while (i < kept.length) {
    if (!TOC_HEADING.test(beforeTag(get(i)).replace(/[ \u3000]+/g, ""))) {
      i++;
      continue;
    }
    kept.splice(i, 1);
    if (i >= kept.length) break;
    let prefix = prefixOf(i);
    while (!prefix) {
      kept.splice(i, 1);
      if (i >= kept.length) break;
      prefix = prefixOf(i);
    }
    kept.splice(i, 1);
    if (i >= kept.length || !prefix) break;
    const matches = startsWithPattern(prefix);
    for (let j = i; j < Math.min(i + 128, kept.length); j++) {
      if (!matches(get(j))) continue;
      kept.splice(i, j - i);
      break;
    }
  }
  return kept;
}

/** RAGFlow's `remove_toc` for a list of items: the TOC heuristic, English detected from the items. */
export function removeToc<T extends WithText>(items: readonly T[]): T[] {
  return removeContentsTable(items, isEnglish(items.map(textOf)));
}

function isTocTitle(title: string): boolean {
  return TOC_HEADING.test(beforeTag(title).trim().toLowerCase());
}

/**
 * `remove_toc_pdf`: with bookmarks, drops the items on the pages from the "contents" bookmark's page
 * up to (not including) the page of the next bookmark of the same level.
 */
export function removeTocByOutline<T extends { page_number?: number }>(items: readonly T[], outlines: readonly OutlineEntry[]): T[] {
  for (let i = 0; i < outlines.length; i++) {
    const [title, level, page] = outlines[i];
    if (!isTocTitle(title)) continue;
    const next = outlines.slice(i + 1).find(([t, l]) => l === level && !isTocTitle(t));
    if (!next || !next[2]) return [...items];
    return items.filter((item) => !(item.page_number !== undefined && page <= item.page_number && item.page_number < next[2]));
  }
  return [...items];
}

/**
 * `remove_toc_word`: with headings, drops a TOC heading line and the lines after it that name a
 * heading or end in a page number ("Intro ...... 3"); then the general heuristic.
 */
export function removeTocWord<T extends WithText>(items: readonly T[], outlines: readonly OutlineEntry[]): T[] {
  if (outlines.length === 0) return removeToc(items);
  const titles = outlines.map(([title]) => beforeTag(title).trim().toLowerCase()).filter(Boolean);
  let kept = [...items];
  if (titles.length > 0) {
    const at = kept.findIndex((item) => isTocTitle(textOf(item)));
    if (at >= 0) {
      let end = at + 1;
      while (end < kept.length) {
        const text = textOf(kept[end]);
        const normalized = beforeTag(text).trim().toLowerCase();
        if (!normalized || titles.some((t) => normalized.startsWith(t) || t.startsWith(normalized)) || /(?:\.{2,}|…{2,}|·{2,}| {2,})\s*\d+\s*$/.test(text)) end++;
        else break;
      }
      kept = [...kept.slice(0, at), ...kept.slice(end)];
    }
  }
  return removeToc(kept);
}
