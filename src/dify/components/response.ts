/**
 * Dify's response nodes. End (workflows) outputs its variables, null for one not there; the
 * run's outputs are every End's, merged. Answer (chatflows) outputs its rendered text; the run's
 * `answer` is every Answer's, concatenated. Both stream in the graph's order (engine/edges).
 */
import type { ComponentDefinition, ParamProblem, ResponsePart, ResponseTemplate } from "../../components/types.js";
import { isPlainObject } from "../../util/values.js";
import { markdownOf } from "../render.js";
import { parseTemplate, selectorReference } from "../references.js";
import { checkVariableRows, list, readSelector, referencesIn, renderMarkdown } from "./common.js";

/** End outputs as a template: each value, joined by line breaks (graphon's Template.from_end_outputs). */
function endTemplate(outputs: unknown): ResponseTemplate {
  const parts: ResponsePart[] = [];
  list(outputs).forEach((output, index) => {
    if (index > 0) parts.push("\n");
    const ref = isPlainObject(output) ? selectorReference(output.value_selector) : undefined;
    if (ref) parts.push(ref);
  });
  if (typeof parts.at(-1) === "string") parts.pop();
  return { parts, render: markdownOf };
}

export const DifyEnd: ComponentDefinition = {
  name: "DifyEnd",
  capabilities: { response: "merge" },
  thoughts: () => "",
  references: (params) => referencesIn(list(params.outputs).map((o) => (isPlainObject(o) ? o.value_selector : undefined))),
  responseTemplate: (params) => endTemplate(params.outputs),
  check(params, info): ParamProblem[] {
    return checkVariableRows(params, "outputs", "variable", info);
  },
  invoke(ctx) {
    for (const output of list(ctx.params.outputs)) {
      if (!isPlainObject(output) || typeof output.variable !== "string") continue;
      const value = readSelector(ctx, output.value_selector);
      ctx.setInput(output.variable, value ?? null);
      ctx.setOutput(output.variable, value === undefined ? null : value);
    }
  },
};

export const DifyAnswer: ComponentDefinition = {
  name: "DifyAnswer",
  capabilities: { response: "concatenate" },
  thoughts: () => "",
  references: (params) => referencesIn([], [params.answer]),
  responseTemplate(params): ResponseTemplate {
    const template = typeof params.answer === "string" ? params.answer : "";
    return { parts: parseTemplate(template).map((part) => (typeof part === "string" ? part : part.ref)), render: markdownOf };
  },
  check(params): ParamProblem[] {
    return params.answer === undefined || typeof params.answer === "string" ? [] : [{ pointer: "/answer", message: "answer must be text" }];
  },
  invoke(ctx) {
    ctx.setOutput("answer", renderMarkdown(ctx, ctx.params.answer ?? ""));
    ctx.setOutput("files", []);
  },
};
