/**
 * The text comparisons of the editor's filter rows (ListOperations `filter`, DataOperations
 * `filter_values`): both sides are compared as text (research/ragflow.md §4.1).
 */
import { pythonStr } from "./python-text.js";

export type TextOperator = "=" | "≠" | "contains" | "start with" | "end with";

export const TEXT_OPERATORS: readonly TextOperator[] = ["=", "≠", "contains", "start with", "end with"];

/**
 * Other spellings seen in DSLs: the editor's constants, ASCII forms and the names an earlier
 * DataOperations used ("equals", "not equals", "starts with", "ends with").
 */
const ALIASES: Readonly<Record<string, TextOperator>> = {
  "=": "=",
  "==": "=",
  equals: "=",
  "≠": "≠",
  "!=": "≠",
  "not equals": "≠",
  contains: "contains",
  "start with": "start with",
  "starts with": "start with",
  "end with": "end with",
  "ends with": "end with",
};

/** The operator an editor row means, or undefined when it is not a text comparison we know. */
export function textOperator(operator: unknown): TextOperator | undefined {
  if (typeof operator !== "string") return undefined;
  const key = operator.trim().toLowerCase();
  return Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
}

/**
 * How a value is compared: as RAGFlow's `_norm`, `"" if v is None else str(v)`. So `true` is
 * "True" and `[1, "a"]` is "[1, 'a']", which is what a user who sees RAGFlow's behaviour types.
 */
export function comparableText(value: unknown): string {
  return value === null || value === undefined ? "" : pythonStr(value);
}

export function matchesText(value: string, operator: TextOperator, target: string): boolean {
  switch (operator) {
    case "=":
      return value === target;
    case "≠":
      return value !== target;
    case "contains":
      return value.includes(target);
    case "start with":
      return value.startsWith(target);
    case "end with":
      return value.endsWith(target);
  }
}
