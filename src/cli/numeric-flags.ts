/**
 * Numeric flags: plain decimal digits in a stated range, nothing else (no hex, exponent, sign,
 * whitespace or empty value), with one message that names the flag, the value and the range.
 */
import { UsageError } from "./io.js";

interface IntegerRange {
  min: number;
  max: number;
}

const DIGITS = /^[0-9]+$/;
const NEGATIVE_DIGITS = /^-[0-9]+$/;
/** Seconds: digits with an optional decimal part ("2.5"). */
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/** `--flag N`: a decimal integer from `range.min` to `range.max`. */
export function integerFlag(flag: string, value: string, range: IntegerRange): number {
  // A negative integer is a number, only out of range; anything else is not a number at all.
  const n = DIGITS.test(value) || NEGATIVE_DIGITS.test(value) ? Number(value) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    throw new UsageError(`${flag} must be a decimal integer from ${range.min} to ${range.max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** `--flag SECONDS`: digits with an optional decimal part, from `range.min` to `range.max`. */
export function secondsFlag(flag: string, value: string, range: IntegerRange): number {
  const n = DECIMAL.test(value) || NEGATIVE_DIGITS.test(value) ? Number(value) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    throw new UsageError(`${flag} must be a number of seconds from ${range.min} to ${range.max} (digits, with a decimal part if needed, such as 2.5), got ${JSON.stringify(value)}`);
  }
  return n;
}

/** The options of a command as parseArgs takes them. */
export type OptionSpecs = Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>;

/**
 * Node's parseArgs refuses `--max-steps -1` as "ambiguous" (a value that looks like an option)
 * before the value can be checked. For the flags that take a number, such a value is joined to
 * its flag (`--max-steps=-1`), so the flag's own check reports it. A value that is another of the
 * command's options (`--max-steps --concurrency 3`) is left alone: parseArgs then says the value
 * is missing.
 */
export function attachDashValues(args: readonly string[], options: OptionSpecs, numericFlags: readonly string[]): string[] {
  const short: Record<string, string> = {};
  const known = new Set<string>();
  for (const [name, spec] of Object.entries(options)) {
    known.add(`--${name}`);
    if (spec.short) {
      short[`-${spec.short}`] = `--${name}`;
      known.add(`-${spec.short}`);
    }
  }
  const isOption = (text: string) => known.has(text.split("=")[0]);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    const long = short[arg] ?? arg;
    const next = args[i + 1];
    if (numericFlags.includes(long) && next !== undefined && next.startsWith("-") && next !== "--" && !isOption(next)) {
      out.push(`${long}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}
