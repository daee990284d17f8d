/**
 * Python's `str` semantics where the chunkers depend on them: `strip()` and `split()` use Python's
 * whitespace (which differs from JavaScript's `trim()`: U+001C–U+001F and U+0085 are whitespace,
 * U+FEFF is not), and lengths and slices count code points, not UTF-16 units. An overlap cut at
 * `int(len(text) * 0.9)` lands on a different character otherwise, once a text holds an emoji.
 */

/** The characters `str.isspace()` is true for. */
const SPACE_CLASS = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** Python's whitespace as a regex class body, for regexes that mean Python's `\s`. */
export const PY_WHITESPACE_CLASS = SPACE_CLASS;

const LEADING = new RegExp(`^[${SPACE_CLASS}]+`);
const TRAILING = new RegExp(`[${SPACE_CLASS}]+$`);
const NOT_SPACE = new RegExp(`[^${SPACE_CLASS}]`);
const SPACE_RUNS = new RegExp(`[${SPACE_CLASS}]+`);

/** `text.strip()`. */
export function pyStrip(text: string): string {
  return text.replace(LEADING, "").replace(TRAILING, "");
}

/** `not text.strip()`: empty or only whitespace. */
export function pyIsBlank(text: string): boolean {
  return !NOT_SPACE.test(text);
}

/** `text.split()`: the runs of non-whitespace. */
export function pySplitWords(text: string): string[] {
  return text.split(SPACE_RUNS).filter((word) => word !== "");
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** `len(text)`: code points (a lone surrogate counts as one, as in a Python string). */
export function pyLen(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The UTF-16 offset of code point `index` (clamped to the text). */
function unitOffset(text: string, index: number): number {
  if (!SURROGATE.test(text)) return Math.min(Math.max(index, 0), text.length);
  let offset = 0;
  for (let n = 0; n < index && offset < text.length; n++) {
    const unit = text.charCodeAt(offset);
    const pair = unit >= 0xd800 && unit <= 0xdbff && offset + 1 < text.length && (text.charCodeAt(offset + 1) & 0xfc00) === 0xdc00;
    offset += pair ? 2 : 1;
  }
  return offset;
}

/** `text[start:]` for a non-negative code point index. */
export function pySliceFrom(text: string, start: number): string {
  return text.slice(unitOffset(text, start));
}

/** `text[:end]` for a non-negative code point index. */
export function pySliceTo(text: string, end: number): string {
  return text.slice(0, unitOffset(text, end));
}

/** `text[:-1]`: without its last code point. */
export function pyDropLast(text: string): string {
  if (text === "") return text;
  const last = text.charCodeAt(text.length - 1);
  const pair = (last & 0xfc00) === 0xdc00 && text.length >= 2 && (text.charCodeAt(text.length - 2) & 0xfc00) === 0xd800;
  return text.slice(0, text.length - (pair ? 2 : 1));
}

/** Python truthiness of a JSON value: `None`, `False`, `0`, `""`, `[]` and `{}` are false. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (typeof value === "number") return !Number.isNaN(value);
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** `int(value)` for what JSON can hold: undefined where Python raises. */
export function pyInt(value: unknown): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value === "string") {
    // int("  -12 ") and int("1_000") are accepted; int("1.5") is not.
    const match = /^[+-]?\d+(?:_\d+)*$/.exec(pyStrip(value));
    return match ? Number(match[0].replace(/_/g, "")) : undefined;
  }
  return undefined;
}

/** `float(value)` for what JSON can hold: undefined where Python raises. */
export function pyFloat(value: unknown): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") {
    const text = pyStrip(value);
    if (/^[+-]?(?:nan|inf|infinity)$/i.test(text)) {
      const sign = text.startsWith("-") ? -1 : 1;
      return /nan/i.test(text) ? NaN : sign * Infinity;
    }
    if (!/^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/.test(text)) return undefined;
    return Number(text.replace(/_/g, ""));
  }
  return undefined;
}
