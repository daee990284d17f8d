/**
 * Python's `str()` of a JSON value, for the components whose RAGFlow code compares `str(value)`
 * (ListOperations `filter`, DataOperations `filter_values`): `True`/`False`/`None`, floats as
 * Python's repr writes them, lists and dicts as their repr with quoted strings.
 *
 * JavaScript keeps no int/float distinction after JSON parsing, so a number is read as Python
 * would most likely have it: a safe integer (|n| < 2^53) as an int ("1", never "1.0"), anything
 * else as a float ("1.5", "1e-07", "1e+16").
 */
import { stringifyValue } from "../refs/template.js";
import { isPlainObject } from "../util/values.js";

/** `str(value)`: strings as they are, everything else as `repr`. */
export function pythonStr(value: unknown): string {
  return typeof value === "string" ? value : pythonRepr(value);
}

/** `repr(value)` of a JSON value (null is None). Values JSON has no word for are shown as canvasflow renders them. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`)
      .join(", ")}}`;
  }
  return stringifyValue(value);
}

/** A number as Python prints it: safe integers as ints, the rest as floats. */
export function pythonNumber(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : pythonFloat(n);
}

/**
 * `repr(float)`: the shortest digits that round-trip (JavaScript finds the same ones), written
 * in positional form when the decimal point falls within 16 digits of them and no more than 4
 * places below 1 (`0.0001`), in exponent form otherwise (`1e-05`, `1e+16`), always with a `.`
 * or an exponent.
 */
export function pythonFloat(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = n.toExponential().split("e");
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  const exponent = Number(exponentText);
  // Python's decpt: the value is 0.<digits> × 10^decpt.
  const decpt = exponent + 1;
  if (decpt <= -4 || decpt > 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${head}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** Python's non-printable characters: other (Cc, Cf, Cs, Co, Cn) and separators, except the ASCII space. */
const NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u;

/**
 * `repr(str)`: single quotes unless the text holds a `'` and no `"`; backslash, the quote, `\t`,
 * `\n`, `\r` escaped; other non-printable characters as `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
 * (Which characters are printable follows this runtime's Unicode tables; Python's may be older.)
 */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code < 0x7f) out += ch;
    else if (!NOT_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += `\\x${hex(code, 2)}`;
    else if (code <= 0xffff) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out + quote;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}
