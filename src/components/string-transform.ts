/**
 * StringTransform ("Text Processing"): split a text into a list at any of the delimiters, or
 * merge references into one text through a template (research/ragflow.md §4.1).
 *
 * Without `method` it splits, as RAGFlow's backend does; the editor writes `merge` for new nodes.
 */
import { componentSchema } from "../dsl/schemas.js";
import { lodash } from "../util/lodash.js";
import { findReferences, parseSelector, type Reference } from "../refs/grammar.js";
import { stringifyValue } from "../refs/template.js";
import { listParam } from "../util/values.js";
import { looksLikeJinja, renderJinja } from "./jinja.js";
import { messageText } from "./message.js";
import { resolveTemplateValues, substituteValues } from "./template-values.js";
import { isTextStream } from "./text-stream.js";
import type { ComponentContext, ComponentDefinition, Params, ParamProblem } from "./types.js";
import { valueKind } from "./value-kind.js";

export type StringTransformMethod = "split" | "merge";

/** RAGFlow's backend default; the editor's default for new nodes is "merge". */
export const DEFAULT_METHOD: StringTransformMethod = "split";

function methodOf(params: Params): StringTransformMethod | undefined {
  const method = params.method ?? DEFAULT_METHOD;
  return method === "split" || method === "merge" ? method : undefined;
}

/**
 * Split at any of the delimiters (taken literally, tried in the given order at each position),
 * keeping empty pieces: "a,,b" → ["a", "", "b"], "" → [""].
 */
export function splitByDelimiters(text: string, delimiters: readonly string[]): string[] {
  if (delimiters.length === 0) throw new Error("delimiters is empty: give at least one delimiter");
  const empty = delimiters.findIndex((d) => d.length === 0);
  if (empty >= 0) throw new Error(`delimiters[${empty}] is empty: a split delimiter must hold at least one character`);
  return text.split(new RegExp(delimiters.map((d) => lodash().escapeRegExp(d)).join("|")));
}

/**
 * How a referenced value appears in a merged text: lists are joined by the delimiter (items as a
 * Message shows them), everything else as a Message shows it.
 */
export function mergeText(value: unknown, delimiter: string): string {
  if (Array.isArray(value)) {
    // A list of download descriptors (DocGenerator) renders as a Message renders it.
    const downloads: unknown[] = [];
    const asMessage = messageText(value, downloads);
    if (downloads.length > 0) return asMessage;
    return value.map((item) => stringifyValue(item)).join(delimiter);
  }
  return messageText(value, []);
}

async function split(ctx: ComponentContext<Params>): Promise<void> {
  const selector = ctx.params.split_ref;
  if (typeof selector !== "string" || parseSelector(selector) === null) {
    throw new Error(`split_ref ${JSON.stringify(selector ?? "")} is not a reference to a text (expected cpn@var, sys.x or env.x)`);
  }
  let value = ctx.get(selector);
  if (isTextStream(value)) {
    value = await value.readAll();
    ctx.setInput(parseSelector(selector)!.expr, value);
  }
  if (value === null || value === undefined) value = "";
  if (typeof value !== "string") throw new Error(`split_ref "${selector}" must be a text to split, got ${valueKind(value)}`);
  const delimiters = listParam(ctx.params.delimiters);
  const bad = delimiters.findIndex((d) => typeof d !== "string");
  if (bad >= 0) throw new Error(`delimiters[${bad}] must be a text, got ${valueKind(delimiters[bad])}`);
  ctx.setOutput("result", splitByDelimiters(value, delimiters as string[]));
}

async function merge(ctx: ComponentContext<Params>): Promise<void> {
  const script = typeof ctx.params.script === "string" ? ctx.params.script : "";
  const first = listParam(ctx.params.delimiters)[0];
  if (typeof first !== "string") throw new Error("delimiters[0] must be a text: merge joins list values with it");
  const template = ctx.compile(script);
  const values = await resolveTemplateValues(ctx, template, (value) => mergeText(value, first));
  if (!looksLikeJinja(script)) {
    ctx.setOutput("result", substituteValues(template, values));
    return;
  }
  try {
    ctx.setOutput("result", renderJinja({ template, values }));
  } catch (error) {
    throw new Error(`script could not be rendered as a Jinja template: ${(error as Error).message}`);
  }
}

export const StringTransform: ComponentDefinition = {
  name: "StringTransform",
  paramsSchema: componentSchema("StringTransform"),
  // No default for `method`: methodOf() applies it, so check() can say the method was absent.
  defaults: { script: "", split_ref: "", delimiters: [","] },
  primaryOutput: "result",
  thoughts: (params) => (methodOf(params) === "merge" ? "It's merging." : "It's splitting."),
  /** Only what the chosen method reads: a merge's stale split_ref is not waited for. */
  references(params): Reference[] {
    const method = methodOf(params);
    if (method === "merge") return typeof params.script === "string" ? findReferences(params.script) : [];
    const ref = typeof params.split_ref === "string" ? parseSelector(params.split_ref) : null;
    return ref ? [ref] : [];
  },
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    const method = methodOf(params);
    if (!method) problems.push({ pointer: "/method", message: `method must be "split" or "merge", not ${JSON.stringify(params.method)}` });
    const delimiters = listParam(params.delimiters);
    if (delimiters.length === 0) problems.push({ pointer: "/delimiters", message: "delimiters must list at least one delimiter" });
    if (method === "split") {
      if (typeof params.split_ref !== "string" || parseSelector(params.split_ref) === null) {
        const implicit = params.method === undefined ? ' (method is absent, so it defaults to "split")' : "";
        problems.push({ pointer: "/split_ref", message: `split_ref must reference the text to split (cpn@var, sys.x or env.x)${implicit}` });
      }
      delimiters.forEach((d, i) => {
        if (d === "") problems.push({ pointer: `/delimiters/${i}`, message: "a split delimiter must hold at least one character" });
      });
    }
    return problems;
  },
  invoke(ctx) {
    const method = methodOf(ctx.params);
    if (method === "split") return split(ctx);
    if (method === "merge") return merge(ctx);
    throw new Error(`method must be "split" or "merge", not ${JSON.stringify(ctx.params.method)}`);
  },
};
