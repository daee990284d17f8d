/**
 * The one tool interface. A tool runs with the arguments a model chose (Agent) or that its node's
 * params resolve to (canvas node), and returns what the model reads (`formalized_content`) plus
 * any other outputs.
 */
import type { JsonSchema, Params, ReferenceChunk, ReferenceDocument, RuntimeServices, SpanAttributes, SpanScope, UsageReport } from "./values.js";

/** A function the model may call (OpenAI's tools format). */
export interface FunctionTool {
  type: "function";
  function: { name: string; description?: string; parameters: JsonSchema };
}

export interface ToolContext {
  readonly signal: AbortSignal;
  readonly services: RuntimeServices;
  /** The tool's configured params (API keys, limits…), defaults applied. */
  readonly params: Params;
  /** Who runs the tool, for messages: a node id, or "<agent id> → <tool>". */
  readonly label: string;
  addReferences(chunks: readonly ReferenceChunk[], documents?: readonly ReferenceDocument[]): void;
  addUsage(usage: UsageReport): void;
  /**
   * Reads a canvas reference (`cpn@var.path`, `sys.x`, `env.x`), as RAGFlow tools read the canvas
   * (Retrieval's dataset variables, CodeExec's arguments). Present when the tool runs inside a
   * canvas, as a node or as an Agent's tool; absent when it runs on its own.
   */
  get?(selector: string): unknown;
  /** A child span of the calling component's (or Agent tool call's) span: ComponentContext.span. */
  span?<T>(name: string, attributes: SpanAttributes, fn: (span: SpanScope) => Promise<T>): Promise<T>;
}

/** A tool's result. `formalized_content` is the text a model reads (file makers such as DocGenerator have none). */
export interface ToolOutput {
  formalized_content?: string;
  [output: string]: unknown;
}

export type ToolRun = (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolOutput>;

/** How an Agent offers a tool type to its model and calls it. */
export interface AgentToolBinding {
  /** RAGFlow's function name (the tool's meta name), e.g. "tavily_search". */
  readonly functionName: string;
  /** The function schema the model sees, given the tool's configured params (`description` overrides the default). */
  schema(params: Params): FunctionTool;
  readonly run: ToolRun;
}
