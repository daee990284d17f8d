/**
 * Python's own readers that PyYAML's SafeConstructor hands scalar text to: int(text, base),
 * float(text), binascii.a2b_base64 (non-strict) and its timestamp pattern with datetime's range
 * checks. Each returns the value or throws an Error whose message says what Python refused.
 */
import { PyDate, PyDateTime } from "./python-values.js";

/** str.isspace() characters, which int() and float() strip from both ends. */
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "gu");

/** Python's int() refuses decimal text longer than this (sys.get_int_max_str_digits()). */
const INT_MAX_STR_DIGITS = 4300;

/** int() and float() read any Unicode decimal digit; they come in runs of ten from 0 to 9. */
function toAsciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0)!;
    if (code < 0x80) return digit;
    let start = code;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
    return String((code - start) % 10);
  });
}

const DIGITS_OF_BASE: Record<number, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };
const PREFIX_OF_BASE: Record<number, RegExp | undefined> = { 2: /^0[bB]/, 8: /^0[oO]/, 16: /^0[xX]/, 10: undefined };

/** int(text, base) for the bases PyYAML uses (underscores are gone before PyYAML calls it). */
export function pythonInt(text: string, base: 2 | 8 | 10 | 16): bigint {
  const refused = new Error(`invalid literal for int() with base ${base}: ${pythonRepr(text)}`);
  let body = toAsciiDigits(text.replace(STRIP, ""));
  let negative = false;
  if (body.startsWith("-") || body.startsWith("+")) {
    negative = body.startsWith("-");
    body = body.slice(1);
  }
  const prefix = PREFIX_OF_BASE[base];
  if (prefix?.test(body)) body = body.slice(2);
  if (!DIGITS_OF_BASE[base].test(body)) throw refused;
  if (base === 10 && body.length > INT_MAX_STR_DIGITS) {
    throw new Error(`Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${body.length} digits`);
  }
  const magnitude = BigInt(base === 10 ? body : `0${base === 2 ? "b" : base === 8 ? "o" : "x"}${body}`);
  return negative ? -magnitude : magnitude;
}

/** float(text). */
export function pythonFloat(text: string): number {
  const body = toAsciiDigits(text.replace(STRIP, ""));
  const match = /^([-+]?)(?:(inf|infinity)|(nan)|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?))$/i.exec(body);
  if (!match) throw new Error(`could not convert string to float: ${pythonRepr(text)}`);
  const sign = match[1] === "-" ? -1 : 1;
  if (match[2]) return sign * Infinity;
  if (match[3]) return NaN;
  return sign * Number(match[4]);
}

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** binascii.a2b_base64 in its default (non-strict) mode: other characters are skipped, data after the padding ignored. */
export function pythonBase64Decode(text: string): Uint8Array {
  const out: number[] = [];
  let quadPos = 0;
  let leftChar = 0;
  let pads = 0;
  let dataChars = 0;
  for (const char of text) {
    if (char === "=") {
      if (quadPos >= 2 && quadPos + ++pads >= 4) return Uint8Array.from(out);
      continue;
    }
    const value = BASE64_ALPHABET.indexOf(char);
    if (value < 0) continue;
    pads = 0;
    dataChars++;
    switch (quadPos) {
      case 0:
        quadPos = 1;
        leftChar = value;
        break;
      case 1:
        quadPos = 2;
        out.push(((leftChar << 2) | (value >> 4)) & 0xff);
        leftChar = value & 0x0f;
        break;
      case 2:
        quadPos = 3;
        out.push(((leftChar << 4) | (value >> 2)) & 0xff);
        leftChar = value & 0x03;
        break;
      default:
        quadPos = 0;
        out.push(((leftChar << 6) | value) & 0xff);
        leftChar = 0;
    }
  }
  if (quadPos === 1) throw new Error(`Invalid base64-encoded string: number of data characters (${dataChars}) cannot be 1 more than a multiple of 4`);
  if (quadPos !== 0) throw new Error("Incorrect padding");
  return Uint8Array.from(out);
}

/** SafeConstructor.timestamp_regexp; Python's `$` also matches before a final newline. */
const TIMESTAMP =
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?)?\n?$/;

const two = (n: number) => String(n).padStart(2, "0");

/** construct_yaml_timestamp: a date, or a datetime (aware when the text has a zone). */
export function pythonTimestamp(text: string): PyDate | PyDateTime {
  const match = TIMESTAMP.exec(text);
  if (!match) throw new Error(`${pythonRepr(text)} is not a timestamp`);
  const [year, month, day] = [match[1], match[2], match[3]].map(Number);
  if (year < 1) throw new Error(`year ${year} is out of range`);
  if (month < 1 || month > 12) throw new Error("month must be in 1..12");
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (day < 1 || day > daysInMonth) throw new Error("day is out of range for month");
  const date = `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}`;
  if (match[4] === undefined) return new PyDate(date);
  const [hour, minute, second] = [match[4], match[5], match[6]].map(Number);
  if (hour > 23) throw new Error("hour must be in 0..23");
  if (minute > 59) throw new Error("minute must be in 0..59");
  if (second > 59) throw new Error("second must be in 0..59");
  const micros = match[7] ? Number(match[7].slice(0, 6).padEnd(6, "0")) : 0;
  let iso = `${date}T${two(hour)}:${two(minute)}:${two(second)}${micros ? `.${String(micros).padStart(6, "0")}` : ""}`;
  if (match[8] === undefined) return new PyDateTime(iso, undefined);
  let offsetMinutes = 0;
  if (match[9]) {
    offsetMinutes = Number(match[10]) * 60 + Number(match[11] ?? 0);
    if (offsetMinutes >= 24 * 60) throw new Error("offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24)");
    if (match[9] === "-") offsetMinutes = -offsetMinutes;
  }
  const absolute = Math.abs(offsetMinutes);
  iso += `${offsetMinutes < 0 ? "-" : "+"}${two(Math.floor(absolute / 60))}:${two(absolute % 60)}`;
  const localSeconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
  const localMicros = BigInt(localSeconds) * 1_000_000n + BigInt(micros);
  return new PyDateTime(iso, localMicros - BigInt(offsetMinutes) * 60_000_000n);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** repr() of a str, for messages that quote Python's. */
function pythonRepr(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n").replace(/\t/g, "\\t")}'`;
}
