/**
 * Loop termination conditions, evaluated by the type of the variable's current value, without
 * coercion (RAGFlow's LoopItem.evaluate_condition). An operator that does not apply to the
 * value's type is an error through the normal error path (RAGFlow crashes the run, #11859).
 */
import { isDeepStrictEqual } from "node:util";
import { valueKind } from "./value-kind.js";

class ConditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConditionError";
  }
}

const STRING_OPERATORS = ["contains", "not contains", "start with", "end with", "is", "is not", "empty", "not empty"];
const BOOLEAN_OPERATORS = ["is", "is not", "empty", "not empty"];
const NUMBER_OPERATORS = ["=", "≠", ">", "<", "≥", "≤", "empty", "not empty"];
const OBJECT_OPERATORS = ["empty", "not empty"];
const LIST_OPERATORS = ["contains", "not contains", "is", "is not", "empty", "not empty"];

function unsupported(operator: string, value: unknown, allowed: string[]): ConditionError {
  return new ConditionError(`invalid operator "${operator}" for ${valueKind(value)} (use one of: ${allowed.join(", ")})`);
}

export function evaluateLoopCondition(variable: unknown, operator: string, value: unknown): boolean {
  if (variable === null || variable === undefined) {
    // RAGFlow: with no value only "empty" holds.
    return operator === "empty";
  }
  if (typeof variable === "string") {
    const other = typeof value === "string" ? value : value === null || value === undefined ? "" : String(value);
    switch (operator) {
      case "contains": return variable.includes(other);
      case "not contains": return !variable.includes(other);
      case "start with": return variable.startsWith(other);
      case "end with": return variable.endsWith(other);
      case "is": return variable === value;
      case "is not": return variable !== value;
      case "empty": return variable === "";
      case "not empty": return variable !== "";
    }
    throw unsupported(operator, variable, STRING_OPERATORS);
  }
  if (typeof variable === "boolean") {
    switch (operator) {
      case "is": return variable === value;
      case "is not": return variable !== value;
      case "empty": return false;
      case "not empty": return true;
    }
    throw unsupported(operator, variable, BOOLEAN_OPERATORS);
  }
  if (typeof variable === "number") {
    const n = value as number;
    switch (operator) {
      case "=": return variable === value;
      case "≠": return variable !== value;
      case ">": return typeof value === "number" && variable > n;
      case "<": return typeof value === "number" && variable < n;
      case "≥": return typeof value === "number" && variable >= n;
      case "≤": return typeof value === "number" && variable <= n;
      case "empty": return false;
      case "not empty": return true;
    }
    throw unsupported(operator, variable, NUMBER_OPERATORS);
  }
  if (Array.isArray(variable)) {
    switch (operator) {
      case "contains": return variable.some((item) => isDeepStrictEqual(item, value));
      case "not contains": return !variable.some((item) => isDeepStrictEqual(item, value));
      case "is": return isDeepStrictEqual(variable, value);
      case "is not": return !isDeepStrictEqual(variable, value);
      case "empty": return variable.length === 0;
      case "not empty": return variable.length > 0;
    }
    throw unsupported(operator, variable, LIST_OPERATORS);
  }
  if (typeof variable === "object") {
    switch (operator) {
      case "empty": return Object.keys(variable).length === 0;
      case "not empty": return Object.keys(variable).length > 0;
    }
    throw unsupported(operator, variable, OBJECT_OPERATORS);
  }
  throw new ConditionError(`cannot evaluate "${operator}" on a ${typeof variable} value`);
}
