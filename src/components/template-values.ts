/**
 * Non-streamed rendering of a template for components that need its whole text (StringTransform
 * merge, DataOperations values): each reference is read once, and an upstream streamed output
 * (an LLM answer) is read to its end first.
 */
import { stringifyValue, type CompiledTemplate } from "../refs/template.js";
import { isTextStream } from "./text-stream.js";
import type { ComponentContext, Params } from "./types.js";

/** The text of every reference in `template`, by expression. */
export async function resolveTemplateValues(
  ctx: ComponentContext<Params>,
  template: CompiledTemplate,
  stringify: (value: unknown) => string = stringifyValue,
): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const ref of template.references) {
    if (values.has(ref.expr)) continue;
    let value = ctx.get(ref);
    if (isTextStream(value)) {
      value = await value.readAll();
      ctx.setInput(ref.expr, value);
    }
    values.set(ref.expr, stringify(value));
  }
  return values;
}

/** Put the values in place of the references; the values are never scanned again. */
export function substituteValues(template: CompiledTemplate, values: ReadonlyMap<string, string>): string {
  if (template.isStatic) return template.source;
  return template.segments.map((segment) => (typeof segment === "string" ? segment : values.get(segment.ref.expr) ?? "")).join("");
}

/** Render a template's references (iteration aliases included where the component may use them). */
export async function renderTemplateText(ctx: ComponentContext<Params>, text: string, stringify: (value: unknown) => string = stringifyValue): Promise<string> {
  const template = ctx.compile(text);
  if (template.isStatic) return text;
  return substituteValues(template, await resolveTemplateValues(ctx, template, stringify));
}
