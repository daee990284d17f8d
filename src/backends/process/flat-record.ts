/**
 * A record of JSON primitives and lists (of primitives and lists) kept as one flat array: what a
 * store in this process's memory keeps of a checkpoint's delta. A delta as it comes is about ten
 * small objects (the delta, its ops and path, each list and its backing store); kept until the
 * next base, every one of them is copied by the garbage collector and promoted, which cost a
 * durable run in memory more than anything else it did per step. Flat, it is two.
 *
 * Layout: key, value, key, value, … where a value is a primitive as itself, or LIST, the list's
 * length, and its items laid out the same way.
 */

/** Marks a list in a flat record (an object: no primitive value can be mistaken for it). */
const LIST: object = Object.freeze({ list: true });

type FlatPart = string | number | boolean | null | object;

/** A record laid flat by flattenRecord. */
export type FlatRecord = FlatPart[];

/**
 * `record` flat, or undefined when it holds anything but JSON primitives and lists (nested
 * objects, undefined, non-finite numbers): such a record is kept as it is.
 */
export function flattenRecord(record: object): FlatRecord | undefined {
  let size = 0;
  for (const key in record) {
    const parts = partsOf((record as Record<string, unknown>)[key]);
    if (parts < 0) return undefined;
    size += 1 + parts;
  }
  const flat = new Array<FlatPart>(size);
  let at = 0;
  for (const key in record) {
    flat[at++] = key;
    at = lay(flat, at, (record as Record<string, unknown>)[key]);
  }
  return flat;
}

/** The record back, as new objects; what JSON text of the original would parse to. */
export function unflattenRecord(flat: Readonly<FlatRecord>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  let at = 0;
  while (at < flat.length) {
    const key = flat[at] as string;
    const [value, next] = read(flat, at + 1);
    // As JSON.parse makes it: an own property even for "__proto__".
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
    at = next;
  }
  return record;
}

/** How many parts `value` takes, or -1 when it cannot be laid flat. */
function partsOf(value: unknown): number {
  switch (typeof value) {
    case "string":
    case "boolean":
      return 1;
    case "number":
      return Number.isFinite(value) ? 1 : -1;
    case "object": {
      if (value === null) return 1;
      if (!Array.isArray(value)) return -1;
      let parts = 2;
      for (let i = 0; i < value.length; i++) {
        const item = partsOf(value[i]);
        if (item < 0) return -1;
        parts += item;
      }
      return parts;
    }
    default:
      return -1;
  }
}

function lay(flat: FlatPart[], at: number, value: unknown): number {
  if (!Array.isArray(value)) {
    // -0 as JSON writes it.
    flat[at] = value === 0 ? 0 : (value as FlatPart);
    return at + 1;
  }
  flat[at] = LIST;
  flat[at + 1] = value.length;
  at += 2;
  for (let i = 0; i < value.length; i++) at = lay(flat, at, value[i]);
  return at;
}

function read(flat: readonly FlatPart[], at: number): [unknown, number] {
  const part = flat[at];
  if (part !== LIST) return [part, at + 1];
  const length = flat[at + 1] as number;
  const list: unknown[] = new Array<unknown>(length);
  at += 2;
  for (let i = 0; i < length; i++) {
    const [item, next] = read(flat, at);
    list[i] = item;
    at = next;
  }
  return [list, at];
}
