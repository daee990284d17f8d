/**
 * The operators of VariableAssigner (research/ragflow.md §4.1): each turns the variable's current
 * value and the row's parameter into the new value. New values are always fresh lists/objects:
 * the old value may already sit in an event or a snapshot, so it is never mutated.
 *
 * Where RAGFlow writes an "ERROR:…" string into the variable (§8.17), these throw an
 * AssignmentError saying what is wrong; the component adds the variable and operator.
 */
import { parseSelector } from "../refs/grammar.js";
import { stringifyValue } from "../refs/template.js";
import { finiteNumber, isPlainObject } from "../util/values.js";
import { valueKind } from "./value-kind.js";

export const ASSIGN_OPERATORS = [
  "overwrite",
  "clear",
  "set",
  "append",
  "extend",
  "remove_first",
  "remove_last",
  "+=",
  "-=",
  "*=",
  "/=",
] as const;

export type AssignOperator = (typeof ASSIGN_OPERATORS)[number];

export function isAssignOperator(operator: unknown): operator is AssignOperator {
  return typeof operator === "string" && (ASSIGN_OPERATORS as readonly string[]).includes(operator);
}

/** Operators that take no parameter. */
export const PARAMETERLESS_OPERATORS: ReadonlySet<string> = new Set(["clear", "remove_first", "remove_last"]);
/** Operators whose parameter is a reference (a string that is not one is used as a literal). */
export const REFERENCE_OPERATORS: ReadonlySet<string> = new Set(["overwrite", "append", "extend"]);
export const ARITHMETIC_OPERATORS: ReadonlySet<string> = new Set(["+=", "-=", "*=", "/="]);

export class AssignmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AssignmentError";
  }
}

/** How an operator reads the world: references (overwrite/append/extend) and templates (set). */
export interface OperandAccess {
  read(selector: string): unknown;
  render(template: string): string;
}

/** The parameter of overwrite/append/extend: the referenced value, or the parameter itself when it is not a reference. */
function referenceOperand(parameter: unknown, access: OperandAccess): unknown {
  const value = typeof parameter === "string" && parseSelector(parameter) !== null ? access.read(parameter) : literal(parameter);
  return value === undefined ? null : value;
}

/** A literal from the params, copied so the stored value never shares an object with the DSL. */
function literal(parameter: unknown): unknown {
  return parameter !== null && typeof parameter === "object" ? structuredClone(parameter) : parameter;
}

/** The zero value of the current value's type (clear). */
function clearedValue(current: unknown): unknown {
  if (Array.isArray(current)) return [];
  if (typeof current === "string") return "";
  if (typeof current === "boolean") return false;
  if (typeof current === "number") return 0;
  if (isPlainObject(current)) return {};
  return null;
}

function listOf(current: unknown): unknown[] {
  if (current === null || current === undefined) return [];
  if (!Array.isArray(current)) throw new AssignmentError(`the variable is not a list (got ${valueKind(current)})`);
  return current;
}

/** RAGFlow's rule: a new item must have the type of the list's first item. */
function assertItemType(list: readonly unknown[], item: unknown, what: string): void {
  if (list.length === 0) return;
  const expected = valueKind(list[0]);
  const got = valueKind(item);
  if (expected !== got) throw new AssignmentError(`${what} is ${got}, but the list's first item is ${expected}`);
}

/**
 * set: when the variable holds text or nothing, a string parameter is rendered as a template.
 * Otherwise the parameter (rendered first when it is a string) must fit the variable's type:
 * numeric text becomes a number, "true"/"false" a boolean, JSON text a list or an object.
 */
function setValue(current: unknown, parameter: unknown, access: OperandAccess): unknown {
  const value = typeof parameter === "string" ? access.render(parameter) : literal(parameter);
  if (current === null || current === undefined) return value;
  if (typeof current === "string") return stringifyValue(value);
  if (typeof current === "number") {
    const n = finiteNumber(value);
    if (n === undefined) throw new AssignmentError(`the variable holds a number, but ${describe(value)} is not a number`);
    return n;
  }
  if (typeof current === "boolean") {
    if (typeof value === "boolean") return value;
    const text = typeof value === "string" ? value.trim().toLowerCase() : "";
    if (text === "true" || text === "false") return text === "true";
    throw new AssignmentError(`the variable holds a boolean, but ${describe(value)} is not true or false`);
  }
  const wantList = Array.isArray(current);
  const parsed = typeof value === "string" ? parseJson(value) : value;
  if (wantList ? Array.isArray(parsed) : isPlainObject(parsed)) return parsed;
  throw new AssignmentError(`the variable holds ${wantList ? "a list" : "an object"}, but ${describe(value)} is not ${wantList ? "a list" : "an object"}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
  return `the parameter (${valueKind(value)})`;
}

/** The parameter of an arithmetic operator: a finite number, or text that reads as one (JSON state cannot hold Infinity). */
export function numericParameter(parameter: unknown): number {
  const n = finiteNumber(parameter);
  if (n === undefined) {
    const got = typeof parameter === "string" ? `text ${JSON.stringify(parameter)}` : valueKind(parameter);
    throw new AssignmentError(`the parameter is not a number (got ${got})`);
  }
  return n;
}

function arithmetic(operator: string, current: unknown, parameter: unknown): number {
  if (typeof current !== "number" || Number.isNaN(current)) {
    throw new AssignmentError(`the variable is not a number (got ${valueKind(current)})`);
  }
  const n = numericParameter(parameter);
  let result: number;
  switch (operator) {
    case "+=":
      result = current + n;
      break;
    case "-=":
      result = current - n;
      break;
    case "*=":
      result = current * n;
      break;
    default:
      if (n === 0) throw new AssignmentError("division by zero");
      result = current / n;
  }
  if (!Number.isFinite(result)) throw new AssignmentError(`the result ${result} is not a finite number`);
  return result;
}

/** The item `append` adds: the referenced value, or the parameter itself. */
export function appendedItem(parameter: unknown, access: OperandAccess): unknown {
  return referenceOperand(parameter, access);
}

/** Refuses an append RAGFlow refuses: to something that is not a list, or an item of another type than the list's first. */
export function checkAppend(current: unknown, item: unknown): void {
  assertItemType(listOf(current), item, "the parameter");
}

/** The variable's new value after `operator` with `parameter`. */
export function assignedValue(operator: AssignOperator, current: unknown, parameter: unknown, access: OperandAccess): unknown {
  switch (operator) {
    case "overwrite":
      return referenceOperand(parameter, access);
    case "clear":
      return clearedValue(current);
    case "set":
      return setValue(current, parameter, access);
    case "append": {
      const item = appendedItem(parameter, access);
      checkAppend(current, item);
      return [...(current as unknown[] | null | undefined ?? []), item];
    }
    case "extend": {
      const list = listOf(current);
      const more = referenceOperand(parameter, access);
      if (!Array.isArray(more)) throw new AssignmentError(`the parameter is not a list (got ${valueKind(more)})`);
      if (more.length > 0) assertItemType(list, more[0], "the parameter's first item");
      return [...list, ...more];
    }
    case "remove_first":
      return listOf(current).slice(1);
    case "remove_last":
      return listOf(current).slice(0, -1);
    case "+=":
    case "-=":
    case "*=":
    case "/=":
      return arithmetic(operator, current, parameter);
  }
}
