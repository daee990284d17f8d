/**
 * UserFillUp ("Await Response"): pauses the run until the user submits its form, then exposes
 * the values as outputs (research/ragflow.md §2.6, §4.1).
 */
import { componentSchema } from "../dsl/schemas.js";
import { stringifyValue } from "../refs/template.js";
import { applySubmittedValues, formFields, missingFields } from "./form.js";
import type { ComponentContext, ComponentDefinition, Params } from "./types.js";

/** Tips render lists joined by "," (RAGFlow's fillup.py), other values as usual. */
function tipValue(value: unknown): string {
  return Array.isArray(value) ? value.map((v) => stringifyValue(v)).join(",") : stringifyValue(value);
}

function tips(ctx: ComponentContext<Params>): string {
  if (ctx.params.enable_tips === false) return "";
  const text = ctx.params.tips;
  return typeof text === "string" ? ctx.render(text, tipValue) : "";
}

export const UserFillUp: ComponentDefinition = {
  name: "UserFillUp",
  paramsSchema: componentSchema("UserFillUp"),
  defaults: { enable_tips: true, tips: "Please fill up the form", layout_recognize: "", inputs: {} },
  capabilities: { asksForInput: true },
  thoughts: () => "Waiting for your input...",
  requestInput(ctx) {
    // Without submitted values the whole form is asked for again: stale values from an earlier
    // round (inside a Loop) never count as an answer.
    const missing = missingFields(formFields(ctx.params), ctx.inputs);
    return { fields: missing, tips: Object.keys(missing).length > 0 ? tips(ctx) : "" };
  },
  invoke(ctx) {
    if (ctx.params.enable_tips !== false) ctx.setOutput("tips", tips(ctx));
    const form = formFields(ctx.params);
    const submitted = ctx.inputs ?? {};
    for (const key of Object.keys(form)) if (!Object.hasOwn(submitted, key)) ctx.setOutput(key, null);
    applySubmittedValues(form, submitted, (key, value) => {
      ctx.setOutput(key, value);
      ctx.setInput(key, value);
    });
  },
};
