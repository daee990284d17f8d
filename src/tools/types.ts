/**
 * The one tool interface. A tool runs with the arguments a model chose (Agent) or that its node's
 * params resolve to (canvas node), and returns what the model reads (`formalized_content`) plus
 * any other outputs.
 */
import type { ComponentContext } from "../contracts/component.js";
import type { ToolContext } from "../contracts/tool.js";

export type { AgentToolBinding, ToolContext, ToolOutput, ToolRun } from "../contracts/tool.js";

/** A tool's spans are children of its caller's (a component, or an Agent's tool call): its `span`, for a ToolContext. */
export function toolSpans(ctx: Pick<ComponentContext, "span">): Pick<ToolContext, "span"> {
  return ctx.span ? { span: ctx.span.bind(ctx) } : {};
}

/**
 * A tool failure that still produced outputs (CodeExec's raw_result and actual_type when the result
 * breaks its declared type). As a canvas node the outputs are set before the error path runs.
 */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly outputs: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}
