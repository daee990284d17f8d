/**
 * The run-time failure of a component whose work is done by an external provider (a chat model,
 * a search API, a sandbox…) when no provider is available. Validation accepts these components;
 * running one fails through the normal error path, so exception_method (goto/comment) applies.
 */
import type { ComponentContext, Params } from "./types.js";

export type ProviderKind = "llm" | "tool";

const WHAT: Record<ProviderKind, string> = {
  llm: "an LLM provider",
  tool: "a tool provider",
};

/** Thrown by `invoke` of a component that has no provider to run it. */
export class ProviderMissingError extends Error {
  constructor(
    readonly componentId: string,
    readonly componentType: string,
    readonly provider: ProviderKind,
  ) {
    super(`component ${componentId} (${componentType}) needs ${WHAT[provider]}`);
    this.name = "ProviderMissingError";
  }
}

/** An `invoke` that fails with ProviderMissingError naming the component and what it needs. */
export function needsProvider<P extends Params = Params>(provider: ProviderKind): (ctx: ComponentContext<P>) => never {
  return (ctx) => {
    throw new ProviderMissingError(ctx.id, ctx.componentName, provider);
  };
}
