/**
 * Small value helpers shared by the logic components (Switch, VariableAssigner): reading numbers
 * out of DSL text and naming a value's type in error messages.
 */

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const INFINITY = /^([+-]?)inf(?:inity)?$/i;

/**
 * The number a value stands for: a number (not NaN), or a string in decimal or exponent
 * notation, spaces around it allowed, "inf"/"infinity" included (what Python's float() reads).
 * Booleans and everything else are not numbers.
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

/** A value's type as error messages name it: string, number, boolean, list, object or nothing. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "list";
  return typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A short display of a param value for error messages (JSON, cut after 60 characters). */
export function showValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
