/**
 * Builds the definition of a RAGFlow tool (agent/tools/*.py): a component that an Agent can call
 * and that can also sit on the canvas as a node.
 *
 * A RAGFlow tool has two kinds of params. Its meta params (ToolParamBase `meta.parameters`) are
 * what the model supplies when an Agent calls it; as a canvas node they are read from the node's
 * own params, each either a bare reference (`sys.query`, `cpn@var`) or text with template
 * references (`{sys.query}`). Its other params configure it (API keys, limits…).
 */
import { componentSchema } from "../dsl/schemas.js";
import { findReferences, parseSelector, type Reference } from "../refs/grammar.js";
import { needsProvider } from "../components/needs-provider.js";
import type { CheckInfo, ComponentContext, ComponentDefinition, InvokeResult, ParamProblem, Params } from "../components/types.js";

export interface MetaParam {
  /** RAGFlow's default (many tools default their query to the template "{sys.query}"). */
  readonly default: unknown;
  /**
   * Never read the stored value as a bare reference: it is text such as an e-mail address
   * ("a@b.com" is spelled like a reference) or code.
   */
  readonly textOnly?: boolean;
}

export interface ToolSpec {
  /** The DSL's component_name. */
  readonly name: string;
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
  /** The real work. Until a provider implements it, running the tool fails with "needs a tool provider". */
  readonly invoke?: (ctx: ComponentContext) => InvokeResult | Promise<InvokeResult>;
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

export function defineTool(spec: ToolSpec): ComponentDefinition {
  const metaDefaults = Object.fromEntries(Object.entries(spec.meta).map(([key, param]) => [key, param.default]));
  return {
    name: spec.name,
    paramsSchema: componentSchema(spec.name),
    defaults: { ...metaDefaults, ...spec.defaults },
    // Tools retry on their own (max_retries, delay_after_error), as RAGFlow's tools do.
    capabilities: { provider: "tool", retriesInternally: true },
    usableAsTool: spec.usableAsTool ?? true,
    primaryOutput: spec.primaryOutput ?? "formalized_content",
    timeoutMs: spec.timeoutSeconds * 1000,
    thoughts: spec.thoughts ?? (() => `${spec.name} is running...`),
    references: (params) => [...metaReferences(spec.meta, params), ...(spec.references?.(params) ?? [])],
    ...(spec.check ? { check: spec.check } : {}),
    invoke: spec.invoke ?? needsProvider("tool"),
  };
}
