/**
 * Begin: the start of every canvas (id "begin"). It receives the run's inputs: the form values,
 * or the user's query when the form has a single field (research/ragflow.md §4.1).
 */
import { componentSchema } from "../dsl/schemas.js";
import { isPlainObject } from "../util/values.js";
import { applySubmittedValues, formFields, missingFields, resolveInputValue } from "./form.js";
import type { ComponentContext, ComponentDefinition, InputField, Params } from "./types.js";

/**
 * RAGFlow's _merge_runtime_inputs: submitted inputs win; otherwise a query fills the form — a
 * JSON object query by field keys, a plain query the single field of a one-field form. Fields
 * nobody submitted fall back to the value stored in the form, if any.
 */
function beginInputs(form: Record<string, InputField>, inputs: Record<string, unknown> | undefined, query: string): Record<string, unknown> {
  let submitted: Record<string, unknown> = {};
  if (inputs && Object.keys(inputs).length > 0) {
    submitted = { ...inputs };
  } else if (query.length > 0) {
    const keys = Object.keys(form);
    const structured = parseObject(query);
    if (structured) {
      for (const key of keys) if (Object.hasOwn(structured, key)) submitted[key] = structured[key];
    } else if (keys.length === 1) {
      submitted[keys[0]] = query;
    }
  }
  for (const [key, field] of Object.entries(form)) {
    if (!Object.hasOwn(submitted, key) && field.value !== undefined && field.value !== null && field.value !== "") {
      submitted[key] = field.value;
    }
  }
  return submitted;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith("{")) return undefined;
  try {
    const value = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export const Begin: ComponentDefinition = {
  name: "Begin",
  paramsSchema: componentSchema("Begin"),
  defaults: {
    mode: "conversational",
    prologue: "Hi! I'm your smart assistant. What can I do for you?",
    inputs: {},
  },
  capabilities: { entry: true, asksForInput: true },
  thoughts: () => "",
  requestInput(ctx: ComponentContext<Params>) {
    const form = formFields(ctx.params);
    const submitted = beginInputs(form, ctx.inputs, ctx.query);
    const missing = missingFields(form, submitted);
    return { fields: missing, tips: Object.keys(missing).length > 0 ? "Please fill in the required inputs." : "" };
  },
  invoke(ctx) {
    const form = formFields(ctx.params);
    const submitted = beginInputs(form, ctx.inputs, ctx.query);
    for (const key of Object.keys(form)) if (!Object.hasOwn(submitted, key)) ctx.setOutput(key, null);
    applySubmittedValues(form, submitted, (key, value) => {
      ctx.setOutput(key, value);
      ctx.setInput(key, value);
    });
  },
};

export { resolveInputValue };
