/**
 * Spreadsheet cell values and their text as RAGFlow prints them: openpyxl reads a cell into a
 * Python int, float, bool, str or datetime, and RAGFlow writes `str(value)`. So an integer stays
 * "5", a float is Python's repr ("0.1", "1e-05", "1e+16"), a boolean "True", a date
 * "2024-01-15 00:00:00".
 */

export type CellValue =
  | { kind: "string"; text: string }
  | { kind: "int"; text: string }
  | { kind: "float"; value: number }
  | { kind: "bool"; value: boolean }
  /** A date or time, already in Python's str() form. */
  | { kind: "date"; text: string };

/** Python's repr of a float: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.length <= exponent + 1 ? digits.padEnd(exponent + 1, "0") : digits.slice(0, exponent + 1);
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || "0"}`;
}

/** `str(value)` of a cell. */
export function cellText(value: CellValue): string {
  switch (value.kind) {
    case "string":
    case "int":
    case "date":
      return value.text;
    case "float":
      return pythonFloat(value.value);
    case "bool":
      return value.value ? "True" : "False";
  }
}

/** openpyxl's number cast: a value with ".", "e" or "E" is a float, the rest an int. */
export function numberValue(text: string): Extract<CellValue, { kind: "string" | "int" | "float" }> | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  if (/[.eE]/.test(trimmed) || !/^[+-]?\d+$/.test(trimmed)) {
    const value = Number(trimmed);
    return Number.isNaN(value) ? { kind: "string", text } : { kind: "float", value };
  }
  return { kind: "int", text: BigInt(trimmed).toString() };
}

const pad2 = (n: number) => String(n).padStart(2, "0");

function timeText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const micro = (ms % 1000) * 1000;
  const base = `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}`;
  return micro ? `${base}.${String(micro).padStart(6, "0")}` : base;
}

/**
 * A date-formatted serial number as openpyxl's `from_excel` gives it: the fraction rounded to
 * milliseconds; below 1, a time of day; the 1900 system's phantom 29 February under 60.
 */
export function excelDate(serial: number, date1904: boolean): CellValue {
  const day = Math.floor(serial);
  const ms = Math.round((serial - day) * 86_400_000);
  if (serial >= 0 && serial < 1 && ms < 86_400_000) return { kind: "date", text: timeText(ms) };
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const days = !date1904 && serial > 0 && serial < 60 ? day + 1 : day;
  const at = new Date(epoch + days * 86_400_000 + ms);
  const date = `${String(at.getUTCFullYear()).padStart(4, "0")}-${pad2(at.getUTCMonth() + 1)}-${pad2(at.getUTCDate())}`;
  return { kind: "date", text: `${date} ${timeText(at.getUTCHours() * 3_600_000 + at.getUTCMinutes() * 60_000 + at.getUTCSeconds() * 1000 + at.getUTCMilliseconds())}` };
}

/** Excel's built-in number formats that openpyxl reads as dates and times. */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** openpyxl's `is_date_format`: a date or time letter outside quotes, escapes and brackets, in the first section. */
export function isDateFormat(numFmtId: number, code: string | undefined): boolean {
  if (code === undefined) return BUILTIN_DATE_FORMATS.has(numFmtId);
  const first = code.split(";")[0];
  const stripped = first.replace(/"[^"]*"|'[^']*'|\\.|\[[^\]]*\]/g, "");
  return /(?<![_\\])[dmhysDMHYS]/.test(stripped);
}
