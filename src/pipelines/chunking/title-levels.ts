/**
 * The TitleChunker's heading levels (research §4.4 step 2, the "frequency" resolution of
 * `BaseTitleChunker`): the one regex family that matches most lines is chosen, each text line
 * gets the 1-based index of the first pattern of that family it matches, a title-like line in a
 * `title`/`section`/`head` layout region gets one level below the family, and everything else is
 * body.
 *
 * RAGFlow tries PDF outline levels first, but reads the outline by opening `file.blob`, `binary`,
 * `path` or `name`; in a pipeline run only a name it cannot open is there, so that step never
 * applies and is not ported.
 */
import { pyLen, pySplitWords, pyStrip } from "./python-str.js";

/** The level of body text: below every heading (RAGFlow's `sys.maxsize - 1`). */
export const BODY_LEVEL = Number.MAX_SAFE_INTEGER;

/** One line (text formats) or item (JSON) the TitleChunker works on. */
export interface LineRecord {
  text: string;
  doc_type_kwd: string;
  img_id: unknown;
  /** `"<layout_type> <layoutno>"`, stripped. */
  layout: string;
  positions: import("../payload.js").PdfPosition[];
}

const NOT_BULLET = /^(?:0|[0-9]+ +[0-9~个只-]|[0-9]+\.{2,}|[0-9]+(?:\.[0-9]+){2,}[的中])/;

/** RAGFlow's `not_bullet`: numbers that only look like list bullets ("0…", "3 个", "1...", "1.2.3的"). */
export function notBullet(line: string): boolean {
  return NOT_BULLET.test(line);
}

/** RAGFlow's `not_title`: a law article is a title; a long or punctuated line is not. */
export function notTitle(text: string): boolean {
  if (/^第[零一二三四五六七八九十百0-9]+条/.test(text)) return false;
  if (pySplitWords(text).length > 12 || (!text.includes(" ") && pyLen(text) >= 32)) return true;
  return /[,;，。；！!]/.test(text);
}

/** `select_level_group`: the family with the most matching lines (the first on a tie; none without a hit), empty patterns left out. */
export function selectLevelFamily(lines: readonly string[], families: readonly (readonly RegExp[])[], patterns: readonly (readonly string[])[]): RegExp[] {
  let best = -1;
  let bestHits = 0;
  families.forEach((family, i) => {
    let hits = 0;
    for (const line of lines) {
      const stripped = pyStrip(line);
      if (stripped === "") continue;
      // An empty pattern matches every line, so it counts here although it is dropped below.
      if (family.some((regex) => regex.test(stripped)) && !notBullet(stripped)) hits++;
    }
    if (hits > bestHits) {
      best = i;
      bestHits = hits;
    }
  });
  return best < 0 ? [] : families[best].filter((_, j) => patterns[best][j] !== "");
}

/** `match_regex_level`: the 1-based index of the first pattern the stripped text matches. */
function regexLevel(text: string, family: readonly RegExp[]): number | undefined {
  const stripped = pyStrip(text);
  if (notBullet(stripped)) return undefined;
  const index = family.findIndex((regex) => regex.test(stripped));
  return index < 0 ? undefined : index + 1;
}

/** `match_layout_level`: a title-like line in a title/section/head layout region (a `header` counts too). */
function layoutLevel(text: string, layout: string, fallback: number): number {
  return /(section|title|head)/i.test(layout) && !notTitle(pyStrip(text.split("@")[0])) ? fallback : BODY_LEVEL;
}

export interface ResolvedLevels {
  levels: number[];
  /** The most common heading level (the first seen on a tie), or undefined when there is none. */
  mostLevel: number | undefined;
}

/** `resolve_frequency_levels`: a level for every record. */
export function resolveLevels(records: readonly LineRecord[], families: readonly (readonly RegExp[])[], patterns: readonly (readonly string[])[]): ResolvedLevels {
  const family = selectLevelFamily(
    records.map((r) => r.text),
    families,
    patterns,
  );
  const fallback = family.length + 1;
  const levels = records.map((record) => {
    if (record.doc_type_kwd !== "text") return BODY_LEVEL;
    return regexLevel(record.text, family) ?? layoutLevel(record.text, record.layout, fallback);
  });
  // Counter.most_common(): by count, ties in first-seen order.
  const counts = new Map<number, number>();
  for (const level of levels) counts.set(level, (counts.get(level) ?? 0) + 1);
  const common = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return { levels, mostLevel: common.find(([level]) => level < BODY_LEVEL)?.[0] };
}

/** `resolve_target_level`: the `hierarchy`-th distinct heading level (or the deepest there is). */
export function resolveTargetLevel(levels: readonly number[], hierarchy: number): number | undefined {
  const titleLevels = [...new Set(levels.filter((level) => level > 0 && level < BODY_LEVEL))].sort((a, b) => a - b);
  if (titleLevels.length === 0) return undefined;
  return titleLevels[Math.min(Math.max(hierarchy, 1), titleLevels.length) - 1];
}
