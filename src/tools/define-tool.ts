/**
 * Builds the definition of a RAGFlow tool (agent/tools/*.py): a component that an Agent can call
 * and that can also sit on the canvas as a node.
 *
 * A RAGFlow tool has two kinds of params. Its meta params (ToolParamBase `meta.parameters`) are
 * what the model supplies when an Agent calls it; as a canvas node they are read from the node's
 * own params, each either a bare reference (`sys.query`, `cpn@var`) or text with template
 * references (`{sys.query}`). Its other params configure it (API keys, limits…).
 *
 * Both uses go through one function, `run(args, ctx)`.
 */
import { componentSchema } from "../dsl/schemas.js";
import { findReferences, parseSelector, type Reference } from "../refs/grammar.js";
import { ProviderMissingError } from "../components/needs-provider.js";
import type { CheckInfo, ComponentContext, ComponentDefinition, InvokeResult, JsonSchema, ParamProblem, Params } from "../components/types.js";
import type { FunctionTool } from "../llm/types.js";
import { ToolFailure, toolSpans, type AgentToolBinding, type ToolContext, type ToolOutput, type ToolRun } from "./types.js";

export interface MetaParam {
  /** RAGFlow's default (many tools default their query to the template "{sys.query}"). */
  readonly default: unknown;
  /**
   * Never read the stored value as a bare reference: it is text such as an e-mail address
   * ("a@b.com" is spelled like a reference) or code.
   */
  readonly textOnly?: boolean;
  /** JSON Schema type the model sees (default "string"). */
  readonly type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  readonly description?: string;
  readonly required?: boolean;
  readonly enum?: readonly unknown[];
  /** For arrays: the item schema. */
  readonly items?: JsonSchema;
}

export interface ToolSpec {
  /** The DSL's component_name. */
  readonly name: string;
  /** RAGFlow's function name (meta.name), e.g. "tavily_search". Defaults to the lower-cased name. */
  readonly functionName?: string;
  /** What the tool does, for the model (RAGFlow's meta.description). */
  readonly description?: string;
  readonly meta: Readonly<Record<string, MetaParam>>;
  /** The configuration params and their RAGFlow defaults. */
  readonly defaults?: Params;
  /** RAGFlow's execution timeout of the tool (`@timeout` default), in seconds. */
  readonly timeoutSeconds: number;
  /** Where an exception default value goes (default "formalized_content", what the model reads). */
  readonly primaryOutput?: string;
  /** Agent tools by default; DocGenerator and ExcelProcessor only run as canvas nodes. */
  readonly usableAsTool?: boolean;
  readonly check?: (params: Params, info: CheckInfo) => ParamProblem[];
  /** References read by configuration params (e.g. Retrieval's dataset variables). */
  readonly references?: (params: Params) => Reference[];
  readonly thoughts?: (params: Params) => string;
  /** The real work. Without it, running the tool fails with "needs a tool provider". */
  readonly run?: ToolRun;
}

/**
 * A tool's `run` whose module is imported on the first call: a tool's implementation (its HTTP
 * client, parser or document library) is loaded when a canvas runs it, not when canvasflow is
 * imported.
 */
export function lazyRun<M>(load: () => Promise<M>, pick: (module: M) => ToolRun): ToolRun {
  let run: Promise<ToolRun> | undefined;
  return async (args, ctx) => {
    run ??= load().then(pick);
    return (await run)(args, ctx);
  };
}

/** References in one stored value: a whole bare reference, or the template references in its text. */
function valueReferences(value: unknown, textOnly: boolean): Reference[] {
  if (typeof value === "string") {
    const ref = textOnly ? null : parseSelector(value);
    return ref ? [ref] : findReferences(value);
  }
  if (Array.isArray(value)) return value.flatMap((item) => valueReferences(item, textOnly));
  return [];
}

/** The references a tool node reads through its meta params (RAGFlow get_input). */
export function metaReferences(meta: ToolSpec["meta"], params: Params): Reference[] {
  return Object.entries(meta).flatMap(([key, spec]) => valueReferences(params[key], spec.textOnly === true));
}

/** A node's meta param value: a bare reference is read, text has its references rendered. */
function resolveMetaValue(ctx: ComponentContext, value: unknown, textOnly: boolean): unknown {
  if (typeof value === "string") {
    if (!textOnly && parseSelector(value)) return ctx.get(value);
    return ctx.render(value);
  }
  if (Array.isArray(value)) return value.map((item) => resolveMetaValue(ctx, item, textOnly));
  return value;
}

/** The function schema a model sees for a tool (OpenAI tools format). */
function functionSchema(spec: ToolSpec, params: Params): FunctionTool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, meta] of Object.entries(spec.meta)) {
    properties[key] = {
      type: meta.type ?? "string",
      ...(meta.description ? { description: meta.description } : {}),
      ...(meta.enum ? { enum: [...meta.enum] } : {}),
      ...(meta.items ? { items: meta.items } : {}),
    };
    if (meta.required) required.push(key);
  }
  const description = typeof params.description === "string" && params.description.trim() !== "" ? params.description : spec.description ?? spec.name;
  return {
    type: "function",
    function: {
      name: spec.functionName ?? spec.name.toLowerCase(),
      description,
      parameters: { type: "object", properties, required },
    },
  };
}

function toolContext(ctx: ComponentContext): ToolContext {
  return {
    signal: ctx.signal,
    services: ctx.services,
    params: ctx.params,
    label: ctx.id,
    addReferences: (chunks, documents) => ctx.addReferences(chunks, documents),
    addUsage: (usage) => ctx.addUsage(usage),
    get: (selector) => ctx.get(selector),
    ...toolSpans(ctx),
  };
}

export function defineTool(spec: ToolSpec): ComponentDefinition {
  const metaDefaults = Object.fromEntries(Object.entries(spec.meta).map(([key, param]) => [key, param.default]));
  const run: ToolRun =
    spec.run ??
    (async (_args, ctx) => {
      throw new ProviderMissingError(ctx.label, spec.name, "tool");
    });
  const usableAsTool = spec.usableAsTool ?? true;
  const binding: AgentToolBinding = {
    functionName: spec.functionName ?? spec.name.toLowerCase(),
    schema: (params) => functionSchema(spec, params),
    run,
  };
  return {
    name: spec.name,
    paramsSchema: componentSchema(spec.name),
    defaults: { ...metaDefaults, ...spec.defaults },
    capabilities: { provider: "tool" },
    usableAsTool,
    ...(usableAsTool ? { tool: binding } : {}),
    primaryOutput: spec.primaryOutput ?? "formalized_content",
    timeoutMs: spec.timeoutSeconds * 1000,
    thoughts: spec.thoughts ?? (() => `${spec.name} is running...`),
    references: (params) => [...metaReferences(spec.meta, params), ...(spec.references?.(params) ?? [])],
    ...(spec.check ? { check: spec.check } : {}),
    async invoke(ctx): Promise<InvokeResult> {
      const args: Record<string, unknown> = {};
      for (const [key, meta] of Object.entries(spec.meta)) {
        args[key] = resolveMetaValue(ctx, ctx.params[key], meta.textOnly === true);
        ctx.setInput(key, args[key]);
      }
      let output: ToolOutput;
      try {
        output = await run(args, toolContext(ctx));
      } catch (error) {
        if (error instanceof ToolFailure) for (const [key, value] of Object.entries(error.outputs)) ctx.setOutput(key, value);
        throw error;
      }
      for (const [key, value] of Object.entries(output)) ctx.setOutput(key, value);
    },
  };
}
