/**
 * Dify's comparison operators (graphon's ConditionProcessor), used by if-else, loop break
 * conditions and list-operator filters. String operators are case-sensitive; numbers compare
 * after coercing the expected value the way Python does (`int("1")` for an int, `float(...)` for
 * a float); an expected string is first rendered as a template.
 *
 * JSON keeps no int/float distinction: a whole number is read as an int.
 */
import { pythonStr } from "../components/python-text.js";
import type { Reference } from "../refs/grammar.js";
import { isPlainObject } from "../util/values.js";
import { selectorReference, selectorText } from "./references.js";

export const COMPARISON_OPERATORS: ReadonlySet<string> = new Set([
  "contains",
  "not contains",
  "start with",
  "end with",
  "is",
  "is not",
  "empty",
  "not empty",
  "=",
  "≠",
  ">",
  "<",
  "≥",
  "≤",
  "null",
  "not null",
  "in",
  "not in",
  "all of",
  "exists",
  "not exists",
]);

const UNARY = new Set(["empty", "not empty", "null", "not null", "exists", "not exists"]);

/** A condition as the node's data holds it. */
export interface Condition {
  variable_selector?: unknown;
  comparison_operator?: unknown;
  value?: unknown;
}

interface ConditionReader {
  /** The variable's value; undefined when it is not there (the condition then fails the node). */
  read(ref: Reference): unknown;
  /** An expected value's template, rendered (`.text`). */
  render(template: string): string;
}

/** Python's truthiness. */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** Evaluate conditions with and/or, short-circuiting as Dify does. Throws when a variable is missing or a value has the wrong type. */
export function evaluateConditions(conditions: readonly Condition[], operator: unknown, reader: ConditionReader): boolean {
  const any = operator === "or";
  for (const condition of conditions) {
    const result = evaluateCondition(condition, reader);
    if (any && result) return true;
    if (!any && !result) return false;
  }
  // Every condition held (and), or none did (or).
  return !any;
}

function evaluateCondition(condition: Condition, reader: ConditionReader): boolean {
  const ref = selectorReference(condition.variable_selector);
  if (!ref) throw new Error(`a condition's variable_selector ${JSON.stringify(condition.variable_selector)} is not a variable`);
  const value = reader.read(ref);
  if (value === undefined) throw new Error(`Variable ${selectorText(ref)} not found`);
  const operator = String(condition.comparison_operator);
  if (!COMPARISON_OPERATORS.has(operator)) throw new Error(`Unsupported operator: ${operator}`);
  if (UNARY.has(operator)) return compare(operator, value, undefined);
  let expected: unknown = condition.value;
  if (typeof expected === "string") expected = reader.render(expected);
  if (expected !== null && expected !== undefined && typeof value === "boolean") expected = Array.isArray(expected) ? expected.map(toBool) : toBool(expected);
  return compare(operator, value, expected ?? null);
}

/** One comparison of an actual value with an expected one. */
export function compare(operator: string, value: unknown, expected: unknown): boolean {
  switch (operator) {
    case "contains":
      return contains(value, expected, false);
    case "not contains":
      return contains(value, expected, true);
    case "start with":
    case "end with": {
      if (!truthy(value)) return false;
      if (typeof value !== "string") throw new TypeError("Invalid actual value type: string");
      if (typeof expected !== "string") throw new TypeError(`Expected value must be a string for ${operator === "start with" ? "startswith" : "endswith"}`);
      return operator === "start with" ? value.startsWith(expected) : value.endsWith(expected);
    }
    case "is":
    case "is not": {
      if (value === null) return false;
      if (typeof value !== "string" && typeof value !== "boolean") throw new Error("Invalid actual value type: string or boolean");
      return operator === "is" ? value === expected : value !== expected;
    }
    case "empty":
      return !truthy(value);
    case "not empty":
      return truthy(value);
    case "=":
    case "≠": {
      if (value === null) return false;
      const equal = value === numericExpected(value, expected);
      return operator === "=" ? equal : !equal;
    }
    case ">":
    case "<":
    case "≥":
    case "≤": {
      if (value === null) return false;
      if (typeof value !== "number") throw new Error("Invalid actual value type: number");
      const other = numberOf(expected);
      if (operator === ">") return value > other;
      if (operator === "<") return value < other;
      if (operator === "≥") return value >= other;
      return value <= other;
    }
    case "null":
      return value === null;
    case "not null":
      return value !== null;
    case "exists":
      return value !== null && value !== undefined;
    case "not exists":
      return value === null || value === undefined;
    case "in":
    case "not in": {
      if (!truthy(value)) return operator === "not in";
      if (!Array.isArray(expected)) throw new Error("Invalid expected value type: array");
      const found = expected.some((item) => sameValue(item, value));
      return operator === "in" ? found : !found;
    }
    case "all of": {
      if (!Array.isArray(expected) || !(expected.every((i) => typeof i === "string") || expected.every((i) => typeof i === "boolean"))) {
        throw new Error("all of operator expects homogeneous list of strings or booleans");
      }
      if (!truthy(value)) return false;
      if (typeof value === "string") return expected.every((item) => typeof item === "string" && value.includes(item));
      if (Array.isArray(value)) return expected.every((item) => value.some((v) => sameValue(v, item)));
      throw new Error("Invalid actual value type: string or array");
    }
    default:
      throw new Error(`Unsupported operator: ${operator}`);
  }
}

function contains(value: unknown, expected: unknown, negate: boolean): boolean {
  if (!truthy(value)) return negate;
  let found: boolean;
  if (typeof value === "string") found = value.includes(typeof expected === "string" ? expected : pythonStr(expected));
  else if (Array.isArray(value)) found = value.some((item) => sameValue(item, expected));
  else throw new Error("Invalid actual value type: string or array");
  return negate ? !found : found;
}

/** Python's `==` on JSON values. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

/** `=`/`≠`: the expected value as the actual value's type (bool(), int() or float()). */
function numericExpected(value: unknown, expected: unknown): unknown {
  if (typeof value === "boolean") {
    if (typeof expected === "boolean") return expected;
    if (typeof expected === "number") return expected !== 0;
    if (typeof expected === "string") return expected !== "";
    throw new Error(`Cannot convert ${typeName(expected)} to bool`);
  }
  if (typeof value === "number") {
    if (Number.isInteger(value)) {
      if (typeof expected === "number") return Math.trunc(expected);
      if (typeof expected === "string") {
        const text = expected.trim().replace(/_/g, "");
        if (!/^[+-]?\d+$/.test(text)) throw new Error(`invalid literal for int() with base 10: '${expected}'`);
        return Number(text);
      }
      throw new Error(`Cannot convert ${typeName(expected)} to int`);
    }
    if (typeof expected === "number") return expected;
    if (typeof expected === "string") return numberOf(expected);
    throw new Error(`Cannot convert ${typeName(expected)} to float`);
  }
  throw new Error("Invalid actual value type: number or boolean");
}

/** Python's float() of an expected value. */
function numberOf(expected: unknown): number {
  if (typeof expected === "number") return expected;
  if (typeof expected === "string") {
    const text = expected.trim();
    const n = text === "" ? Number.NaN : Number(text.replace(/_/g, ""));
    if (Number.isNaN(n) && !/^[+-]?nan$/i.test(text)) throw new Error(`Cannot convert '${expected}' to number`);
    return n;
  }
  throw new Error(`Cannot convert ${typeName(expected)} to number`);
}

/** An expected value for a boolean variable: JSON `true`/`false`/`1`/`0`. */
function toBool(expected: unknown): boolean {
  if (typeof expected === "boolean") return expected;
  if (typeof expected === "number") return expected !== 0;
  if (typeof expected === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(expected);
    } catch {
      throw new TypeError(`unexpected value: ${expected}`);
    }
    if (typeof parsed === "boolean") return parsed;
    if (typeof parsed === "number" && Number.isInteger(parsed)) return parsed !== 0;
    throw new TypeError(`unexpected value: ${expected}`);
  }
  throw new TypeError(`unexpected value: ${String(expected)}`);
}

function typeName(value: unknown): string {
  if (value === null) return "NoneType";
  if (Array.isArray(value)) return "list";
  return typeof value === "object" ? "dict" : typeof value;
}
