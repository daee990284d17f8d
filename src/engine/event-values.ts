/**
 * What an event shows of a value: a copy, so the event never changes after it was emitted (the
 * pool may grow a list in place later), and bounded, so an event's size does not grow with the
 * data a run handles. A value larger than the limit is replaced by a marker that keeps a preview
 * and says how big the original is, as Dify truncates the variables of its node events:
 *
 *     {"$truncated": {"type": "array", "length": 100000}, "preview": [1, 2, 3, ...]}
 *
 * Full values stay in the pool, in snapshots and in checkpoints.
 */
import { isTextStream } from "../components/text-stream.js";
import { defineOwn } from "../pool/path.js";

/** Bytes of JSON one input or output value may take in an event before it is truncated. */
export const DEFAULT_EVENT_VALUE_LIMIT = 8 * 1024;

/** Nesting deeper than this is shown truncated (and is not walked any further). */
const MAX_DEPTH = 64;

/** The marker that replaces a value too large for an event. */
interface TruncatedValue {
  $truncated: { type: "string"; bytes: number } | { type: "array"; length: number } | { type: "object"; keys: number };
  preview: unknown;
}

/** A bounded copy of each value of a record (inputs or outputs). */
export function eventRecord(record: Readonly<Record<string, unknown>> | undefined, limit: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!record) return out;
  for (const key in record) defineOwn(out, key, eventValue(record[key], limit));
  return out;
}

/** A copy of `value` for an event: as is when it fits in `limit` bytes of JSON, else a TruncatedValue. */
export function eventValue(value: unknown, limit: number): unknown {
  switch (typeof value) {
    case "string":
      return fitsString(value, limit) ? value : truncatedString(value, limit);
    case "number":
    case "boolean":
    case "undefined":
      return value;
    case "object":
      break;
    default:
      // Functions, symbols, bigints: JSON has no such values.
      return undefined;
  }
  if (value === null) return null;
  const plain = jsonView(value);
  if (plain !== value) return eventValue(plain, limit);
  if (sizeWithin(value, limit, 0) >= 0) return copy(value);
  return Array.isArray(value) ? truncatedArray(value, limit) : truncatedObject(value as Record<string, unknown>, limit);
}

/** What JSON would write for an object: a stream's text so far, a Date's ISO string, toJSON(). */
function jsonView(value: object): unknown {
  if (isTextStream(value)) return value.text;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === "function" ? (toJSON as () => unknown).call(value) : value;
}

function fitsString(text: string, limit: number): boolean {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most strings are decided without measuring.
  if (text.length * 3 + 2 <= limit) return true;
  if (text.length + 2 > limit) return false;
  return Buffer.byteLength(text) + 2 <= limit;
}

/**
 * The JSON size of `value` in bytes (strings estimated by length), or -1 once it exceeds
 * `budget`: the walk stops there, so measuring a huge value costs no more than a small one.
 */
function sizeWithin(value: unknown, budget: number, depth: number): number {
  switch (typeof value) {
    case "string":
      return value.length + 2 <= budget ? value.length + 2 : -1;
    case "number": {
      const size = String(value).length;
      return size <= budget ? size : -1;
    }
    case "boolean":
      return budget >= 5 ? 5 : -1;
    case "object":
      break;
    default:
      return 0;
  }
  if (value === null) return budget >= 4 ? 4 : -1;
  if (depth >= MAX_DEPTH) return -1;
  const plain = jsonView(value);
  if (plain !== value) return sizeWithin(plain, budget, depth + 1);
  let used = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      const size = sizeWithin(item, budget - used - 1, depth + 1);
      if (size < 0) return -1;
      used += size + 1;
    }
  } else {
    for (const key in value) {
      const size = sizeWithin((value as Record<string, unknown>)[key], budget - used - key.length - 4, depth + 1);
      if (size < 0) return -1;
      used += size + key.length + 4;
    }
  }
  return used <= budget ? used : -1;
}

/** A deep copy of a value already known to be small. */
function copy(value: unknown): unknown {
  if (value === null || typeof value !== "object") return typeof value === "function" ? undefined : value;
  const plain = jsonView(value);
  if (plain !== value) return copy(plain);
  if (Array.isArray(value)) return value.map(copy);
  const out: Record<string, unknown> = {};
  for (const key in value) defineOwn(out, key, copy((value as Record<string, unknown>)[key]));
  return out;
}

function truncatedString(text: string, limit: number): TruncatedValue {
  return { $truncated: { type: "string", bytes: Buffer.byteLength(text) }, preview: text.slice(0, Math.max(0, Math.floor(limit / 3))) };
}

function truncatedArray(list: readonly unknown[], limit: number): TruncatedValue {
  const preview: unknown[] = [];
  let used = 2;
  for (const item of list) {
    const size = sizeWithin(item, limit - used - 1, 1);
    if (size < 0) break;
    preview.push(copy(item));
    used += size + 1;
  }
  return { $truncated: { type: "array", length: list.length }, preview };
}

function truncatedObject(record: Record<string, unknown>, limit: number): TruncatedValue {
  const preview: Record<string, unknown> = {};
  let used = 2;
  let keys = 0;
  for (const key in record) {
    keys++;
    if (used < 0) continue;
    const size = sizeWithin(record[key], limit - used - key.length - 4, 1);
    if (size < 0) {
      used = -1;
      continue;
    }
    defineOwn(preview, key, copy(record[key]));
    used += size + key.length + 4;
  }
  return { $truncated: { type: "object", keys }, preview };
}
