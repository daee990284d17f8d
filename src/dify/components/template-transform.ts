/**
 * Dify's template-transform: a Jinja2 template over named variables bound from selectors,
 * rendered with nunjucks (canvasflow's Jinja engine). An undefined name renders as "".
 */
import { jinjaEnvironment } from "../../components/jinja.js";
import type { ComponentDefinition, ParamProblem } from "../../components/types.js";
import { isPlainObject } from "../../util/values.js";
import { checkVariableRows, list, referencesIn, rowValues } from "./common.js";

/** Dify's TEMPLATE_TRANSFORM_MAX_LENGTH (graphon's default). */
export const TEMPLATE_MAX_LENGTH = 400_000;

/** Render Jinja2 with named values (also used by LLM messages in jinja2 mode). */
export function renderJinja2(template: string, values: Record<string, unknown>): string {
  try {
    return jinjaEnvironment().renderString(template, values);
  } catch (error) {
    throw new Error(`the template cannot be rendered: ${(error as Error).message.replace(/\s+/g, " ").trim()}`);
  }
}

export const DifyTemplateTransform: ComponentDefinition = {
  name: "DifyTemplateTransform",
  thoughts: () => "",
  references: (params) => referencesIn(list(params.variables).map((v) => (isPlainObject(v) ? v.value_selector : undefined))),
  check(params, info): ParamProblem[] {
    const problems = checkVariableRows(params, "variables", "variable", info);
    if (params.template !== undefined && typeof params.template !== "string") problems.push({ pointer: "/template", message: "template must be text" });
    return problems;
  },
  invoke(ctx) {
    const template = typeof ctx.params.template === "string" ? ctx.params.template : "";
    const output = renderJinja2(template, rowValues(ctx, ctx.params.variables));
    if (output.length > TEMPLATE_MAX_LENGTH) throw new Error(`the output is ${output.length} characters long, more than ${TEMPLATE_MAX_LENGTH}`);
    ctx.setOutput("output", output);
  },
};
