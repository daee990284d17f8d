/**
 * How deeply a JSON value nests, measured without recursion. JSON.parse reads any depth, but
 * the code that walks a value afterwards (structuredClone, JSON.stringify, ajv, our own walkers)
 * recurses and overflows the stack after a few thousand levels. So a document's depth is checked
 * iteratively, before anything else walks it.
 */

/** The path to the first container nested deeper than `maxLevels`, or undefined when none is. */
export function pathDeeperThan(value: unknown, maxLevels: number): Array<string | number> | undefined {
  interface Frame {
    value: unknown;
    level: number;
    parent: Frame | undefined;
    key: string | number;
  }
  const stack: Frame[] = [{ value, level: 1, parent: undefined, key: "" }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (current === null || typeof current !== "object") continue;
    if (frame.level > maxLevels) return pathOf(frame);
    // Pushed in reverse, so the first too-deep container found is the first in document order.
    // Array.from visits a sparse list's holes (map skips them and leaves holes in its result).
    const entries = Array.isArray(current) ? Array.from(current, (item: unknown, i) => [i, item] as const) : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      if (item !== null && typeof item === "object") stack.push({ value: item, level: frame.level + 1, parent: frame, key });
    }
  }
  return undefined;

  function pathOf(frame: Frame): Array<string | number> {
    const path: Array<string | number> = [];
    for (let f: Frame | undefined = frame; f?.parent; f = f.parent) path.push(f.key);
    return path.reverse();
  }
}
