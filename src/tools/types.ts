/**
 * The one tool interface. A tool runs with the arguments a model chose (Agent) or that its node's
 * params resolve to (canvas node), and returns what the model reads (`formalized_content`) plus
 * any other outputs.
 */
export type { AgentToolBinding, ToolContext, ToolOutput, ToolRun } from "../contracts/tool.js";

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
