/**
 * Jinja-style templates (Message and StringTransform merge), rendered with nunjucks, the
 * maintained Jinja2-compatible engine for JavaScript.
 *
 * RAGFlow renames each `{cpn@var}` reference to an identifier (`cpn_var`, `[@:.]` → `_`), renders
 * Jinja2 with those identifiers as variables, then replaces the identifier text by the values.
 * We keep both spellings working — `{{ cpn_var }}` inside Jinja, `{cpn@var}` as plain text —
 * but substitute the plain references through unique markers, so a value that happens to
 * contain an identifier is never rewritten (research/ragflow.md §8, quirk 19).
 */
import type nunjucks from "nunjucks";
import type { CompiledTemplate } from "../refs/template.js";
import { lazyPackage } from "../util/optional-package.js";

const loadNunjucks = lazyPackage<typeof nunjucks>("nunjucks", "Jinja templates");
let environment: nunjucks.Environment | undefined;

/** The one nunjucks environment (Jinja2's defaults: no autoescape, an undefined name renders ""), made on first render. */
export function jinjaEnvironment(): nunjucks.Environment {
  environment ??= new (loadNunjucks().Environment)(null, { autoescape: false, throwOnUndefined: false });
  return environment;
}

/** RAGFlow's `_is_jinjia2`: a `{% … %}` block, `{{` or `}}`. */
export function looksLikeJinja(text: string): boolean {
  return /\{%[\s\S]*%\}/.test(text) || text.includes("{{") || text.includes("}}");
}

/** The identifier RAGFlow gives a reference inside Jinja: `[@:.]` replaced by `_`. */
export function jinjaIdentifier(expression: string): string {
  return expression.replace(/[@:.]/g, "_");
}

export interface JinjaRenderInput {
  template: CompiledTemplate;
  /** The value of each reference by expression, already stringified. */
  values: ReadonlyMap<string, string>;
}

/**
 * Render a template that mixes Jinja syntax and `{cpn@var}` references. Jinja errors are raised
 * (the caller decides whether to fall back).
 */
export function renderJinja({ template, values }: JinjaRenderInput): string {
  const marker = `\u0000cf${Math.random().toString(36).slice(2)}_`;
  const context: Record<string, string> = {};
  const markers = new Map<string, string>();
  let source = "";
  for (const segment of template.segments) {
    if (typeof segment === "string") {
      source += segment;
      continue;
    }
    const expr = segment.ref.expr;
    const value = values.get(expr) ?? "";
    const identifier = jinjaIdentifier(expr);
    context[identifier] = value;
    // Inside `{{ … }}` a doubled-brace reference is Jinja's own variable; elsewhere a marker.
    if (segment.raw.startsWith("{{") && segment.raw.endsWith("}}")) {
      source += `{{ ${identifier} }}`;
    } else {
      let token = markers.get(expr);
      if (!token) {
        token = `${marker}${markers.size}\u0000`;
        markers.set(expr, token);
      }
      source += token;
    }
  }
  let rendered = jinjaEnvironment().renderString(source, context);
  for (const [expr, token] of markers) rendered = rendered.split(token).join(values.get(expr) ?? "");
  return rendered;
}
