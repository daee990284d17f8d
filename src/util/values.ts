/**
 * Small value helpers shared by every part of canvasflow: telling what kind of value something
 * is (and naming it in error messages), reading numbers out of DSL values, building JSON
 * pointers. This module imports nothing from the project, so any module may use it.
 */

/** null or undefined: no value at all. */
export function isNothing(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/** Nothing, or text that is only whitespace: an editor field left unfilled. */
export function isBlank(value: unknown): boolean {
  return isNothing(value) || (typeof value === "string" && value.trim() === "");
}

/**
 * A plain object, as JSON.parse makes them: not null, not a list, and not a class instance
 * (a streamed text, a Date…), whose properties are not data.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A param that holds a list: the list itself; anything else (missing, malformed) reads as no items. */
export function listParam(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The rows of an editor list param: its plain-object items, each with its place in the list (for
 * error pointers). Other items are skipped; the params schema reports them.
 */
export function objectRows<T = Record<string, unknown>>(value: unknown): Array<{ row: T; index: number }> {
  return listParam(value).flatMap((row, index) => (isPlainObject(row) ? [{ row: row as T, index }] : []));
}

/**
 * A value's kind as error messages name it ("must be a list, got text"): nothing, text,
 * a number, a boolean, a list or an object; other values by their `typeof`.
 * Components name streamed text too: see components/value-kind.ts.
 */
export function valueKind(value: unknown): string {
  if (isNothing(value)) return "nothing";
  if (typeof value === "string") return "text";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "a boolean";
  if (Array.isArray(value)) return "a list";
  if (isPlainObject(value)) return "an object";
  return typeof value;
}

/**
 * A value's type in JSON's words, for messages about documents (a DSL file, a stored
 * snapshot): null, an array, an object, a string, a number, a boolean.
 */
export function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (isPlainObject(value)) return "an object";
  if (typeof value === "object") {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name !== "" ? `an instance of ${name}` : "an object";
  }
  return `a ${typeof value}`;
}

/** A short display of a value for error messages (JSON, cut after 60 characters). */
export function showValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const INFINITY = /^([+-]?)inf(?:inity)?$/i;

/**
 * The number a value stands for, as Python's float() reads it: a number (not NaN), or text in
 * decimal or exponent notation with spaces around it allowed, "inf"/"infinity" included.
 * Booleans, hexadecimal text and everything else are not numbers.
 */
export function numericValue(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isNaN(value) ? undefined : value;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (DECIMAL.test(text)) return Number(text);
  const inf = INFINITY.exec(text);
  if (inf) return inf[1] === "-" ? -Infinity : Infinity;
  return undefined;
}

/**
 * A finite number, or text that reads as one (numericValue without the infinities). Params and
 * state are JSON, which cannot hold Infinity, so counts, sizes and stored numbers use this.
 */
export function finiteNumber(value: unknown): number | undefined {
  const n = numericValue(value);
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

/** A JSON pointer (RFC 6901) from its segments: jsonPointer("a", 0, "b/c") is "/a/0/b~1c". */
export function jsonPointer(...segments: Array<string | number>): string {
  return segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
