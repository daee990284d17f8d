/**
 * The TitleChunker's `group` method (research §4.4 step 3): a section starts at every heading at
 * or above the target level (the `hierarchy`-th heading level, or the most common one when
 * `hierarchy` is 0); consecutive text lines of one section are grouped while the group is under
 * `chunk_token_cap` tokens, and a group under 32 tokens takes the next line whatever its section.
 * A table or image is its own group; blank lines are skipped.
 */
import type { TokenCounter } from "./tokens.js";
import { pyIsBlank } from "./python-str.js";
import { type LineRecord, type ResolvedLevels, resolveTargetLevel } from "./title-levels.js";

/** A group this small takes the next line even across a section boundary. */
const MIN_GROUP_TOKENS = 32;

/** `_build_section_ids`: a section id that grows at each heading at or above the target level. */
function sectionIds(levels: readonly number[], target: number | undefined): number[] {
  let id = 0;
  return levels.map((level, i) => {
    if (target !== undefined && level <= target && i > 0) id++;
    return id;
  });
}

/** The record groups of the group method, as lists of record indexes. */
export function groupGroups(records: readonly LineRecord[], resolved: ResolvedLevels, hierarchy: number, cap: number, tokens: TokenCounter): number[][] {
  const target = hierarchy > 0 ? resolveTargetLevel(resolved.levels, hierarchy) : resolved.mostLevel;
  const ids = sectionIds(resolved.levels, target);
  const groups: number[][] = [];
  let groupTokens = 0;
  let lastId = -2;
  records.forEach((record, i) => {
    if (record.doc_type_kwd !== "text") {
      groups.push([i]);
      groupTokens = 0;
      lastId = -2;
      return;
    }
    if (pyIsBlank(record.text)) return;
    const count = tokens.count(record.text);
    const last = groups[groups.length - 1];
    const underCap = cap <= 0 || groupTokens < cap;
    const merge = last !== undefined && records[last[0]].doc_type_kwd === "text" && (groupTokens < MIN_GROUP_TOKENS || (underCap && ids[i] === lastId));
    if (merge) {
      last.push(i);
      groupTokens += count;
    } else {
      groups.push([i]);
      groupTokens = count;
    }
    lastId = ids[i];
  });
  return groups;
}
