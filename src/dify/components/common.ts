/**
 * What the Dify node components share: reading selectors and rendering templates the way Dify
 * does, and checking the parts of a node's data that several types have.
 */
import type { Reference } from "../../refs/grammar.js";
import type { CheckInfo, ComponentContext, ParamProblem, Params } from "../../components/types.js";
import { isPlainObject } from "../../util/values.js";
import { markdownOf, textOf } from "../render.js";
import { renderTemplate, selectorReference, selectorText, templateReferences } from "../references.js";

/** Read a selector; undefined when it names nothing (or is not a selector). */
export function readSelector(ctx: ComponentContext, selector: unknown): unknown {
  const ref = selectorReference(selector);
  if (!ref) return undefined;
  try {
    return ctx.peek(ref);
  } catch {
    return undefined;
  }
}

/** A template rendered with `.text` (prompts, HTTP requests, conditions). */
export function renderText(ctx: ComponentContext, template: unknown): string {
  if (typeof template !== "string") return textOf(template);
  return renderTemplate(template, (ref) => ctx.peek(ref), textOf);
}

/** A template rendered with `.markdown` (answers). */
export function renderMarkdown(ctx: ComponentContext, template: unknown): string {
  if (typeof template !== "string") return markdownOf(template);
  return renderTemplate(template, (ref) => ctx.peek(ref), markdownOf);
}

/** The references of selectors and templates found at these data paths. */
export function referencesIn(selectors: readonly unknown[], templates: readonly unknown[] = []): Reference[] {
  const out: Reference[] = [];
  for (const selector of selectors) {
    const ref = selectorReference(selector);
    if (ref) out.push(ref);
  }
  for (const template of templates) out.push(...templateReferences(template));
  return out;
}

/** A list param, or [] (the checks report a wrong type). */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function record(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

/** A selector naming a node the graph does not have (it reads nothing at run time): a warning. */
function unknownNode(selector: unknown, info: CheckInfo | undefined, pointer: string): ParamProblem[] {
  const ref = selectorReference(selector);
  if (!info || !ref || ref.kind !== "component" || info.hasComponent(ref.componentId)) return [];
  return [{ pointer, severity: "warning", message: `it reads ${selectorText(ref)}, but the graph has no node ${ref.componentId}` }];
}

/** `{variable, value_selector}` rows (template-transform, code, End outputs). */
export function checkVariableRows(params: Params, key: string, nameKey = "variable", info?: CheckInfo): ParamProblem[] {
  const rows = params[key];
  if (rows === undefined) return [];
  if (!Array.isArray(rows)) return [{ pointer: `/${key}`, message: `${key} must be a list` }];
  const problems: ParamProblem[] = [];
  rows.forEach((row, index) => {
    if (!isPlainObject(row)) {
      problems.push({ pointer: `/${key}/${index}`, message: "must be an object {variable, value_selector}" });
      return;
    }
    if (typeof row[nameKey] !== "string" || row[nameKey] === "") problems.push({ pointer: `/${key}/${index}/${nameKey}`, message: `needs a ${nameKey} name` });
    if (row.value_selector !== undefined && row.value_selector !== null && !selectorReference(row.value_selector) && !(Array.isArray(row.value_selector) && row.value_selector.length === 0)) {
      problems.push({ pointer: `/${key}/${index}/value_selector`, message: `${JSON.stringify(row.value_selector)} is not a variable selector ([node id, variable, …])` });
    }
    problems.push(...unknownNode(row.value_selector, info, `/${key}/${index}/value_selector`));
  });
  return problems;
}

/** A selector param: a list of at least two names. */
export function checkSelector(params: Params, key: string, required = true, info?: CheckInfo): ParamProblem[] {
  const value = params[key];
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
    return required ? [{ pointer: `/${key}`, message: `${key} must choose a variable` }] : [];
  }
  if (!selectorReference(value)) return [{ pointer: `/${key}`, message: `${JSON.stringify(value)} is not a variable selector ([node id, variable, …])` }];
  return unknownNode(value, info, `/${key}`);
}

/** Named values from `{variable, value_selector}` rows. */
export function rowValues(ctx: ComponentContext, rows: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const row of list(rows)) {
    if (!isPlainObject(row) || typeof row.variable !== "string") continue;
    const value = readSelector(ctx, row.value_selector);
    Object.defineProperty(values, row.variable, { value: value === undefined ? null : value, enumerable: true, writable: true, configurable: true });
    ctx.setInput(row.variable, value ?? null);
  }
  return values;
}
