/**
 * DataOperations: reshape objects. The objects come from `query` (each reference gives an object,
 * or a list whose object items are taken); the operation makes `result` from them
 * (research/ragflow.md §4.1). Input objects are never changed: every result is a new object.
 */
import { componentSchema } from "../dsl/schemas.js";
import { FORBIDDEN_PATH_KEYS, findReferences, parseSelector, type Reference } from "../refs/grammar.js";
import { isPlainObject, objectRows } from "../util/values.js";
import { looksLikeLiteral, parseLiteral } from "./literal-eval.js";
import { renderTemplateText } from "./template-values.js";
import { comparableText, matchesText, textOperator, TEXT_OPERATORS, type TextOperator } from "./text-match.js";
import { isTextStream } from "./text-stream.js";
import type { ComponentContext, ComponentDefinition, Params, ParamProblem } from "./types.js";
import { valueKind } from "./value-kind.js";

type DataOperation = "select_keys" | "literal_eval" | "combine" | "filter_values" | "append_or_update" | "remove_keys" | "rename_keys";

const DATA_OPERATIONS: readonly DataOperation[] = ["select_keys", "literal_eval", "combine", "filter_values", "append_or_update", "remove_keys", "rename_keys"];

/** RAGFlow's backend default; the editor writes select_keys for new nodes. */
const DEFAULT_DATA_OPERATION: DataOperation = "literal_eval";

type Row = Record<string, unknown>;

/** An earlier RAGFlow spelled the operations with spaces ("select keys"); both are read. */
export function dataOperation(value: unknown): DataOperation | undefined {
  if (value === null || value === undefined || value === "") return DEFAULT_DATA_OPERATION;
  if (typeof value !== "string") return undefined;
  const op = value.trim().replace(/\s+/g, "_");
  return (DATA_OPERATIONS as readonly string[]).includes(op) ? (op as DataOperation) : undefined;
}

/** A key that could reach an object's prototype is never written. */
export class ForbiddenKeyError extends Error {
  constructor(key: string, where: string) {
    super(`${where}: the key "${key}" is not allowed (it could reach an object's prototype)`);
    this.name = "ForbiddenKeyError";
  }
}

function put(target: Row, key: string, value: unknown, where: string): void {
  if (FORBIDDEN_PATH_KEYS.has(key)) throw new ForbiddenKeyError(key, where);
  target[key] = value;
}

/** A shallow copy, without the keys in `skip`. */
function copyRow(row: Row, where: string, skip?: ReadonlySet<string>): Row {
  const out: Row = {};
  for (const key of Object.keys(row)) if (!skip?.has(key)) put(out, key, row[key], where);
  return out;
}

/** The editor stores lists of names as strings; its form state wraps them as {name} / {input}. */
function names(value: unknown, field: "name" | "input"): unknown[] {
  const list = Array.isArray(value) ? value : value === null || value === undefined || value === "" ? [] : [value];
  return list.map((item) => (isPlainObject(item) && field in item ? item[field] : item));
}

// ---- the operations (pure) ----

/** Each object with only the chosen keys, in the object's own key order. */
export function selectKeys(objects: readonly Row[], keys: readonly unknown[]): Row[] {
  const chosen = new Set(keys.filter((k): k is string => typeof k === "string"));
  return objects.map((row) => {
    const out: Row = {};
    for (const key of Object.keys(row)) if (chosen.has(key)) put(out, key, row[key], "select_keys");
    return out;
  });
}

/**
 * Read texts that look like Python or JSON literals ("3", "[1, 2]", "{'a': True}") as values,
 * inside objects and lists; a parsed value is not read again. Other texts stay as they are.
 */
export function literalEval(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(literalEval);
  if (isPlainObject(value)) {
    const out: Row = {};
    for (const key of Object.keys(value)) put(out, key, literalEval(value[key]), "literal_eval");
    return out;
  }
  if (typeof value === "string" && looksLikeLiteral(value)) {
    const parsed = parseLiteral(value);
    if (parsed.ok) return parsed.value;
    if (parsed.forbiddenKey !== undefined) throw new ForbiddenKeyError(parsed.forbiddenKey, "literal_eval");
  }
  return value;
}

/** One object; a key found in several objects collects its values into a list. */
export function combine(objects: readonly Row[]): Row {
  const out: Row = {};
  for (const row of objects) {
    for (const key of Object.keys(row)) {
      const value = row[key];
      if (!Object.hasOwn(out, key)) {
        put(out, key, value, "combine");
        continue;
      }
      const current = out[key];
      // New lists every time: upstream lists are never extended in place.
      out[key] = [...(Array.isArray(current) ? current : [current]), ...(Array.isArray(value) ? value : [value])];
    }
  }
  return out;
}

interface ValueRule {
  key: string;
  operator: TextOperator;
  /** Already rendered. */
  value: string;
}

/** The objects that match every rule (an object without the rule's key does not match). */
export function filterValues(objects: readonly Row[], rules: readonly ValueRule[]): Row[] {
  return objects.filter((row) => rules.every((rule) => Object.hasOwn(row, rule.key) && matchesText(comparableText(row[rule.key]), rule.operator, rule.value)));
}

/** Each object with the keys set (added at the end, or replaced in place). */
export function appendOrUpdate(objects: readonly Row[], updates: ReadonlyArray<{ key: string; value: unknown }>): Row[] {
  return objects.map((row) => {
    const out = copyRow(row, "append_or_update");
    for (const { key, value } of updates) put(out, key, value, "append_or_update");
    return out;
  });
}

export function removeKeys(objects: readonly Row[], keys: readonly unknown[]): Row[] {
  const removed = new Set(keys.filter((k): k is string => typeof k === "string"));
  return objects.map((row) => copyRow(row, "remove_keys", removed));
}

/** Renames in order; a renamed key moves to the end, or replaces the value of an existing new key in place. */
export function renameKeys(objects: readonly Row[], pairs: ReadonlyArray<{ oldKey: string; newKey: string }>): Row[] {
  return objects.map((row) => {
    let out = copyRow(row, "rename_keys");
    for (const { oldKey, newKey } of pairs) {
      if (!Object.hasOwn(out, oldKey)) continue;
      const value = out[oldKey];
      out = copyRow(out, "rename_keys", new Set([oldKey]));
      put(out, newKey, value, "rename_keys");
    }
    return out;
  });
}

// ---- params ----

function trimmed(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** Update rows with a key (rows the editor left blank are skipped, as RAGFlow does). */
function updateRows(params: Params): Array<{ index: number; key: string; value: unknown }> {
  return objectRows(params.updates)
    .map(({ row, index }) => ({ index, key: trimmed(row.key), value: row.value }))
    .filter((row) => row.key.length > 0);
}

function renamePairs(params: Params): Array<{ index: number; oldKey: string; newKey: string }> {
  return objectRows(params.rename_keys)
    .map(({ row, index }) => ({ index, oldKey: trimmed(row.old_key), newKey: trimmed(row.new_key) }))
    .filter((p) => p.oldKey.length > 0 && p.newKey.length > 0 && p.oldKey !== p.newKey);
}

/** Filter rows with a key; a blank row is an unfilled editor row and is skipped. */
function filterRows(params: Params): Array<{ index: number; key: string; operator: unknown; value: unknown }> {
  return objectRows(params.filter_values)
    .map(({ row, index }) => ({ index, key: typeof row.key === "string" ? row.key : "", operator: row.operator ?? "=", value: row.value }))
    .filter((row) => row.key.length > 0);
}

/** Values that are texts are templates; other values are used as they are. */
function templateRefs(value: unknown): Reference[] {
  return typeof value === "string" ? findReferences(value) : [];
}

// ---- the component ----

/** The objects the references in `query` give. */
async function inputObjects(ctx: ComponentContext<Params>): Promise<Row[]> {
  const objects: Row[] = [];
  const selectors = names(ctx.params.query, "input");
  for (const [index, selector] of selectors.entries()) {
    if (typeof selector !== "string" || parseSelector(selector) === null) {
      throw new Error(`query[${index}] ${JSON.stringify(selector)} is not a reference (expected cpn@var, sys.x or env.x)`);
    }
    let value = ctx.get(selector);
    if (isTextStream(value)) value = await value.readAll();
    if (value === null || value === undefined || value === "") continue;
    if (isPlainObject(value)) objects.push(value);
    else if (Array.isArray(value)) objects.push(...value.filter(isPlainObject));
    else throw new Error(`query "${selector}" must give an object or a list of objects, got ${valueKind(value)}`);
  }
  return objects;
}

async function run(ctx: ComponentContext<Params>, operation: DataOperation, objects: Row[]): Promise<unknown> {
  const params = ctx.params;
  switch (operation) {
    case "select_keys":
      return selectKeys(objects, names(params.select_keys, "name"));
    case "literal_eval":
      return literalEval(objects);
    case "combine":
      return combine(objects);
    case "filter_values": {
      const rules: ValueRule[] = [];
      for (const row of filterRows(params)) {
        const operator = textOperator(row.operator);
        if (!operator) throw new Error(`filter_values[${row.index}].operator must be one of ${TEXT_OPERATORS.join(", ")}, not ${JSON.stringify(row.operator)}`);
        const value = typeof row.value === "string" ? await renderTemplateText(ctx, row.value) : comparableText(row.value);
        rules.push({ key: row.key, operator, value });
      }
      return filterValues(objects, rules);
    }
    case "append_or_update": {
      const updates: Array<{ key: string; value: unknown }> = [];
      for (const row of updateRows(params)) {
        updates.push({ key: row.key, value: typeof row.value === "string" ? await renderTemplateText(ctx, row.value) : row.value ?? null });
      }
      return appendOrUpdate(objects, updates);
    }
    case "remove_keys":
      return removeKeys(objects, names(params.remove_keys, "name"));
    case "rename_keys":
      return renameKeys(objects, renamePairs(params));
  }
}

export const DataOperations: ComponentDefinition = {
  name: "DataOperations",
  paramsSchema: componentSchema("DataOperations"),
  defaults: { query: [], operations: DEFAULT_DATA_OPERATION, select_keys: [], filter_values: [], updates: [], remove_keys: [], rename_keys: [] },
  primaryOutput: "result",
  thoughts: () => "DataOperation in progress",
  /** The query references, plus the references in the values the chosen operation renders. */
  references(params): Reference[] {
    const refs: Reference[] = [];
    for (const selector of names(params.query, "input")) {
      const ref = typeof selector === "string" ? parseSelector(selector) : null;
      if (ref) refs.push(ref);
    }
    const operation = dataOperation(params.operations);
    if (operation === "filter_values") for (const row of filterRows(params)) refs.push(...templateRefs(row.value));
    if (operation === "append_or_update") for (const row of updateRows(params)) refs.push(...templateRefs(row.value));
    return refs;
  },
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    const selectors = names(params.query, "input");
    if (selectors.length === 0) problems.push({ pointer: "/query", message: "query must list at least one reference to an object or a list of objects" });
    selectors.forEach((selector, i) => {
      if (typeof selector !== "string" || parseSelector(selector) === null) {
        problems.push({ pointer: Array.isArray(params.query) ? `/query/${i}` : "/query", message: `${JSON.stringify(selector)} is not a reference (expected cpn@var, sys.x or env.x)` });
      }
    });
    const operation = dataOperation(params.operations);
    if (!operation) {
      problems.push({ pointer: "/operations", message: `operations must be one of ${DATA_OPERATIONS.join(", ")}, not ${JSON.stringify(params.operations)}` });
    }
    const forbidden = (key: unknown): boolean => typeof key === "string" && FORBIDDEN_PATH_KEYS.has(key.trim());
    const keyMessage = (key: unknown) => `the key ${JSON.stringify(key)} is not allowed (it could reach an object's prototype)`;
    if (operation === "select_keys") {
      names(params.select_keys, "name").forEach((key, i) => {
        if (forbidden(key)) problems.push({ pointer: `/select_keys/${i}`, message: keyMessage(key) });
      });
    }
    if (operation === "append_or_update") {
      for (const row of updateRows(params)) if (forbidden(row.key)) problems.push({ pointer: `/updates/${row.index}/key`, message: keyMessage(row.key) });
    }
    if (operation === "rename_keys") {
      for (const pair of renamePairs(params)) if (forbidden(pair.newKey)) problems.push({ pointer: `/rename_keys/${pair.index}/new_key`, message: keyMessage(pair.newKey) });
    }
    if (operation === "filter_values") {
      for (const row of filterRows(params)) {
        if (!textOperator(row.operator)) {
          problems.push({ pointer: `/filter_values/${row.index}/operator`, message: `operator must be one of ${TEXT_OPERATORS.join(", ")}, not ${JSON.stringify(row.operator)}` });
        }
      }
    }
    return problems;
  },
  async invoke(ctx) {
    const operation = dataOperation(ctx.params.operations);
    if (!operation) throw new Error(`operations must be one of ${DATA_OPERATIONS.join(", ")}, not ${JSON.stringify(ctx.params.operations)}`);
    const objects = await inputObjects(ctx);
    ctx.setOutput("result", await run(ctx, operation, objects));
  },
};
