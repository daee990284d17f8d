/**
 * Dify's references as the engine's: a selector `[node, variable, ...path]` or a template
 * reference `{{#node.variable.path#}}` (research/dify.md §2.3).
 *
 * - `[nodeId, var, ...]` reads the node's output `var`, then object keys (no list indexing).
 * - `sys.*` reads the run's globals of that name (`sys.query`, `sys.files`, `sys.dialogue_count`…).
 * - `env.*` reads the app's environment variables, `conversation.*` its conversation variables.
 */
import type { Reference } from "../refs/grammar.js";

/** Graphon's VARIABLE_PATTERN: a node id of 1–50 word characters, then 1–10 dotted keys. */
const TEMPLATE_REFERENCE = /\{\{#([a-zA-Z0-9_]{1,50}(?:\.[a-zA-Z_][a-zA-Z0-9_]{0,29}){1,10})#\}\}/g;

const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** A selector as a Reference; undefined when it is not one (too short, not strings, unsafe keys). */
export function selectorReference(selector: unknown): Reference | undefined {
  if (!Array.isArray(selector) || selector.length < 2) return undefined;
  const parts = selector.map((part) => (typeof part === "number" ? String(part) : part));
  if (!parts.every((part): part is string => typeof part === "string" && part.length > 0 && !UNSAFE_KEYS.has(part))) return undefined;
  const [head, variable, ...path] = parts;
  if (head === "sys" || head === "env" || head === "conversation") {
    const key = parts.join(".");
    return { kind: "global", expr: key, scope: head, key };
  }
  return { kind: "component", expr: `${head}@${[variable, ...path].join(".")}`, componentId: head, variable, path };
}

/** The selector a Reference came from, for messages (`node.var`, `sys.query`). */
export function selectorText(ref: Reference): string {
  if (ref.kind === "component") return [ref.componentId, ref.variable, ...ref.path].join(".");
  if (ref.kind === "global") return ref.key;
  return ref.alias;
}

/** A Dify template split into text and references, in order. */
type TemplatePart = string | { readonly ref: Reference; readonly raw: string };

const templateCache = new Map<string, TemplatePart[]>();

export function parseTemplate(template: string): TemplatePart[] {
  const hit = templateCache.get(template);
  if (hit) return hit;
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(TEMPLATE_REFERENCE)) {
    const ref = selectorReference(match[1].split("."));
    if (!ref) continue;
    if (match.index > last) parts.push(template.slice(last, match.index));
    parts.push({ ref, raw: match[1] });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  if (templateCache.size > 4096) templateCache.clear();
  templateCache.set(template, parts);
  return parts;
}

/** Every reference of a template. */
export function templateReferences(template: unknown): Reference[] {
  if (typeof template !== "string") return [];
  return parseTemplate(template).flatMap((part) => (typeof part === "string" ? [] : [part.ref]));
}

/**
 * Render a template: each reference's value through `render`; a value that is not there at all
 * (undefined) shows the reference's own text, as graphon's convert_template does.
 */
export function renderTemplate(template: string, read: (ref: Reference) => unknown, render: (value: unknown) => string): string {
  let out = "";
  for (const part of parseTemplate(template)) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    let value: unknown;
    try {
      value = read(part.ref);
    } catch {
      value = undefined;
    }
    out += value === undefined ? part.raw : render(value);
  }
  return out;
}
