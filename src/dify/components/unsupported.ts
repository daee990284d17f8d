/**
 * A node canvasflow cannot run (a plugin agent strategy, a plugin tool, a RAG-pipeline or trigger
 * node): the graph loads, validation lists it, and running it fails with the reason.
 */
import type { ComponentDefinition } from "../../components/types.js";

/** The param that carries why the node cannot run. */
export const UNSUPPORTED_REASON = "unsupported_reason";

export const DifyUnsupported: ComponentDefinition = {
  name: "DifyUnsupported",
  thoughts: () => "",
  invoke(ctx) {
    const reason = typeof ctx.params[UNSUPPORTED_REASON] === "string" ? ctx.params[UNSUPPORTED_REASON] : "this node type is not supported";
    throw new Error(`cannot run: ${reason}`);
  },
};
