/**
 * ListOperations: take items from a list (nth, head, tail), filter, sort or de-duplicate it
 * (research/ragflow.md §4.1). Outputs `result`, and its `first` and `last` item (null when empty).
 */
import { componentSchema } from "../dsl/schemas.js";
import { lodash } from "../util/lodash.js";
import { parseSelector } from "../refs/grammar.js";
import { isPlainObject } from "../util/values.js";
import { comparableText, matchesText, textOperator, TEXT_OPERATORS } from "./text-match.js";
import type { ComponentDefinition, Params, ParamProblem } from "./types.js";
import { valueKind } from "./value-kind.js";

export type ListOperation = "nth" | "head" | "tail" | "filter" | "sort" | "drop_duplicates";

export const LIST_OPERATIONS: readonly ListOperation[] = ["nth", "head", "tail", "filter", "sort", "drop_duplicates"];

/** `topN` (the editor's old name, any case) is head; empty is nth. Undefined: not an operation. */
export function listOperation(value: unknown): ListOperation | undefined {
  const op = value === null || value === undefined ? "" : String(value).trim();
  if (op.toLowerCase() === "topn") return "head";
  if (op === "") return "nth";
  return (LIST_OPERATIONS as readonly string[]).includes(op) ? (op as ListOperation) : undefined;
}

/** `n` as Python's int(): numbers truncate toward zero, integer texts parse. Undefined: not a count. */
export function countOf(value: unknown): number | undefined {
  if (value === null || value === undefined || value === "") return 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  return undefined;
}

/** `strict` is a boolean, or a text "1", "true", "yes" or "on" (any case). */
export function isStrict(value: unknown): boolean {
  if (typeof value === "string") return ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
  return Boolean(value);
}

function outOfRange(operation: string, n: number, length: number): Error {
  return new Error(`${operation}: n=${n} is out of range for a list of ${length} item${length === 1 ? "" : "s"} (strict mode needs ${operation === "nth" ? `1 ≤ |n| ≤ ${length}` : `1 ≤ n ≤ ${length}`})`);
}

/** The nth item, 1-based; negative n counts from the end; 0 or out of range gives []. */
export function nth<T>(items: readonly T[], n: number, strict: boolean): T[] {
  if (n !== 0 && Math.abs(n) <= items.length) return [items[n > 0 ? n - 1 : items.length + n]];
  if (strict) throw outOfRange("nth", n, items.length);
  return [];
}

export function head<T>(items: readonly T[], n: number, strict: boolean): T[] {
  if (strict && !(n >= 1 && n <= items.length)) throw outOfRange("head", n, items.length);
  return n < 1 ? [] : items.slice(0, n);
}

export function tail<T>(items: readonly T[], n: number, strict: boolean): T[] {
  if (strict && !(n >= 1 && n <= items.length)) throw outOfRange("tail", n, items.length);
  return n < 1 ? [] : items.slice(-n);
}

/** Items whose text (RAGFlow's `str(item)`: null → "", true → "True", lists and dicts as Python writes them) matches the rule. */
export function filterItems<T>(items: readonly T[], operator: unknown, value: unknown): T[] {
  const op = textOperator(operator);
  if (!op) throw new Error(`filter.operator must be one of ${TEXT_OPERATORS.map((o) => JSON.stringify(o)).join(", ")}, not ${JSON.stringify(operator)}`);
  const target = comparableText(value);
  return items.filter((item) => matchesText(comparableText(item), op, target));
}

// ---- ordering ----

/**
 * The form an item is ordered and de-duplicated by: objects become their [key, value] pairs in
 * key order (RAGFlow's _hashable), so two objects compare by their first key, then its value…
 */
export function canonicalForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalForm);
  if (isPlainObject(value)) {
    return Object.keys(value)
      .sort(compareCodePoints)
      .map((key) => [key, canonicalForm(value[key])]);
  }
  return value === undefined ? null : value;
}

/** A text key equal for equal values whatever their key order; objects and lists stay distinct. */
export function identityKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(identityKey).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort(compareCodePoints);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${identityKey(value[k])}`).join(",")}}`;
  }
  return value === undefined ? "null" : JSON.stringify(value) ?? String(value);
}

/** Python orders texts by code point; JS `<` by UTF-16 unit. They differ past U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
}

class IncomparableError extends Error {}

function orderKind(value: unknown): "number" | "string" | "list" | "null" | "other" {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" || typeof value === "boolean") return "number";
  if (typeof value === "string") return "string";
  if (Array.isArray(value)) return "list";
  return "other";
}

/**
 * Python's ordering of canonical forms: numbers (booleans as 0/1) numerically, texts by code
 * point, lists item by item. Other mixes cannot be ordered (Python raises TypeError too).
 */
export function compareValues(a: unknown, b: unknown): number {
  const ka = orderKind(a);
  const kb = orderKind(b);
  if (ka === "null" || kb === "null") return ka === kb ? 0 : ka === "null" ? -1 : 1;
  if (ka !== kb || ka === "other") {
    const kinds = [valueKind(a), valueKind(b)].sort();
    throw new IncomparableError(`cannot order ${kinds[0]} and ${kinds[1]} together`);
  }
  if (ka === "number") return Math.sign(Number(a) - Number(b));
  if (ka === "string") return compareCodePoints(a as string, b as string);
  const la = a as unknown[];
  const lb = b as unknown[];
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const c = compareValues(la[i], lb[i]);
    if (c !== 0) return c;
  }
  return Math.sign(la.length - lb.length);
}

/** Keys to sort objects by: "a, b" or ["a", "b"]; blanks dropped. */
export function sortKeys(sortBy: unknown): string[] {
  const parts = Array.isArray(sortBy) ? sortBy.map((k) => (typeof k === "string" ? k : "")) : typeof sortBy === "string" ? sortBy.split(",") : [];
  return parts.map((k) => k.trim()).filter((k) => k.length > 0);
}

/**
 * A stable sort (equal items keep their order, also descending, as Python's sorted(reverse=True)).
 * With `sortBy` (object items): by those keys in turn; an item missing a key goes last in both
 * directions. Without: objects by their canonical form, other items by their own value.
 */
export function sortItems<T>(items: readonly T[], direction: "asc" | "desc", sortBy: readonly string[] = []): T[] {
  if (items.length === 0) return [];
  const sign = direction === "desc" ? -1 : 1;
  const byKeys = sortBy.length > 0 && isPlainObject(items[0]);
  const keyed = items.map((item, index) => {
    if (!byKeys) return { item, key: [canonicalForm(item)] };
    if (!isPlainObject(item)) throw new Error(`sort_by needs objects, but item ${index + 1} is ${valueKind(item)}`);
    return { item, key: sortBy.map((k) => (Object.hasOwn(item, k) ? canonicalForm(item[k]) : null)) };
  });
  try {
    keyed.sort((x, y) => {
      for (let i = 0; i < x.key.length; i++) {
        const a = x.key[i];
        const b = y.key[i];
        const aMissing = a === null;
        const bMissing = b === null;
        if (aMissing || bMissing) {
          if (aMissing && bMissing) continue;
          return aMissing ? 1 : -1;
        }
        const c = compareValues(a, b);
        if (c !== 0) return sign * c;
      }
      return 0;
    });
  } catch (error) {
    if (error instanceof IncomparableError) {
      const what = byKeys ? `the values of sort_by "${sortBy.join(",")}"` : "the items";
      throw new Error(`sort: ${what} cannot be ordered: ${error.message}`);
    }
    throw error;
  }
  return keyed.map((k) => k.item);
}

/** The first of each group of equal items (objects equal whatever their key order). */
export function dropDuplicates<T>(items: readonly T[]): T[] {
  return lodash().uniqBy(items, identityKey);
}

// ---- the component ----

function runOperation(operation: ListOperation, items: readonly unknown[], params: Params): unknown[] {
  const n = countOf(params.n);
  const strict = isStrict(params.strict);
  const needCount = (): number => {
    if (n === undefined) throw new Error(`n must be an integer, not ${JSON.stringify(params.n)}`);
    return n;
  };
  switch (operation) {
    case "nth":
      return nth(items, needCount(), strict);
    case "head":
      return head(items, needCount(), strict);
    case "tail":
      return tail(items, needCount(), strict);
    case "filter": {
      const filter = isPlainObject(params.filter) ? params.filter : {};
      return filterItems(items, filter.operator ?? "=", filter.value ?? "");
    }
    case "sort":
      return sortItems(items, params.sort_method === "desc" ? "desc" : "asc", sortKeys(params.sort_by));
    case "drop_duplicates":
      return dropDuplicates(items);
  }
}

export const ListOperations: ComponentDefinition = {
  name: "ListOperations",
  paramsSchema: componentSchema("ListOperations"),
  defaults: { query: "", operations: "nth", n: 0, strict: false, sort_method: "asc", sort_by: "", filter: { operator: "=", value: "" } },
  primaryOutput: "result",
  thoughts: () => "ListOperation in progress",
  references(params) {
    const ref = typeof params.query === "string" ? parseSelector(params.query) : null;
    return ref ? [ref] : [];
  },
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    if (typeof params.query !== "string" || parseSelector(params.query) === null) {
      problems.push({ pointer: "/query", message: "query must reference the list to work on (cpn@var, sys.x or env.x)" });
    }
    const operation = listOperation(params.operations);
    if (!operation) {
      problems.push({ pointer: "/operations", message: `operations must be one of ${LIST_OPERATIONS.join(", ")} (or topN), not ${JSON.stringify(params.operations)}` });
    }
    if ((operation === "nth" || operation === "head" || operation === "tail") && countOf(params.n) === undefined) {
      problems.push({ pointer: "/n", message: `n must be an integer, not ${JSON.stringify(params.n)}` });
    } else if (typeof params.n === "number" && !Number.isInteger(params.n)) {
      problems.push({ pointer: "/n", severity: "warning", message: `n=${params.n} is not an integer; it is truncated to ${Math.trunc(params.n)}` });
    }
    if (operation === "filter") {
      const operator = isPlainObject(params.filter) ? params.filter.operator ?? "=" : "=";
      if (!textOperator(operator)) {
        problems.push({ pointer: "/filter/operator", message: `filter.operator must be one of ${TEXT_OPERATORS.join(", ")}, not ${JSON.stringify(operator)}` });
      }
    }
    const method = params.sort_method;
    if (operation === "sort" && method !== undefined && method !== null && method !== "" && method !== "asc" && method !== "desc") {
      problems.push({ pointer: "/sort_method", severity: "warning", message: `sort_method ${JSON.stringify(method)} is neither "asc" nor "desc"; it sorts ascending` });
    }
    return problems;
  },
  invoke(ctx) {
    const operation = listOperation(ctx.params.operations);
    if (!operation) throw new Error(`operations must be one of ${LIST_OPERATIONS.join(", ")} (or topN), not ${JSON.stringify(ctx.params.operations)}`);
    const selector = ctx.params.query;
    if (typeof selector !== "string" || parseSelector(selector) === null) {
      throw new Error(`query ${JSON.stringify(selector ?? "")} is not a reference to a list (expected cpn@var, sys.x or env.x)`);
    }
    const items = ctx.get(selector);
    if (!Array.isArray(items)) throw new Error(`query "${selector}" must be a list, got ${valueKind(items)}`);
    const result = runOperation(operation, items, ctx.params);
    ctx.setOutput("result", result);
    ctx.setOutput("first", result.length > 0 ? result[0] : null);
    ctx.setOutput("last", result.length > 0 ? result[result.length - 1] : null);
  },
};
