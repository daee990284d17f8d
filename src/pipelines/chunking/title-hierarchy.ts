/**
 * The TitleChunker's `hierarchy` method (research §4.4 step 3): each run of text records becomes
 * a tree of headings down to the target level (the `hierarchy`-th distinct heading level of the
 * run), and a depth-first walk emits the groups of records that become chunks. Deeper headings
 * and body lines belong to the heading above them; a table or image is its own group and ends
 * the run.
 *
 * Without `include_heading_content` only leaf headings emit, each with every heading *and body*
 * above it (so a body under an intermediate heading repeats in each leaf below it). With it,
 * every heading that has a body emits its titles and that body, and a leaf without a body emits
 * its titles.
 */
import { resolveTargetLevel } from "./title-levels.js";

interface HeadingNode {
  level: number;
  titles: number[];
  bodies: number[];
  children: HeadingNode[];
}

function node(level: number, titles: number[] = []): HeadingNode {
  return { level, titles, bodies: [], children: [] };
}

/** `_ChunkNode.build_tree`: headings at or above `depth` open nodes; everything else is body. */
function buildTree(levels: readonly number[], depth: number): HeadingNode {
  const root = node(0);
  const stack = [root];
  levels.forEach((level, index) => {
    if (level > depth) {
      stack[stack.length - 1].bodies.push(index);
      return;
    }
    while (stack.length > 1 && level <= stack[stack.length - 1].level) stack.pop();
    const child = node(level, [index]);
    stack[stack.length - 1].children.push(child);
    stack.push(child);
  });
  return root;
}

/** `_ChunkNode.get_paths`: the record indexes of each chunk, in document order. */
function paths(root: HeadingNode, depth: number, includeHeadingContent: boolean): number[][] {
  const out: number[][] = [];
  const walk = (current: HeadingNode, titles: number[]): void => {
    const inRange = current.level >= 1 && current.level <= depth;
    if (current.level === 0 && current.bodies.length > 0) out.push([...titles, ...current.bodies]);
    let passed: number[];
    if (includeHeadingContent) {
      passed = inRange ? [...titles, ...current.titles] : titles;
      if (current.bodies.length > 0 && inRange) out.push([...passed, ...current.bodies]);
      else if (current.children.length === 0 && inRange) out.push(passed);
    } else {
      passed = inRange ? [...titles, ...current.titles, ...current.bodies] : titles;
      if (current.children.length === 0 && inRange) out.push(passed);
    }
    for (const child of current.children) walk(child, passed);
  };
  walk(root, []);
  return out.filter((path) => path.length > 0);
}

/**
 * The record groups of the hierarchy method: `isText(i)` tells text records from tables and
 * images, `levels[i]` is each record's level. Returns groups of record indexes.
 */
export function hierarchyGroups(levels: readonly number[], isText: (index: number) => boolean, hierarchy: number, includeHeadingContent: boolean): number[][] {
  const groups: number[][] = [];
  let run: number[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const runLevels = run.map((i) => levels[i]);
    const target = resolveTargetLevel(runLevels, hierarchy);
    if (target === undefined) groups.push(run);
    else for (const path of paths(buildTree(runLevels, target), target, includeHeadingContent)) groups.push(path.map((i) => run[i]));
    run = [];
  };
  levels.forEach((_, index) => {
    if (isText(index)) {
      run.push(index);
      return;
    }
    flush();
    groups.push([index]);
  });
  flush();
  return groups;
}
