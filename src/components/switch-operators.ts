/**
 * The comparisons of a Switch condition item (RAGFlow's Switch.process_operator,
 * research/ragflow.md §4.1). Every comparison is total: a value that cannot be compared is a
 * non-match, never a crash (RAGFlow raised on a number against a non-numeric value).
 */
import { isDeepStrictEqual } from "node:util";
import { stringifyValue } from "../refs/template.js";
import { numericValue } from "../util/values.js";

export const SWITCH_OPERATORS = [
  "contains",
  "not contains",
  "start with",
  "end with",
  "empty",
  "not empty",
  "=",
  "≠",
  ">",
  "<",
  "≥",
  "≤",
] as const;

/** A Switch condition item's operator. */
export type SwitchOperator = (typeof SWITCH_OPERATORS)[number];

export function isSwitchOperator(operator: unknown): operator is SwitchOperator {
  return typeof operator === "string" && (SWITCH_OPERATORS as readonly string[]).includes(operator);
}

export class UnknownOperatorError extends Error {
  constructor(readonly operator: unknown) {
    super(`unknown operator ${JSON.stringify(operator)} (use one of: ${SWITCH_OPERATORS.join(", ")})`);
    this.name = "UnknownOperatorError";
  }
}

/** Text compared by the string operators: nothing is "", other non-strings as templates show them; case folded. */
function folded(value: unknown): string {
  return stringifyValue(value).toLowerCase();
}

/** Python truthiness, as RAGFlow's `not input`: nothing, "", 0, false, [] and {} are empty. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === "" || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/** Equality: numeric when both sides read as numbers ("5" = 5.0), otherwise structural. */
function switchEquals(input: unknown, value: unknown): boolean {
  const a = numericValue(input);
  const b = numericValue(value);
  if (a !== undefined && b !== undefined) return a === b;
  return isDeepStrictEqual(input, value);
}

/**
 * Ordering: numeric when both sides read as numbers, else between two strings; -1/0/1, or
 * undefined when the two cannot be ordered (then every ordering operator is false).
 */
function switchOrder(input: unknown, value: unknown): number | undefined {
  const a = numericValue(input);
  const b = numericValue(value);
  if (a !== undefined && b !== undefined) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof input === "string" && typeof value === "string") return input < value ? -1 : input > value ? 1 : 0;
  return undefined;
}

/** Evaluate one condition item: the referenced `input` against the item's `value`. */
export function evaluateSwitchItem(input: unknown, operator: unknown, value: unknown): boolean {
  switch (operator) {
    case "contains":
      return folded(input).includes(folded(value));
    case "not contains":
      return !folded(input).includes(folded(value));
    case "start with":
      return folded(input).startsWith(folded(value));
    case "end with":
      return folded(input).endsWith(folded(value));
    case "empty":
      return isEmptyValue(input);
    case "not empty":
      return !isEmptyValue(input);
    case "=":
      return switchEquals(input, value);
    case "≠":
      return !switchEquals(input, value);
    case ">": {
      const order = switchOrder(input, value);
      return order !== undefined && order > 0;
    }
    case "<": {
      const order = switchOrder(input, value);
      return order !== undefined && order < 0;
    }
    case "≥": {
      const order = switchOrder(input, value);
      return order !== undefined && order >= 0;
    }
    case "≤": {
      const order = switchOrder(input, value);
      return order !== undefined && order <= 0;
    }
  }
  throw new UnknownOperatorError(operator);
}
