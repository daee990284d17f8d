import { scanReferences, type Reference } from "./grammar.js";

/** A template split into literal text and references, compiled once and rendered many times. */
export type TemplateSegment = string | TemplateReference;

export interface TemplateReference {
  readonly ref: Reference;
  /** The exact matched text, braces included. */
  readonly raw: string;
}

export interface CompiledTemplate {
  readonly source: string;
  readonly segments: readonly TemplateSegment[];
  /** True when the template holds no references: rendering returns `source` unchanged. */
  readonly isStatic: boolean;
  readonly references: readonly Reference[];
}

const STATIC_CACHE_LIMIT = 4096;
const cacheWithAliases = new Map<string, CompiledTemplate>();
const cacheWithoutAliases = new Map<string, CompiledTemplate>();

/**
 * Split a template into segments. The cache makes rendering the same prompt at every loop
 * round cost a Map lookup rather than a regex scan.
 */
export function compileTemplate(source: string, withAliases = true): CompiledTemplate {
  const cache = withAliases ? cacheWithAliases : cacheWithoutAliases;
  const hit = cache.get(source);
  if (hit) return hit;
  const compiled = compileUncached(source, withAliases);
  if (cache.size >= STATIC_CACHE_LIMIT) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

function compileUncached(source: string, withAliases: boolean): CompiledTemplate {
  const segments: TemplateSegment[] = [];
  const references: Reference[] = [];
  if (source.indexOf("{") >= 0) {
    let last = 0;
    for (const { ref, start, end, raw } of scanReferences(source, withAliases)) {
      if (start > last) segments.push(source.slice(last, start));
      segments.push({ ref, raw });
      references.push(ref);
      last = end;
    }
    if (last < source.length) segments.push(source.slice(last));
  } else if (source.length > 0) {
    segments.push(source);
  }
  return { source, segments, isStatic: references.length === 0, references };
}

/**
 * Render a value the way a template shows it: null/undefined become "", strings stay as they
 * are, anything else becomes JSON. The result is never parsed again as a template.
 */
export function stringifyValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json;
  } catch {
    return String(value);
  }
}

/**
 * Render a compiled template with a resolver. Each reference is resolved once per render
 * (repeated references reuse the value), and substituted values are never re-scanned.
 */
export function renderTemplate(
  template: CompiledTemplate,
  resolve: (ref: Reference) => unknown,
  stringify: (value: unknown) => string = stringifyValue,
): string {
  if (template.isStatic) return template.source;
  let out = "";
  let cache: Map<string, string> | undefined;
  for (const segment of template.segments) {
    if (typeof segment === "string") {
      out += segment;
      continue;
    }
    const key = segment.ref.expr;
    let text = cache?.get(key);
    if (text === undefined) {
      text = stringify(resolve(segment.ref));
      (cache ??= new Map()).set(key, text);
    }
    out += text;
  }
  return out;
}
