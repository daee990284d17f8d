/**
 * "Did you mean …?": the known names closest to a name that is not one of them (a typo, another
 * case), for error messages. Pure; imports nothing.
 */

/** Edits (insert, delete or replace one character, swap two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j], before[j - 2] + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * Up to `max` of `known` close to `wanted`, closest first: the same name in another case, then
 * names within a third of its length in edits (at least one), compared without case.
 */
export function closeNames(wanted: string, known: Iterable<string>, max = 3): string[] {
  const target = wanted.toLowerCase();
  const reach = Math.max(1, Math.floor(wanted.length / 3));
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of new Set(known)) {
    const distance = editDistance(target, name.toLowerCase());
    if (distance <= reach) scored.push({ name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}

/** ` (did you mean "A" or "B"?)`, or "" when nothing is close. */
export function didYouMean(wanted: string, known: Iterable<string>): string {
  const close = closeNames(wanted, known);
  if (close.length === 0) return "";
  const quoted = close.map((name) => JSON.stringify(name));
  return ` (did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`}?)`;
}
