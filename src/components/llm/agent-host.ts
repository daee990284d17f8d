/**
 * What the modules that build an Agent's functions (agent-tools.ts, agent-mcp.ts) share: the
 * Agent that offers them, and the names the OpenAI API accepts for them.
 */
import type { ComponentContext, Params, ReferenceChunk } from "../types.js";
import type { PromptMessage } from "./prompt.js";

/** What building the functions needs from the Agent that offers them. */
export interface ToolHost {
  readonly ctx: ComponentContext;
  readonly signal: AbortSignal;
  /** Who offers the tools, for labels: the Agent's id, or "<agent> → <sub-agent>". */
  readonly label: string;
  /** Called with the references a tool retrieved (after they were recorded for message_end). */
  onReferences(chunks: readonly ReferenceChunk[]): void;
  /** Run a sub-agent on its own params with the task the model wrote; returns its answer text. */
  runSubAgent(params: Params, task: PromptMessage[], label: string): Promise<string>;
}

/** A function name the OpenAI API accepts: letters, digits, `_` and `-`, at most 64 characters. */
export function functionName(base: string, index: number | undefined): string {
  const suffix = index === undefined ? "" : `_${index}`;
  const clean = base.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "tool";
  return clean.slice(0, 64 - suffix.length) + suffix;
}
