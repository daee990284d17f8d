/**
 * Reference cycles: components that read each other, directly or through others. They run (the
 * planner runs the first in path order when all of them wait), but the first one reads the
 * others' previous values (nothing in a turn's first round), which is rarely what was meant.
 *
 * Pure: the caller says who reads whom. Iterative Tarjan, so a canvas of any size cannot
 * overflow the stack.
 */

/** Strongly connected groups of more than one component, each in the order the ids were given. */
export function referenceCycles(ids: readonly string[], readsFrom: (id: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  const known = new Set(ids);

  for (const root of ids) {
    if (index.has(root)) continue;
    // Each frame: a component and the position in its list of dependencies.
    const frames: Array<{ id: string; next: number; deps: readonly string[] }> = [];
    const enter = (id: string) => {
      index.set(id, counter);
      low.set(id, counter);
      counter++;
      stack.push(id);
      onStack.add(id);
      frames.push({ id, next: 0, deps: readsFrom(id).filter((d) => d !== id && known.has(d)) });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.next < frame.deps.length) {
        const dep = frame.deps[frame.next++];
        if (!index.has(dep)) enter(dep);
        else if (onStack.has(dep)) low.set(frame.id, Math.min(low.get(frame.id)!, index.get(dep)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) === index.get(frame.id)) {
        const group: string[] = [];
        for (;;) {
          const member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
          if (member === frame.id) break;
        }
        if (group.length > 1) groups.push(group);
      }
    }
  }
  const order = new Map(ids.map((id, i) => [id, i]));
  for (const group of groups) group.sort((a, b) => order.get(a)! - order.get(b)!);
  return groups.sort((a, b) => order.get(a[0])! - order.get(b[0])!);
}
