/**
 * The Python values PyYAML's SafeLoader builds from scalars, kept typed while a document is
 * constructed (a mapping key `1` and `1.0` are one key in Python, but json.dumps writes them as
 * "1" and "1.0"), then turned into the JSON values canvasflow holds:
 *   int → number (the nearest double beyond 2^53), float → number (inf and nan included),
 *   bytes → standard base64 text, date → "YYYY-MM-DD", datetime → Python's isoformat().
 * Mapping keys become text as json.dumps writes them (Dify stores the graph as JSON).
 */

export class PyInt {
  constructor(readonly value: bigint) {}
}

let nanCount = 0;

export class PyFloat {
  /** PyYAML's `.nan` is one shared object (so one dict key); float("nan") makes a new one each time. */
  readonly nanIdentity: string;
  constructor(
    readonly value: number,
    sharedNan = true,
  ) {
    this.nanIdentity = sharedNan ? "nan" : `nan#${++nanCount}`;
  }
}

export class PyBytes {
  constructor(readonly value: Uint8Array) {}
}

/** datetime.date */
export class PyDate {
  constructor(readonly iso: string) {}
}

/** datetime.datetime; `utcMicros` is set for aware ones (Python compares those by their instant). */
export class PyDateTime {
  constructor(
    readonly iso: string,
    readonly utcMicros: bigint | undefined,
  ) {}
}

/**
 * A plain `<<` or `=` (PyYAML's merge and value tags): meaningful as a mapping key only;
 * SafeLoader has no constructor for either anywhere else.
 */
export class PyMarker {
  constructor(
    readonly tag: "tag:yaml.org,2002:merge" | "tag:yaml.org,2002:value",
    readonly text: string,
  ) {}
}

export type PyScalar = null | boolean | string | PyInt | PyFloat | PyBytes | PyDate | PyDateTime;

/** A scalar as the JSON value canvasflow holds. */
export function scalarToJson(value: PyScalar): unknown {
  if (value instanceof PyInt) return Number(value.value);
  if (value instanceof PyFloat) return value.value;
  if (value instanceof PyBytes) return Buffer.from(value.value).toString("base64");
  if (value instanceof PyDate || value instanceof PyDateTime) return value.iso;
  return value;
}

/** The key's text as json.dumps writes a dict key (dates and bytes, which it refuses, as their JSON values). */
export function scalarToJsonKey(value: PyScalar): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return value;
  if (value instanceof PyInt) return value.value.toString();
  if (value instanceof PyFloat) return pythonFloatRepr(value.value);
  return String(scalarToJson(value));
}

/** Python's dict-key equality: 1 == 1.0 == True, aware datetimes equal by instant, str never equals bytes. */
export function scalarKeyIdentity(value: PyScalar): string {
  if (value === null) return "none";
  if (typeof value === "boolean") return value ? "num:1" : "num:0";
  if (typeof value === "string") return `str:${value}`;
  if (value instanceof PyInt) return `num:${value.value}`;
  if (value instanceof PyFloat) {
    const x = value.value;
    if (Number.isNaN(x)) return value.nanIdentity;
    if (Number.isInteger(x)) return `num:${BigInt(x)}`;
    return `num:${x === Infinity ? "inf" : x === -Infinity ? "-inf" : String(x)}`;
  }
  if (value instanceof PyBytes) return `bytes:${scalarToJson(value) as string}`;
  if (value instanceof PyDate) return `date:${value.iso}`;
  return value.utcMicros === undefined ? `naive:${value.iso}` : `aware:${value.utcMicros}`;
}

/** repr(float): the shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exponentText] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  // Python's decpt: the value is 0.DIGITS × 10^decpt.
  const decpt = exponent + 1;
  if (decpt <= -4 || decpt > 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exponent).toString().padStart(2, "0");
    return `${sign}${body}e${exponent < 0 ? "-" : "+"}${e}`;
  }
  if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}
